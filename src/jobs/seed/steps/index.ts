/**
 * One handler per step kind, keyed by kind. A new kind is a schema in KINDS (schema.ts), its
 * checks in validate.ts and a handler here; the run loop (run.ts) does not change.
 */
import type { Kind, Step } from '../schema.js'
import { account } from './account.js'
import { apiKey } from './api-key.js'
import { budget } from './budget.js'
import { recurring } from './recurring.js'
import type { SeedState, StepHandler } from './handler.js'
import type { StepOutcome } from '../report.js'
import { importCsv } from './import.js'
import { statement } from './statement.js'
import { transactions } from './transactions.js'

export const HANDLERS: { [K in Kind]: StepHandler<K> } = {
  account,
  transactions,
  import: importCsv,
  statement,
  api_key: apiKey,
  budget,
  recurring,
}

/** The step run by the handler of its kind. */
export function runStep<K extends Kind>(step: Step<K>, state: SeedState): Promise<StepOutcome> {
  const handler: StepHandler<K> = HANDLERS[step.kind]
  return handler.run(step, state)
}

export { SeedState, type StepHandler } from './handler.js'

/**
 * The interface every step kind implements, and the state of the run a handler sees: the client,
 * what the target held before the run (the world, kept up to date by the handlers), the results of
 * earlier steps (what `${accounts.NAME.id}` resolves to) and the report's env values.
 */
import type { Client } from '../../../client/client.js'
import type { BankAccount } from '../../../domain/schemas.js'
import { AppError } from '../../../kernel/errors.js'
import { PLACEHOLDER_ID, contentKey, type World } from '../plan.js'
import type { SeedOptions, SeedReport, StepOutcome, StepStatus } from '../report.js'
import type { Results, StepRef } from '../resolve.js'
import { envName, materialize, type AnyStep, type Kind, type SpecOf, type Step } from '../schema.js'

/** One kind of step: found again, left as it is, updated or created (or, in a dry run, planned). */
export interface StepHandler<K extends Kind> {
  run(step: Step<K>, state: SeedState): Promise<StepOutcome>
}

export class SeedState {
  readonly dryRun: boolean
  readonly now: Date
  private readonly results: Results = {}
  private readonly contents = new Map<string, Map<string, number>>()

  constructor(
    readonly client: Client,
    readonly world: World,
    private readonly report: SeedReport,
    o: SeedOptions,
  ) {
    this.dryRun = Boolean(o.dryRun)
    this.now = o.now
  }

  /** How a step that cannot succeed is reported: 'would fail' in a dry run. */
  get failed(): StepStatus {
    return this.dryRun ? 'would fail' : 'failed'
  }

  /** The seed file's path, which a step's import batch names. */
  get file(): string {
    return this.report.file
  }

  /** The step's spec with earlier results filled in; in a dry run, objects not created yet stand in as placeholders. */
  spec<K extends Kind>(step: Step<K>): SpecOf[K] {
    const placeholder = this.dryRun ? (r: StepRef) => (r.field === 'id' ? PLACEHOLDER_ID : `(${r.ns}.${r.step}.${r.field})`) : undefined
    return materialize(step, this.results, placeholder)
  }

  /** What later steps may refer to (`${accounts.operating.id}`). */
  setResult(step: AnyStep, values: Record<string, string | undefined>): void {
    const ns = this.results[step.ns] ?? {}
    ns[step.name] = values
    this.results[step.ns] = ns
  }

  /** A value for --env-out (a placeholder id of a dry run is none). */
  env(step: AnyStep, field: string, value: string | undefined): void {
    if (value !== undefined && value !== PLACEHOLDER_ID) this.report.env[envName(step.ns, step.name, field)] = value
  }

  /** A key that existed before the run: --env-out cannot write its value, only say why. */
  keyWithoutValue(step: AnyStep, keyPrefix: string): void {
    this.report.keys_without_value[envName(step.ns, step.name, 'key')] = keyPrefix
  }

  async accountById(id: string): Promise<BankAccount> {
    const known = this.world.accounts.find((a) => a.id === id)
    if (known) return known
    return this.client.accounts.get(id).catch((e: unknown) => {
      if (e instanceof AppError && e.code === 'not_found') throw new AppError('not_found', `account: no bank account ${id}`)
      throw e
    })
  }

  /** Dry run: the account's transactions by content, read once per account and shared by its steps. */
  async contentIndex(account: string): Promise<Map<string, number>> {
    let index = this.contents.get(account)
    if (index) return index
    index = new Map<string, number>()
    for await (const page of this.client.transactions.pages({ bank_account_id: account, limit: 1000 })) {
      for (const t of page.data) {
        const k = contentKey(t.transaction_date, t.amount, t.description, t.currency_code)
        index.set(k, (index.get(k) ?? 0) + 1)
      }
    }
    this.contents.set(account, index)
    return index
  }
}

/** How many rows have a transaction of the same content left in `have` (each match used up once). */
export function takeMatches(
  have: Map<string, number>,
  rows: Array<{ transaction_date: string; amount: string | number; description: string; currency_code?: string }>,
  currency: string,
): number {
  let same = 0
  for (const r of rows) {
    const k = contentKey(r.transaction_date, r.amount, r.description, r.currency_code ?? currency)
    const left = have.get(k) ?? 0
    if (left > 0) {
      have.set(k, left - 1)
      same++
    }
  }
  return same
}

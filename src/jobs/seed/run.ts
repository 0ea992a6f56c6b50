/**
 * Seeding: the steps in file order, each found again by its marker (plan.ts) and then left as it
 * is ("exists"), changed where the service allows it ("updated"), or created ("created"). A step
 * that fails is listed and the run goes on; steps that need its results are not run. With
 * `dryRun`, the same decisions are made from reads only and nothing is written.
 *
 * This is the run loop alone: what a step of each kind does is its handler's (steps/).
 */
import type { Client } from '../../client/client.js'
import { AppError, errorText } from '../../kernel/errors.js'
import { prepare } from './plan.js'
import type { SeedOptions, SeedReport, StepOutcome } from './report.js'
import type { Seed } from './schema.js'
import { SeedState, runStep } from './steps/index.js'

export type { SeedOptions, SeedReport, StepOutcome, StepStatus } from './report.js'

/** Errors after which no later step can succeed: the run stops and the CLI exits with their code. */
const FATAL = new Set(['unreachable', 'unauthorized'])

/** Run every step; `fatal` is the error that stopped the run early, if any. */
export async function runSeed(client: Client, seed: Seed, o: SeedOptions): Promise<{ report: SeedReport; fatal?: AppError }> {
  const report: SeedReport = Object.assign(o.report ?? ({} as SeedReport), {
    file: seed.path,
    dry_run: Boolean(o.dryRun),
    steps: [],
    env: {},
    keys_without_value: {},
    failed: 0,
  })
  const state = new SeedState(client, await prepare(client, seed), report, o)
  const failedSteps = new Set<string>()
  let fatal: AppError | undefined
  for (const step of seed.steps) {
    let outcome: StepOutcome
    const blocked = step.refs.find((r) => failedSteps.has(`${r.ns}.${r.step}`))
    if (fatal) outcome = { step: step.name, kind: step.kind, status: 'failed', detail: `not run: ${fatal.message}` }
    else if (blocked)
      outcome = {
        step: step.name,
        kind: step.kind,
        status: 'failed',
        detail: `not run: it needs ${blocked.ns}.${blocked.step}, which failed`,
      }
    else {
      try {
        outcome = await runStep(step, state)
      } catch (e) {
        outcome = { step: step.name, kind: step.kind, status: 'failed', detail: errorText(e) }
        if (e instanceof AppError && FATAL.has(e.code)) fatal = e
      }
    }
    if (outcome.status === 'failed' || outcome.status === 'would fail') {
      failedSteps.add(`${step.ns}.${step.name}`)
      report.failed++
    }
    report.steps.push(outcome)
    o.onStep?.(outcome)
  }
  return { report, fatal }
}

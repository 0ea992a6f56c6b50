/**
 * What a seed run gives back: one outcome per step, in file order, and the values --env-out writes.
 * The step handlers (steps/) make the outcomes; the run loop (run.ts) gathers them.
 */
import type { Kind } from './schema.js'

export type StepStatus =
  | 'created'
  | 'updated'
  | 'exists'
  | 'failed'
  | 'would create'
  | 'would update'
  | 'would create or update'
  | 'would fail'

export interface StepOutcome {
  step: string
  kind: Kind
  status: StepStatus
  /** The object's id (accounts, statements, keys). */
  id?: string
  detail: string
  counts?: { created: number; updated: number; exists: number; failed: number }
  errors?: string[]
}

export interface SeedReport {
  file: string
  dry_run: boolean
  steps: StepOutcome[]
  /** `NAME=value` pairs for --env-out: ids of the seeded objects, and keys created by this run. */
  env: Record<string, string>
  /** Keys that existed before this run, by env name, with their key_prefix: their value is not known any more. */
  keys_without_value: Record<string, string>
  failed: number
}

export interface SeedOptions {
  dryRun?: boolean
  now: Date
  /** Called after each step (progress on stderr). */
  onStep?: (o: StepOutcome) => void
  /** An object the run fills as its report, step by step: a caller whose run was stopped reads it. */
  report?: SeedReport
}

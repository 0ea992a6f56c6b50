/** finctl policy show | set --require-approval STEPS: the company's approval policy (docs/people.md). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { APPROVAL_STEPS, type ApprovalStep } from '../../src/kernel/vocabulary.js'
import { count } from '../../src/kernel/words.js'
import { printProposed } from './shared.js'

export type ShowOptions = Record<string, never>
export interface SetOptions {
  requireApproval?: string
  bulkThreshold?: string
}

export function registerPolicyShow(policy: Command, run: Runner, runF: RunVerb<ShowOptions> = runPolicyShow): void {
  policy
    .command('show')
    .description('show the approval policy: the steps that wait for a second person')
    .addHelpText('after', '\nExample:\n  finctl policy show\n')
    .action(run(runF))
}

export function registerPolicySet(policy: Command, run: Runner, runF: RunVerb<SetOptions> = runPolicySet): void {
  policy
    .command('set')
    .description('set the approval policy (the owner); once on, a change is itself a proposal')
    .option('--require-approval <steps>', `comma-separated: ${APPROVAL_STEPS.join(', ')}; "none" turns it off`)
    .option('--bulk-threshold <n>', 'with bulk: a bulk update of more transactions than this waits for approval (1-1000)')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl policy set --require-approval reopen,revert\n  finctl policy set --require-approval reopen,bulk,key-write --bulk-threshold 50\n',
    )
    .action(run(runF))
}

export async function runPolicyShow(host: VerbHost): Promise<number> {
  const client = await host.client()
  const p = await client.policy.get()
  await printRecord(host.io, host.printer, p)
  note(
    host.io,
    host.printer,
    p.require_approval.length
      ? `approval needed for: ${p.require_approval.join(', ')}, policy${p.bulk_threshold ? ` (bulk: over ${count(p.bulk_threshold, 'transaction')})` : ''}`
      : 'no approval policy',
  )
  return EXIT.ok
}

/** --require-approval: step names of the table in docs/people.md, or `none`. */
export function stepsFlag(value: string | undefined): ApprovalStep[] {
  if (value === undefined) throw new AppError('usage', `--require-approval is required (${APPROVAL_STEPS.join(', ')}, or none)`)
  const steps = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (steps.length === 1 && steps[0] === 'none') return []
  const bad = steps.filter((s) => !(APPROVAL_STEPS as readonly string[]).includes(s))
  if (bad.length || !steps.length)
    throw new AppError(
      'usage',
      `--require-approval: unknown step ${bad.map((b) => `"${b}"`).join(', ') || '""'} (use ${APPROVAL_STEPS.join(', ')}, or none)`,
    )
  return steps as ApprovalStep[]
}

/** --bulk-threshold: a whole number of rows, 1 to 1000 (the most a bulk update takes); given with bulk alone. */
export function thresholdFlag(value: string | undefined, steps: ApprovalStep[]): number | undefined {
  if (value === undefined) {
    if (steps.includes('bulk')) throw new AppError('usage', '--bulk-threshold N is required with bulk (a bulk update of more rows waits)')
    return undefined
  }
  if (!steps.includes('bulk')) throw new AppError('usage', '--bulk-threshold goes with --require-approval bulk')
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < 1 || n > 1000)
    throw new AppError('usage', `--bulk-threshold: "${value}" is not a whole number from 1 to 1000`)
  return n
}

export async function runPolicySet(host: VerbHost, o: SetOptions): Promise<number> {
  const steps = stepsFlag(o.requireApproval)
  const threshold = thresholdFlag(o.bulkThreshold, steps)
  const client = await host.client()
  const r = await client.policy.set({ require_approval: steps, ...(threshold === undefined ? {} : { bulk_threshold: threshold }) })
  if (r.proposal) return printProposed(host, r.proposal)
  await printRecord(host.io, host.printer, r.done)
  const bulk = threshold === undefined ? '' : ` (bulk: over ${count(threshold, 'transaction')})`
  note(host.io, host.printer, steps.length ? `approval now needed for: ${steps.join(', ')}${bulk}` : 'approval policy off')
  return EXIT.ok
}

/** finctl policy show | set --require-approval STEPS: the company's approval policy (docs/people.md). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { APPROVAL_STEPS, type ApprovalStep } from '../../src/kernel/vocabulary.js'
import { printProposed } from './shared.js'

export type ShowOptions = Record<string, never>
export interface SetOptions {
  requireApproval?: string
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
    .addHelpText('after', '\nExample:\n  finctl policy set --require-approval reopen,revert\n')
    .action(run(runF))
}

export async function runPolicyShow(host: VerbHost): Promise<number> {
  const client = await host.client()
  const p = await client.policy.get()
  await printRecord(host.io, host.printer, p)
  note(
    host.io,
    host.printer,
    p.require_approval.length ? `approval needed for: ${p.require_approval.join(', ')}, policy` : 'no approval policy',
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

export async function runPolicySet(host: VerbHost, o: SetOptions): Promise<number> {
  const steps = stepsFlag(o.requireApproval)
  const client = await host.client()
  const r = await client.policy.set({ require_approval: steps })
  if (r.proposal) return printProposed(host, r.proposal)
  await printRecord(host.io, host.printer, r.done)
  note(host.io, host.printer, steps.length ? `approval now needed for: ${steps.join(', ')}` : 'approval policy off')
  return EXIT.ok
}

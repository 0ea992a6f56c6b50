/** finctl approvals approve ID: apply a proposal's step as proposed (another person than the proposer). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printProposal, withPeopleNamed } from './shared.js'
import type { Proposal } from '../../src/domain/approvals/schemas.js'
import { proposalId } from '../../src/cli/id-kinds.js'

export type ApproveOptions = Record<string, never>

export function registerApprove(approvals: Command, run: Runner, runF: RunVerb<ApproveOptions> = runApprove): void {
  approvals
    .command('approve')
    .argument('<id>', "the proposal's id")
    .description("approve a proposal: its step is applied as proposed (never one's own)")
    .addHelpText('after', '\nExample:\n  finctl approvals approve 0193…\n')
    .action(run(runF))
}

export async function runApprove(host: VerbHost, _o: ApproveOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const proposal = await proposalId(client, id)
  let p: Proposal | undefined
  await withPeopleNamed(host, client, async () => {
    p = await client.approvals.approve(proposal)
  })
  await printProposal(host, client, p!)
  note(host.io, host.printer, `approved ${p!.id}: ${p!.kind} ${p!.target} applied`)
  return EXIT.ok
}

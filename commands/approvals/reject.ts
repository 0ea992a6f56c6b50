/** finctl approvals reject ID --reason R: a proposal refused (or withdrawn by its proposer), with the reason. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printProposal, withPeopleNamed } from './shared.js'
import type { Proposal } from '../../src/domain/approvals/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { proposalId } from '../../src/cli/id-kinds.js'

export interface RejectOptions {
  reason?: string
}

export function registerReject(approvals: Command, run: Runner, runF: RunVerb<RejectOptions> = runReject): void {
  approvals
    .command('reject')
    .argument('<id>', "the proposal's id")
    .description('reject a proposal, saying why (its proposer may withdraw it the same way)')
    .option('--reason <text>', 'why (required; recorded)')
    .addHelpText('after', '\nExample:\n  finctl approvals reject 0193… --reason "the invoice came in March"\n')
    .action(run(runF))
}

export async function runReject(host: VerbHost, o: RejectOptions, [id]: string[]): Promise<number> {
  if (!o.reason?.trim()) throw new AppError('usage', '--reason TEXT is required: say why the proposal is rejected')
  const client = await host.client()
  const proposal = await proposalId(client, id)
  let p: Proposal | undefined
  await withPeopleNamed(host, client, async () => {
    p = await client.approvals.reject(proposal, o.reason!)
  })
  await printProposal(host, client, p!)
  note(host.io, host.printer, `rejected ${p!.id}`)
  return EXIT.ok
}

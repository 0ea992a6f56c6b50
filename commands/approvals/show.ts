/** finctl approvals show ID: a proposal, its request and the effect approving it would have. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printProposal } from './shared.js'
import { proposalId } from '../../src/cli/id-kinds.js'

export type ShowOptions = Record<string, never>

export function registerShow(approvals: Command, run: Runner, runF: RunVerb<ShowOptions> = runShow): void {
  approvals
    .command('show')
    .argument('<id>', "the proposal's id")
    .description('show a proposal: its request, its effect, its state')
    .addHelpText('after', '\nExample:\n  finctl approvals show 0193… --json\n')
    .action(run(runF))
}

export async function runShow(host: VerbHost, _o: ShowOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  await printProposal(host, client, await client.approvals.get(await proposalId(client, id)))
  return EXIT.ok
}

/** finctl approvals show ID: a proposal, its request and the effect approving it would have. */
import type { Command } from 'commander'
import { actorNames } from '../../src/cli/actor-names.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'

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
  const p = await client.approvals.get(id)
  // The record names the people as the list does: by email (--json keeps the ids).
  const name = await actorNames(client, host.printer, [p.proposed_by, p.decided_by])
  const shown =
    host.printer.format === 'table' ? { ...p, proposed_by: name(p.proposed_by), decided_by: p.decided_by && name(p.decided_by) } : p
  await printRecord(host.io, host.printer, shown)
  return EXIT.ok
}

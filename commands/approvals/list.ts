/** finctl approvals list [--mine] [--state S]: the proposals that wait (or of a state). */
import type { Command } from 'commander'
import { actorNames } from '../../src/cli/actor-names.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { PROPOSAL_STATES } from '../../src/kernel/vocabulary.js'
import { proposalColumns } from './shared.js'

export interface ListOptions {
  mine?: boolean
  state?: string
}

const STATES = [...PROPOSAL_STATES, 'all']

export function registerList(approvals: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  approvals
    .command('list')
    .description('list the proposals that wait for approval')
    .option('--mine', 'only my own proposals')
    .option('--state <state>', `${STATES.join(', ')} (default pending)`)
    .addHelpText('after', '\nExample:\n  finctl approvals list --mine\n')
    .action(run(runF))
}

export async function runList(host: VerbHost, o: ListOptions): Promise<number> {
  if (o.state !== undefined && !STATES.includes(o.state)) throw new AppError('usage', `--state: use ${STATES.join(', ')}`)
  const client = await host.client()
  const rows = await client.approvals.list({ state: o.state, mine: o.mine })
  const name = await actorNames(
    client,
    host.printer,
    rows.map((p) => p.proposed_by),
  )
  await printList(host.io, host.printer, rows, proposalColumns(name), { empty: 'no proposals' })
  return EXIT.ok
}

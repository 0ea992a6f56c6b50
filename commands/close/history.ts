/** finctl close history: every close and reopen, the latest first. */
import type { Command } from 'commander'
import { type ActorName, actorNames } from '../../src/cli/actor-names.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printList, type Column } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { CloseRecord } from '../../src/domain/closing/schemas.js'

export type HistoryOptions = Record<string, never>

export function registerHistory(close: Command, run: Runner, runF: RunVerb<HistoryOptions> = runHistory): void {
  close
    .command('history')
    .description('every close and reopen, the latest first')
    .addHelpText('after', '\nExample:\n  finctl close history --json\n')
    .action(run(runF))
}

// The time stays whole, and the lock date (the point of a close) is never left out; on a narrow terminal `forced` goes first.
const historyColumns = (name: ActorName): Column<CloseRecord>[] => [
  { header: 'at', value: (r) => r.created_at, whole: true },
  { header: 'action', value: (r) => r.action },
  { header: 'period', value: (r) => r.period },
  { header: 'lock date', value: (r) => r.lock_date ?? '', keep: true },
  { header: 'actor', value: (r) => name(r.actor) },
  { header: 'forced', value: (r) => (r.forced ? 'yes' : ''), drop: 1 },
  { header: 'reason', value: (r) => r.reason ?? '' },
]

export async function runHistory(host: VerbHost): Promise<number> {
  const client = await host.client()
  const list = await client.close.history()
  const name = await actorNames(
    client,
    host.printer,
    list.map((r) => r.actor),
  )
  await printList(host.io, host.printer, list, historyColumns(name), { empty: 'no month was ever closed' })
  return EXIT.ok
}

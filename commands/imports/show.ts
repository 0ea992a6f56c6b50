/** finctl imports show BATCH: one import batch, its file, options and plan, counts, state and rejected rows. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { transactionColumns } from '../../src/cli/columns.js'
import { note, printList, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { showPending } from './pending.js'
import { batchId } from './shared.js'

export type ShowOptions = Record<string, never>

const ROWS_SHOWN = 50

export function registerShow(im: Command, run: Runner, runF: RunVerb<ShowOptions> = runShow): void {
  im.command('show')
    .argument('<batch>', 'the batch id (or 6+ of its hex digits)')
    .description(
      'show an import batch: its file, the mapping and plan it ran with, its counts and rejected rows; a pending one (tx import --review) its pending rows',
    )
    .addHelpText('after', '\nExample:\n  finctl imports show 1a2b3c4d\n')
    .action(run(runF))
}

export async function runShow(host: VerbHost, _o: ShowOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const b = await client.imports.get(await batchId(client, id))
  const { rejects, counts, options, ...record } = b
  const table = {
    ...record,
    created: counts.created,
    'already there': counts.existing,
    reconciled: counts.reconciled,
    rejected: counts.rejected,
    options: JSON.stringify(options),
  }
  // A review import's batch shows the rows it keeps pending (pending.ts).
  if (b.state === 'pending') await showPending(host, client, b, table)
  else if (host.printer.format !== 'table') await printRecord(host.io, host.printer, b)
  else await printRecord(host.io, host.printer, table)
  if (host.printer.format !== 'table') return EXIT.ok
  for (const r of rejects) note(host.io, host.printer, `line ${r.line} rejected: ${printableLine(r.reason)}`)
  if (counts.rejected > rejects.length) note(host.io, host.printer, `... and ${counts.rejected - rejects.length} more rejected rows`)
  if (b.state === 'pending') return EXIT.ok
  // A reverted batch has no rows left to list (and its statement, if any, is gone: it answers 404).
  if (b.state === 'reverted') {
    const what = b.statement_id ? `its rows and statement ${b.statement_id} were deleted` : 'its rows were deleted'
    note(host.io, host.printer, `reverted by ${printableLine(b.reverted_by ?? 'unknown')} at ${b.reverted_at}: ${what}`)
    return EXIT.ok
  }
  if (b.statement_id) {
    note(host.io, host.printer, `its rows: finctl statements transactions ${b.statement_id}`)
    return EXIT.ok
  }
  // Its rows, found through the chain entries of its writes (the first page; --json has the record alone).
  const rows = await client.transactions.list({ import_batch_id: b.id, limit: ROWS_SHOWN })
  if (rows.data.length) {
    note(host.io, host.printer, `the rows it created${rows.pagination?.has_more ? `: the first ${ROWS_SHOWN}` : ''}`)
    await printList(host.io, host.printer, rows.data, transactionColumns)
  }
  return EXIT.ok
}

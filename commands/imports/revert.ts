/**
 * finctl imports revert BATCH [--dry-run] [--include-edited] [--yes]: a batch's rows removed as one
 * audited change (docs/importing-csv.md, "Revert a batch"). The question names what goes; a revert
 * the service would refuse is not asked about.
 */
import type { Command } from 'commander'
import { amountColumn, idColumn } from '../../src/cli/columns.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printList, printRecord, type Column } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { shortId } from '../../src/cli/short-ids.js'
import type { Client } from '../../src/client/client.js'
import type { RevertedRow, RevertResult } from '../../src/domain/imports/revert-schemas.js'
import { count } from '../../src/kernel/words.js'
import { batchId } from './shared.js'
import { unlinkedDocumentsLine } from '../../src/cli/unlinked-documents.js'

export interface RevertOptions {
  dryRun?: boolean
  includeEdited?: boolean
  yes?: boolean
}

const rowColumns: Column<RevertedRow>[] = [
  idColumn((r) => r.id),
  { header: 'date', value: (r) => r.transaction_date, whole: true },
  amountColumn(
    'amount',
    (r) => r.amount,
    (r) => r.currency_code,
  ),
  { header: 'description', value: (r) => r.description },
  { header: 'action', value: (r) => r.action, drop: 1 },
  { header: 'edited', value: (r) => (r.edited ? 'yes' : ''), drop: 2 },
]

export function registerRevert(im: Command, run: Runner, runF: RunVerb<RevertOptions, VerbHost & PromptHost> = runRevert): void {
  im.command('revert')
    .argument('<batch>', 'the batch id (or 6+ of its hex digits)')
    .description("remove an import batch's rows (and undo its pairings) as one audited change, so the corrected file can be imported")
    .option('--dry-run', 'say what would go, and what stops it, without changing anything')
    .option('--include-edited', 'revert rows changed by hand since the import too (rows in a closed month never are)')
    .option('--yes', 'do not ask to confirm')
    .addHelpText(
      'after',
      '\nExit codes: 6 when refused (rows in a closed month, rows changed by hand without --include-edited, reverted already); 15 when an approval policy makes it a proposal.\n\nExamples:\n  finctl imports revert 1a2b3c4d --dry-run\n  finctl imports revert 1a2b3c4d --yes\n',
    )
    .action(run(runF))
}

function what(r: RevertResult): string {
  const parts = [`${count(r.deleted, 'row')} deleted`]
  if (r.unpaired) parts.push(`${count(r.unpaired, 'pairing')} undone`)
  if (r.statement) parts.push(`statement ${r.statement.id} (${r.statement.file_name}) deleted, so the file can be uploaded again`)
  const docs = r.documents ?? []
  if (docs.length) parts.push(unlinkedDocumentsLine(docs, 'the rows deleted'))
  return parts.join(', ')
}

/** Why a dry run would be refused, in the words of the refusal: each reason counted. */
function refusedWhy(r: RevertResult): string {
  const closed = r.refused.filter((x) => x.reason === 'closed_month').length
  const edited = r.refused.length - closed
  return [
    ...(closed ? [`${count(closed, 'row')} in a closed month`] : []),
    ...(edited ? [`${count(edited, 'row')} changed by hand (--include-edited reverts them)`] : []),
  ].join(', ')
}

export async function runRevert(host: VerbHost & PromptHost, o: RevertOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const batch = await batchId(client, id)
  const include_edited = o.includeEdited === true
  // With --yes nothing is asked: the revert plans once, on the service, instead of twice.
  if (!o.dryRun && (o.yes || host.globals.yes)) return revert(host, client, batch, include_edited)
  const planned = await client.imports.revert(batch, { dry_run: true, include_edited })
  if (o.dryRun) {
    const refused = planned.refused.length > 0
    if (host.printer.format !== 'table') await printRecord(host.io, host.printer, planned)
    // A refused revert would do nothing: its rows are not listed as going.
    else if (!refused) await printList(host.io, host.printer, planned.transactions, rowColumns, { empty: 'no rows to revert' })
    for (const r of planned.refused)
      note(
        host.io,
        host.printer,
        `refused: ${r.id} (dated ${r.transaction_date}): ${r.message}${r.reason === 'edited' ? ' (--include-edited reverts it)' : ''}`,
      )
    if (refused) {
      note(
        host.io,
        host.printer,
        `dry run: the revert of import batch ${shortId(batch)} would be refused (exit 6): ${refusedWhy(planned)}; nothing would be reverted, nothing was changed`,
      )
      return EXIT.invalid
    }
    if (planned.transactions.length < planned.deleted + planned.unpaired)
      note(host.io, host.printer, `... and ${planned.deleted + planned.unpaired - planned.transactions.length} more rows`)
    note(host.io, host.printer, `dry run: would revert import batch ${shortId(batch)}: ${what(planned)}; nothing was changed`)
    return EXIT.ok
  }
  // Refused: the service's refusal names the rows; no question first.
  if (!planned.refused.length)
    await confirmOrYes(
      host,
      o.yes,
      `Revert import batch ${shortId(batch)} (${planned.batch.file_name})? ${what(planned)}`.replace(/ deleted/, ' to delete'),
    )
  return revert(host, client, batch, include_edited)
}

async function revert(host: VerbHost, client: Client, batch: string, include_edited: boolean): Promise<number> {
  const o = await client.imports.requestRevert(batch, { include_edited })
  if (o.proposal) {
    // Loaded with a proposal: the group's other verbs do not need the approvals' output.
    const { printProposed } = await import('../approvals/shared.js')
    return printProposed(host, o.proposal)
  }
  const r = o.done
  if (host.printer.format !== 'table') await printRecord(host.io, host.printer, r)
  else await printList(host.io, host.printer, r.transactions, rowColumns, { empty: 'no rows were reverted' })
  note(host.io, host.printer, `reverted import batch ${shortId(batch)}: ${what(r)}`)
  return EXIT.ok
}

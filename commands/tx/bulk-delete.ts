/** finctl tx bulk-delete (--ids | --ids-file | filters) [--dry-run] [--yes] */
import type { Command } from 'commander'
import { transactionColumns } from '../../src/cli/columns.js'
import { note, printList } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { firstRows } from '../../src/cli/short-ids.js'
import { addListFilters } from '../../src/cli/tx-filters.js'
import { AppError } from '../../src/kernel/errors.js'
import { count } from '../../src/kernel/words.js'
import { unlinkedDocumentsLine } from '../../src/cli/unlinked-documents.js'
import { type BulkSelection, bulkTargets, noteChunks, refuseLocked, sendChunks } from './bulk-shared.js'

export type BulkDeleteOptions = BulkSelection & { dryRun?: boolean; yes?: boolean }

export function registerBulkDelete(
  tx: Command,
  run: Runner,
  runF: RunVerb<BulkDeleteOptions, VerbHost & PromptHost> = runBulkDelete,
): void {
  addListFilters(
    tx
      .command('bulk-delete')
      .description('delete many transactions at once: all or nothing per 1,000')
      .option('--ids <list>', 'comma-separated transaction ids')
      .option('--ids-file <path>', 'a file of transaction ids, one per line ("-" for stdin)')
      .option('--dry-run', 'show what would be deleted and delete nothing')
      .option('--yes', 'do not ask to confirm'),
    { paging: false },
  )
    .addHelpText(
      'after',
      '\nExamples:\n  finctl tx bulk-delete --account $ACCT --from 2026-05-01 --to 2026-05-31 --search "TEST" --dry-run\n  finctl tx bulk-delete --ids-file ids.txt --yes\n',
    )
    .action(run(runF))
}

export async function runBulkDelete(host: VerbHost & PromptHost, o: BulkDeleteOptions): Promise<number> {
  const client = await host.client()
  const { targets, full, total } = await bulkTargets(host, client, o)
  if (targets.length === 0) {
    note(host.io, host.printer, 'no transactions match: nothing to delete')
    return 0
  }
  const summary = `${count(targets.length, 'transaction')}${total ? `, total ${total[3]}` : ''}`
  if (o.dryRun) {
    note(host.io, { quiet: false }, `dry run: would delete ${summary}`)
    if (full) await printList(host.io, host.printer, full, transactionColumns, { footer: total })
    else await printList(host.io, host.printer, targets, [{ header: 'id', value: (t) => t.id }])
    return 0
  }
  noteChunks(host, targets)
  await refuseLocked(client, full)
  // As `tx delete`: a reconciled row is kept, said before the question (the service checks again).
  const reconciled = full?.find((t) => t.is_reconciled)
  if (reconciled)
    throw new AppError(
      'conflict',
      `transaction ${reconciled.id}, one of those matched, is reconciled and cannot be deleted: un-reconcile it first (tx update ID --reconciled false)`,
    )
  // The rows shown in the question are fetched only when it is asked (--yes asks nothing).
  const asked = !(o.yes || host.globals.yes)
  await confirmOrYes(host, o.yes, `Delete ${summary}?${asked ? await firstRows(client, targets) : ''}`)
  const sent = await sendChunks(
    host,
    targets,
    (ids) => client.transactions.requestBulkDelete({ transaction_ids: ids }),
    (r) => r.deleted,
    'deleted',
  )
  if ('exit' in sent) return sent.exit
  // Over a bulk approval policy's threshold the delete waits: its proposals said, exit 15.
  if (sent.proposals.length) {
    if (sent.n) note(host.io, host.printer, `deleted ${count(sent.n, 'transaction')}; the rest waits for approval`)
    let code = 0
    for (const p of sent.proposals) {
      // Loaded with a proposal: the group's other verbs do not need the approvals' output.
      const { printProposed } = await import('../approvals/shared.js')
      code = await printProposed(host, p)
    }
    return code
  }
  // The rows as they were, each once: what went.
  await printList(
    host.io,
    host.printer,
    sent.answers.flatMap((r) => r.transactions),
    transactionColumns,
  )
  note(host.io, host.printer, `deleted ${count(sent.n, 'transaction')}`)
  const docs = sent.answers.flatMap((r) => r.documents)
  if (docs.length) note(host.io, host.printer, unlinkedDocumentsLine(docs, 'the rows deleted'))
  return 0
}

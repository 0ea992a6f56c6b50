/** finctl tx bulk-update (--ids | --ids-file | filters) --set field=value... [--dry-run] [--yes] */
import { collect } from '../../src/cli/flags.js'
import type { Command } from 'commander'
import { transactionColumns } from '../../src/cli/columns.js'
import { note, printList } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { firstRows } from '../../src/cli/short-ids.js'
import { addListFilters } from '../../src/cli/tx-filters.js'
import type { BulkUpdateRequest } from '../../src/domain/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { parseBool, splitList } from './shared.js'
import { count } from '../../src/kernel/words.js'
import { type BulkSelection, bulkTargets, noteChunks, refuseLocked, sendChunks } from './bulk-shared.js'

export type BulkUpdateOptions = BulkSelection & { set?: string[]; dryRun?: boolean; yes?: boolean }

export function registerBulkUpdate(
  tx: Command,
  run: Runner,
  runF: RunVerb<BulkUpdateOptions, VerbHost & PromptHost> = runBulkUpdate,
): void {
  addListFilters(
    tx
      .command('bulk-update')
      .description('change many transactions at once: all or nothing per 1,000')
      .option('--ids <list>', 'comma-separated transaction ids')
      .option('--ids-file <path>', 'a file of transaction ids, one per line ("-" for stdin)')
      .option(
        '--set <field=value>',
        'category, accounting_category, cash_flow_category, merchant_name, status, is_reconciled, tags, add_tags, remove_tags; one per --set',
        collect,
      )
      .option('--dry-run', 'show what would change and change nothing')
      .option('--yes', 'do not ask to confirm'),
    { paging: false },
  )
    .addHelpText(
      'after',
      '\nExamples:\n  finctl tx bulk-update --search "AWS" --set category=Software --set accounting_category=operating_expenses --yes\n  finctl tx bulk-update --ids-file ids.txt --set add_tags=reviewed --dry-run\n',
    )
    .action(run(runF))
}

const BULK_FIELDS = [
  'category',
  'accounting_category',
  'cash_flow_category',
  'merchant_name',
  'status',
  'is_reconciled',
  'tags',
  'add_tags',
  'remove_tags',
] as const

function parseSets(sets: string[] | undefined): BulkUpdateRequest['updates'] {
  if (!sets?.length) throw new AppError('usage', 'give at least one --set field=value (for example --set category=Rent)')
  const updates: Record<string, unknown> = {}
  for (const s of sets) {
    const eq = s.indexOf('=')
    if (eq < 1) throw new AppError('usage', `--set ${s}: write it as field=value`)
    const field = s.slice(0, eq).trim().replace(/-/g, '_')
    const value = s.slice(eq + 1)
    if (!(BULK_FIELDS as readonly string[]).includes(field))
      throw new AppError('usage', `--set: ${field} cannot be bulk-updated (use ${BULK_FIELDS.join(', ')})`)
    if (field === 'is_reconciled') updates[field] = parseBool(value, '--set is_reconciled')
    else if (field === 'tags' || field === 'add_tags' || field === 'remove_tags') updates[field] = splitList(value)
    else updates[field] = value === '' && field !== 'status' ? null : value
  }
  return updates as BulkUpdateRequest['updates']
}

export async function runBulkUpdate(host: VerbHost & PromptHost, o: BulkUpdateOptions): Promise<number> {
  const updates = parseSets(o.set)
  const client = await host.client()
  const { targets, full, total } = await bulkTargets(host, client, o)
  if (targets.length === 0) {
    note(host.io, host.printer, 'no transactions match: nothing to change')
    return 0
  }
  const summary = `${count(targets.length, 'transaction')}${total ? `, total ${total[3]}` : ''}: set ${Object.entries(updates)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`)
    .join(', ')}`
  if (o.dryRun) {
    note(host.io, { quiet: false }, `dry run: would change ${summary}`)
    if (full) await printList(host.io, host.printer, full, transactionColumns, { footer: total })
    else await printList(host.io, host.printer, targets, [{ header: 'id', value: (t) => t.id }])
    return 0
  }
  noteChunks(host, targets)
  await refuseLocked(client, full)
  // The rows shown in the question are fetched only when it is asked (--yes asks nothing).
  const asked = !(o.yes || host.globals.yes)
  await confirmOrYes(host, o.yes, `Change ${summary}?${asked ? await firstRows(client, targets) : ''}`)
  const sent = await sendChunks(
    host,
    targets,
    (ids) => client.transactions.requestBulkUpdate({ transaction_ids: ids, updates }),
    (r) => r.updated,
    'updated',
  )
  if ('exit' in sent) return sent.exit
  // Over a bulk approval policy's threshold the change waits: its proposals said, exit 15.
  if (sent.proposals.length) {
    if (sent.n) note(host.io, host.printer, `updated ${count(sent.n, 'transaction')}; the rest waits for approval`)
    let code = 0
    for (const p of sent.proposals) {
      // Loaded with a proposal: the group's other verbs do not need the approvals' output.
      const { printProposed } = await import('../approvals/shared.js')
      code = await printProposed(host, p)
    }
    return code
  }
  await printList(
    host.io,
    host.printer,
    sent.answers.flatMap((r) => r.transactions),
    transactionColumns,
  )
  note(host.io, host.printer, `updated ${count(sent.n, 'transaction')}`)
  return 0
}

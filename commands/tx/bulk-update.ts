/** finctl tx bulk-update (--ids | --ids-file | filters) --set field=value... [--dry-run] [--yes] */
import { collect } from '../../src/cli/flags.js'
import { noteNearCategory } from '../../src/cli/category-names.js'
import type { Command } from 'commander'
import { transactionColumns } from '../../src/cli/columns.js'
import { readIds } from '../../src/cli/ids.js'
import { note, printList, say } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { accountsFor, firstRows, resolveTransactionIds } from '../../src/cli/short-ids.js'
import { amountTotal } from '../../src/cli/totals.js'
import { addListFilters, hasFilter, listQuery, type ListFilterOptions } from '../../src/cli/tx-filters.js'
import type { BulkUpdateRequest, Transaction } from '../../src/domain/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { isLocked, periodLocked } from '../../src/domain/accounts/period-lock.js'
import { parseBool, splitList } from './shared.js'
import { count } from '../../src/kernel/words.js'
import type { Proposal } from '../../src/domain/approvals/schemas.js'
import { printProposed } from '../approvals/shared.js'

export type BulkUpdateOptions = ListFilterOptions & { ids?: string; idsFile?: string; set?: string[]; dryRun?: boolean; yes?: boolean }

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

const BULK_CHUNK = 1000

export async function runBulkUpdate(host: VerbHost & PromptHost, o: BulkUpdateOptions): Promise<number> {
  const updates = parseSets(o.set)
  const query = listQuery(o, host)
  const sources = [o.ids !== undefined, o.idsFile !== undefined, hasFilter(query)].filter(Boolean).length
  if (sources !== 1)
    throw new AppError(
      'usage',
      'choose the transactions with exactly one of --ids, --ids-file or list filters (--category, --from, --search, ...)',
    )
  const client = await host.client()
  await accountsFor(host, client, query)
  await noteNearCategory(host, client, o.category, 'filter')

  // Filters are resolved first, so the plan shows exactly the rows and the amount they touch.
  // Explicit ids go as they are: the service checks them all or nothing (one GET each would spend the rate limit).
  let targets: Array<Pick<Transaction, 'id'> & Partial<Transaction>>
  if (o.ids !== undefined || o.idsFile !== undefined) {
    const typed = [...new Set(o.ids !== undefined ? splitList(o.ids) : await readIds(host.io, o.idsFile!))]
    if (typed.length === 0) throw new AppError('usage', 'no transaction ids given')
    const ids = [...new Set(await resolveTransactionIds(client, typed, o.ids !== undefined ? '--ids' : '--ids-file'))]
    targets = ids.map((id) => ({ id }))
  } else {
    const rows: Transaction[] = []
    for await (const page of client.pages<Transaction>('/api-v1/transactions', { ...query, limit: 1000 })) rows.push(...page.data)
    targets = rows
  }
  if (targets.length === 0) {
    note(host.io, host.printer, 'no transactions match: nothing to change')
    return 0
  }
  const full = targets.every((t) => t.amount !== undefined) ? (targets as Transaction[]) : undefined
  const total = full ? amountTotal(full) : undefined
  const summary = `${count(targets.length, 'transaction')}${total ? `, total ${total[3]}` : ''}: set ${Object.entries(updates)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`)
    .join(', ')}`
  if (o.dryRun) {
    note(host.io, { quiet: false }, `dry run: would change ${summary}`)
    if (full) await printList(host.io, host.printer, full, transactionColumns, { footer: total })
    else await printList(host.io, host.printer, targets, [{ header: 'id', value: (t) => t.id }])
    return 0
  }
  if (targets.length > BULK_CHUNK)
    note(
      host.io,
      host.printer,
      `${count(targets.length, 'transaction')} go in ${count(Math.ceil(targets.length / BULK_CHUNK), 'request')} of at most ${BULK_CHUNK}; each is all or nothing`,
    )
  // A refusal that does not depend on the answer comes before the question, and before a first
  // chunk is written: with rows of a closed month among them, a later chunk would be refused.
  if (full) {
    const { lock_date } = await client.company()
    const locked = lock_date ? full.find((t) => isLocked(lock_date, t.transaction_date)) : undefined
    if (lock_date && locked)
      throw periodLocked(
        lock_date,
        locked.transaction_date,
        `transaction ${locked.id} (dated ${locked.transaction_date}), one of those matched,`,
      )
  }
  // The rows shown in the question are fetched only when it is asked (--yes asks nothing).
  const asked = !(o.yes || host.globals.yes)
  await confirmOrYes(host, o.yes, `Change ${summary}?${asked ? await firstRows(client, targets) : ''}`)
  let updated = 0
  const changed: Transaction[] = []
  const proposals: Proposal[] = []
  for (let i = 0; i < targets.length; i += BULK_CHUNK) {
    const ids = targets.slice(i, i + BULK_CHUNK).map((t) => t.id)
    try {
      const o = await client.transactions.requestBulkUpdate({ transaction_ids: ids, updates })
      if (o.proposal) {
        proposals.push(o.proposal)
        continue
      }
      const r = o.done
      updated += r.updated
      changed.push(...r.transactions)
    } catch (err) {
      if (updated > 0 && err instanceof AppError) {
        say(
          host.io,
          `error: ${err.message}\n  ${updated} of ${count(targets.length, 'transaction')} ${updated === 1 ? 'was' : 'were'} updated before this request failed`,
        )
        return 8
      }
      throw err
    }
  }
  // Over a bulk approval policy's threshold the change waits: its proposals said, exit 15.
  if (proposals.length) {
    if (updated) note(host.io, host.printer, `updated ${count(updated, 'transaction')}; the rest waits for approval`)
    let code = 0
    for (const p of proposals) code = await printProposed(host, p)
    return code
  }
  await printList(host.io, host.printer, changed, transactionColumns)
  note(host.io, host.printer, `updated ${count(updated, 'transaction')}`)
  return 0
}

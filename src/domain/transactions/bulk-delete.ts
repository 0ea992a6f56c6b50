/**
 * Deleting many transactions at once, all or nothing (docs/api.md section 4): each row as
 * `deleteTransaction` deletes one (its creation and delete entries chained, its event, the model's
 * examples), refused whole when a row is unknown, in a closed period or reconciled.
 */
import { type UnlinkedDocument, linkedDocuments, unlinkDocumentsOf } from './document-links.js'
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import { minorToNumber } from '../../kernel/money.js'
import { count } from '../../kernel/words.js'
import type { Db, NewAuditEntryRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { isLocked, lockDateOf, periodLocked } from '../accounts/period-lock.js'
import { exampleOf } from '../categorization/labels.js'
import type { Example } from '../categorization/model.js'
import { labelsChanged } from '../categorization/settings.js'
import { recordEvents } from '../events.js'
import type { BulkDeleteRequest, Transaction } from '../schemas.js'
import { toTransaction } from '../transaction-rows.js'
import { auditRow, creationRow, diff } from './audit.js'
import { deletedEvent } from './events.js'
import { bulkIds, lockRows, requireAll } from './updates.js'

export type BulkDeleteResult = { deleted: number; transactions: Transaction[]; documents: UnlinkedDocument[] }
/** The sum of the rows a bulk delete takes away, per currency (exact: summed in minor units). */
export type BulkDeleteTotal = { currency_code: string; rows: number; amount: number }

export async function bulkDeleteTransactions(store: Store, actor: Actor, req: BulkDeleteRequest, now: Date): Promise<BulkDeleteResult> {
  return store
    .writeTransaction((trx) => bulkDeleteIn(store, trx, actor, req, now))
    .then(({ result, learn }) => {
      learn()
      return result
    })
}

/**
 * The bulk delete inside the caller's write transaction. `expected` (an approved proposal's rows and
 * their `updated_at` then): any row changed since refuses the whole delete. `dryRun`: checked, its
 * rows and totals computed, nothing written (a proposal's effect).
 */
export async function bulkDeleteIn(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  req: BulkDeleteRequest,
  now: Date,
  o: { expected?: ReadonlyMap<string, string>; dryRun?: boolean } = {},
): Promise<{ result: BulkDeleteResult; totals: BulkDeleteTotal[]; learn: () => void }> {
  const ids = bulkIds(req)
  const rows = await lockRows(store, trx, actor.companyId, ids)
  requireAll(ids, rows, 'deleted')
  const moved = o.expected && rows.find((r) => o.expected!.get(r.id) !== r.updated_at)
  if (moved) throw new AppError('conflict', `transaction ${moved.id} changed since the bulk delete was proposed`)
  const order = new Map(ids.map((id, i) => [id, i]))
  rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
  const more = (n: number) => (n > 1 ? ` and ${count(n - 1, 'other')} of the request` : '')
  const lockDate = await lockDateOf(trx, actor.companyId)
  const locked = rows.filter((r) => isLocked(lockDate, r.transaction_date))
  if (lockDate && locked.length)
    throw periodLocked(
      lockDate,
      locked[0].transaction_date,
      `transaction ${locked[0].id} (dated ${locked[0].transaction_date})${more(locked.length)}`,
      'transaction_ids',
    )
  const reconciled = rows.filter((r) => r.is_reconciled === 1)
  if (reconciled.length)
    throw new AppError(
      'conflict',
      `transaction ${reconciled[0].id}${more(reconciled.length)} is reconciled and cannot be deleted: un-reconcile it first (is_reconciled: false); nothing was deleted`,
      { details: reconciled.map((r) => ({ path: 'transaction_ids', message: `${r.id} is reconciled` })) },
    )
  const transactions = rows.map(toTransaction)
  const totals = totalsOf(rows)
  if (o.dryRun)
    return {
      result: { deleted: rows.length, transactions, documents: await linkedDocuments(trx, actor.companyId, ids) },
      totals,
      learn: () => {},
    }
  const result = { deleted: rows.length, transactions, documents: await unlinkDocumentsOf(trx, actor.companyId, ids) }
  // A bulk load's ref table must not keep the refs these rows free (as an import's revert).
  if (rows.some((r) => r.import_ref)) store.tx.refsWillChange()
  await store.writes.deleteTransactions(
    trx,
    rows.map((r) => Number(r.seq)),
  )
  const audit: NewAuditEntryRow[] = []
  const removed: Example[] = []
  for (const [i, r] of rows.entries()) {
    const created = creationRow(actor.companyId, r.id, r)
    if (created) audit.push(created)
    audit.push(auditRow(actor, 'delete', r.id, diff(transactions[i], null), now))
    const e = exampleOf(r)
    if (e) removed.push(e)
  }
  // The chain's head is locked last, after every row lock of this write.
  await store.writes.appendAudit(trx, audit, 1000)
  const learn = await labelsChanged(trx, store, actor.companyId, removed, [], now)
  await recordEvents(
    store,
    trx,
    transactions.map((t) => deletedEvent(actor, t, now)),
  )
  return { result, totals, learn }
}

function totalsOf(rows: ReadonlyArray<{ currency_code: string; amount: number | bigint | string }>): BulkDeleteTotal[] {
  const sums = new Map<string, { rows: number; minor: bigint }>()
  for (const r of rows) {
    const s = sums.get(r.currency_code) ?? { rows: 0, minor: 0n }
    s.rows++
    s.minor += BigInt(r.amount)
    sums.set(r.currency_code, s)
  }
  return [...sums]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency_code, s]) => ({ currency_code, rows: s.rows, amount: minorToNumber(s.minor, currency_code) }))
}

/**
 * Changing transactions: update (status rules, reconciled lock), delete, all-or-nothing bulk
 * update, and the detail view with history. Each change and its audit entries share one database
 * transaction that locks the rows it read, so concurrent changes never lose one another.
 */
import { type UnlinkedDocument, unlinkDocumentsOf } from './document-links.js'
import type { Kysely } from 'kysely'
import type { Store } from '../../store/store.js'
import type { Db } from '../../store/schema.js'
import type { TransactionRow } from '../../store/transaction-codec.js'
import type { Actor } from '../actor.js'
import { auditRow, type Changes, creationRow, diff, history } from './audit.js'
import { findBankAccount } from '../accounts/bank-accounts.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { AppError, notFound, validation } from '../../kernel/errors.js'
import { convertMinor, parseAmount, parseRate } from '../../kernel/money.js'
import type { BulkUpdateRequest, Transaction, TransactionDetail, UpdateTransactionRequest } from '../schemas.js'
import { RateBook } from '../rate-book.js'
import { companyKey, findTransaction, toTransaction } from '../transaction-rows.js'
import { baseCurrency } from '../accounts/companies.js'
import { exampleOf } from '../categorization/labels.js'
import { labelsChanged } from '../categorization/settings.js'
import type { Example } from '../categorization/model.js'
import { checkPlausible, type DateWindow } from './plausibility.js'
import { checkUnlocked, isLocked, lockDateOf, periodLocked } from '../accounts/period-lock.js'
import { checkOpened } from '../accounts/opening.js'
import { recordEvents } from '../events.js'
import { deletedEvent, updatedEvent } from './events.js'
import { count } from '../../kernel/words.js'
import { notesOf } from './notes.js'

const CATEGORY_FIELDS = ['category', 'accounting_category', 'cash_flow_category'] as const

/** A person (or a rule they applied) setting any category field decides it: the model's score goes. */
function categorizedByHand(patch: Partial<Record<(typeof CATEGORY_FIELDS)[number], unknown>>): boolean {
  return CATEGORY_FIELDS.some((f) => patch[f] !== undefined)
}

/** What changing rows means for the model: the examples they were, and the ones they are now. */
class LabelDelta {
  readonly removed: Example[] = []
  readonly added: Example[] = []
  note(before: TransactionRow, after: TransactionRow | null): void {
    const was = exampleOf(before)
    const is = after ? exampleOf(after) : null
    if (
      was &&
      is &&
      was.label === is.label &&
      was.description === is.description &&
      was.merchant_name === is.merchant_name &&
      was.amount_minor === is.amount_minor
    )
      return
    if (was) this.removed.push(was)
    if (is) this.added.push(is)
  }
}

/** pending -> posted -> void; pending -> void; void is final. */
const NEXT_STATUS: Record<string, readonly string[]> = { pending: ['posted', 'void'], posted: ['void'], void: [] }

/** Fields a reconciled transaction keeps. */
const LOCKED_WHEN_RECONCILED = ['amount', 'transaction_date', 'posted_date', 'bank_account_id', 'currency_code', 'exchange_rate'] as const

/** Whether a patched value equals the stored one: amounts and rates by value ("-5.00" is -5), the rest as text. */
function sameValue(field: (typeof LOCKED_WHEN_RECONCILED)[number], value: string | number, row: TransactionRow): boolean {
  if (field === 'amount') {
    const r = parseAmount(value, currencyExponent(row.currency_code))
    return r.ok && r.minor === Number(row.amount)
  }
  if (field === 'exchange_rate') return parseRate(value) === row.exchange_rate
  return String(value) === String(row[field])
}

function checkStatus(from: string, to: string | undefined, id: string): void {
  if (to === undefined || to === from) return
  if (!NEXT_STATUS[from]?.includes(to)) {
    const allowed = NEXT_STATUS[from]?.length ? `it can go to ${NEXT_STATUS[from].join(' or ')}` : 'void is final'
    throw new AppError('conflict', `transaction ${id} cannot go from ${from} to ${to}: ${allowed}`)
  }
}

/** The company's rows of `ids`, locked for the caller's write transaction (row locks where the dialect has them). */
export async function lockRows(store: Store, trx: Kysely<Db>, companyId: string, ids: string[]): Promise<TransactionRow[]> {
  const stored = store.tx.idParams(ids)
  if (stored.length === 0) return []
  const out: TransactionRow[] = []
  const company = await companyKey(store, companyId, trx)
  for (let i = 0; i < stored.length; i += 500) {
    let q = trx
      .selectFrom('transactions')
      .selectAll()
      .where('company_key', '=', company)
      .where('id', 'in', stored.slice(i, i + 500))
      // One order of taking row locks, whoever takes them: two bulk changes cannot deadlock.
      .orderBy('id')
    if (store.sql.rowLocks) q = q.forUpdate()
    out.push(...(await store.tx.decode(trx, await q.execute())))
  }
  // In the request's order, as results and a proposal's rows are shown, whatever plan the database chose.
  const position = new Map(ids.map((id, i) => [id, i]))
  return out.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0))
}

export async function updateTransaction(
  store: Store,
  actor: Actor,
  id: string,
  patch: UpdateTransactionRequest,
  now: Date,
  window: DateWindow,
): Promise<Transaction> {
  return store
    .writeTransaction((trx) => updateIn(store, trx, actor, id, patch, now, window))
    .then(({ after, learn }) => {
      learn()
      return after
    })
}

/**
 * An update inside the caller's write transaction. `expected` (an approved proposal's `updated_at`
 * of the row then): a row changed since refuses it. `dryRun`: checked and its changes computed,
 * nothing written (a proposal's effect).
 */
export async function updateIn(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  id: string,
  patch: UpdateTransactionRequest,
  now: Date,
  window: DateWindow,
  o: { expected?: string; dryRun?: boolean } = {},
): Promise<{ before: Transaction; after: Transaction; changes: Changes; learn: () => void }> {
  const [row] = await lockRows(store, trx, actor.companyId, [id])
  if (!row) throw notFound('transaction')
  if (o.expected !== undefined && row.updated_at !== o.expected)
    throw new AppError(
      'conflict',
      `transaction ${row.id} changed since the change was proposed (updated ${row.updated_at}, shown ${o.expected})`,
    )
  const before = toTransaction(row)
  const lockDate = await lockDateOf(trx, actor.companyId)
  if (patch.transaction_date !== undefined && patch.transaction_date !== row.transaction_date)
    checkUnlocked(lockDate, patch.transaction_date, `the new transaction_date ${patch.transaction_date}`)
  if (row.is_reconciled === 1) {
    const touched = LOCKED_WHEN_RECONCILED.filter((f) => patch[f] !== undefined && !sameValue(f, patch[f] as string | number, row))
    if (touched.length) {
      throw new AppError(
        'conflict',
        `transaction ${id} is reconciled, so its ${touched.join(', ')} cannot change: un-reconcile it first (is_reconciled: false)`,
      )
    }
  }
  checkStatus(row.status, patch.status, id)
  const next: TransactionRow = { ...row, updated_at: now.toISOString() }

  const movedAccount = patch.bank_account_id !== undefined && patch.bank_account_id !== row.bank_account_id
  if (patch.bank_account_id !== undefined) {
    const account = await findBankAccount(store, actor.companyId, patch.bank_account_id, trx).catch(() => {
      throw new AppError('not_found', 'bank account not found', {
        details: [{ path: 'bank_account_id', message: 'no such bank account' }],
      })
    })
    next.bank_account_id = account.id
    next.account_key = account.key
  }
  // A transaction moved to another date or account may not land before that account's opening date.
  if (movedAccount || (patch.transaction_date !== undefined && patch.transaction_date !== row.transaction_date))
    checkOpened(await findBankAccount(store, actor.companyId, next.bank_account_id, trx), patch.transaction_date ?? row.transaction_date)
  const currency = patch.currency_code ?? row.currency_code
  // A rate that came from the company's rates table (it has a date) follows the transaction to a new
  // date; a rate given by hand stays.
  const movedOffItsRate =
    patch.transaction_date !== undefined && patch.transaction_date !== row.transaction_date && row.exchange_rate_date != null
  if (patch.amount !== undefined || patch.currency_code !== undefined || patch.exchange_rate !== undefined || movedOffItsRate) {
    const base = await baseCurrency(store, actor.companyId, trx)
    const amountText = patch.amount ?? before.amount
    const amount = parseAmount(amountText, currencyExponent(currency))
    if (!amount.ok) throw validation('amount', `${amount.message} (${currency})`)
    const keepRate = currency === row.currency_code && !movedOffItsRate
    let rate =
      patch.exchange_rate !== undefined ? parseRate(patch.exchange_rate) : keepRate ? row.exchange_rate : currency === base ? '1' : null
    let rateDate = patch.exchange_rate !== undefined ? null : (row.exchange_rate_date ?? null)
    if (patch.exchange_rate !== undefined && !rate) throw validation('exchange_rate', 'must be a positive decimal number')
    if (!rate) {
      // A new currency without a rate: the company's rate of the transaction's date (finctl rates).
      const date = patch.transaction_date ?? row.transaction_date
      const found = (await RateBook.load(trx, actor.companyId, [{ currency, date }])).require(currency, date, base)
      rate = found.rate
      rateDate = found.date
    }
    if (currency === base && rate !== '1') throw validation('exchange_rate', `must be 1 for the base currency ${base}`)
    if (currency === base) rateDate = null
    try {
      next.base_amount = convertMinor(amount.minor, currencyExponent(currency), rate, currencyExponent(base))
    } catch {
      throw validation('amount', `is too large once converted to the base currency ${base}`)
    }
    rate = rate as string
    Object.assign(next, { amount: amount.minor, currency_code: currency, exchange_rate: rate, exchange_rate_date: rateDate })
  }
  // Only what this request changes is checked: a forced date stays when another field is updated.
  checkPlausible(
    {
      transaction_date: patch.transaction_date !== row.transaction_date ? patch.transaction_date : undefined,
      posted_date: patch.posted_date !== row.posted_date ? patch.posted_date : undefined,
      amountMinor: next.amount !== row.amount && Number(next.amount) === 0 ? 0 : undefined,
      force: patch.force,
    },
    window,
    now,
  )
  for (const f of [
    'transaction_date',
    'posted_date',
    'description',
    'category',
    'accounting_category',
    'cash_flow_category',
    'merchant_name',
    'status',
  ] as const) {
    if (patch[f] !== undefined) (next as unknown as Record<string, unknown>)[f] = patch[f]
  }
  if (patch.is_reconciled !== undefined) next.is_reconciled = patch.is_reconciled ? 1 : 0
  if (patch.tags !== undefined) next.tags = JSON.stringify([...new Set(patch.tags)])
  if (categorizedByHand(patch)) next.ai_confidence_score = null
  const after = toTransaction(next)
  const changes = diff(before, after)
  if (Object.keys(changes).length === 0) return { before, after: before, changes, learn: () => {} }
  checkUnlocked(lockDate, row.transaction_date, `transaction ${row.id} (dated ${row.transaction_date})`, 'id')
  if (o.dryRun) return { before, after, changes, learn: () => {} }
  await store.tx.update(trx, next)
  await store.writes.appendAudit(trx, [auditRow(actor, 'update', row.id, changes, now)])
  const delta = new LabelDelta()
  delta.note(row, next)
  const learn = await labelsChanged(trx, store, actor.companyId, delta.removed, delta.added, now)
  await recordEvents(store, trx, [updatedEvent(actor, after, Object.keys(changes), now)])
  return { before, after, changes, learn }
}

export async function deleteTransaction(
  store: Store,
  actor: Actor,
  id: string,
  now: Date,
): Promise<{ id: string; deleted: true; documents: UnlinkedDocument[] }> {
  return store
    .writeTransaction(async (trx) => {
      const [row] = await lockRows(store, trx, actor.companyId, [id])
      if (!row) throw notFound('transaction')
      checkUnlocked(
        await lockDateOf(trx, actor.companyId),
        row.transaction_date,
        `transaction ${row.id} (dated ${row.transaction_date})`,
        'id',
      )
      if (row.is_reconciled === 1)
        throw new AppError(
          'conflict',
          `transaction ${id} is reconciled and cannot be deleted: un-reconcile it first (is_reconciled: false)`,
        )
      const documents = await unlinkDocumentsOf(trx, actor.companyId, [row.id])
      await trx.deleteFrom('transactions').where('seq', '=', row.seq).execute()
      const created = creationRow(actor.companyId, row.id, row)
      await store.writes.appendAudit(trx, [
        ...(created ? [created] : []),
        auditRow(actor, 'delete', row.id, diff(toTransaction(row), null), now),
      ])
      const delta = new LabelDelta()
      delta.note(row, null)
      const learn = await labelsChanged(trx, store, actor.companyId, delta.removed, delta.added, now)
      await recordEvents(store, trx, [deletedEvent(actor, toTransaction(row), now)])
      return { id: row.id, documents, learn }
    })
    .then(({ id, documents, learn }) => {
      learn()
      return { id, deleted: true as const, documents }
    })
}

/** The transactions a bulk update or delete names, once each: UUIDs are found whatever their case. */
export const bulkIds = (req: { transaction_ids: readonly string[] }) => [...new Set(req.transaction_ids.map((id) => id.toLowerCase()))]

/** All or nothing: an id of `ids` that `rows` lacks refuses the whole request, naming the missing ones. */
export function requireAll(ids: readonly string[], rows: readonly TransactionRow[], done: string): void {
  if (rows.length === ids.length) return
  const found = new Set(rows.map((r) => r.id))
  const missing = ids.filter((id) => !found.has(id))
  throw new AppError(
    'not_found',
    `${count(missing.length, 'transaction')} not found; nothing was ${done}: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}`,
    { details: missing.map((id) => ({ path: 'transaction_ids', message: `${id} not found` })) },
  )
}

export type BulkResult = { updated: number; transactions: Transaction[] }
/** A row a bulk update names: its `updated_at` before, and each field's before and after (none: as asked already). */
export type BulkChange = { id: string; transaction_date: string; updated_at: string; changes: Changes }

export async function bulkUpdateTransactions(store: Store, actor: Actor, req: BulkUpdateRequest, now: Date): Promise<BulkResult> {
  return store
    .writeTransaction((trx) => bulkUpdateIn(store, trx, actor, req, now))
    .then(({ result, learn }) => {
      learn()
      return result
    })
}

/**
 * The bulk update inside the caller's write transaction. `expected` (an approved proposal's rows
 * and their `updated_at` then): any row changed since refuses the whole update. `dryRun`: checked
 * and its changes computed, nothing written (a proposal's effect).
 */
export async function bulkUpdateIn(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  req: BulkUpdateRequest,
  now: Date,
  o: { expected?: ReadonlyMap<string, string>; dryRun?: boolean } = {},
): Promise<{ result: BulkResult; learn: () => void; changed: BulkChange[] }> {
  const { expected, dryRun } = o
  const ids = bulkIds(req)
  const u = req.updates
  if (u.tags !== undefined && (u.add_tags !== undefined || u.remove_tags !== undefined)) {
    throw validation('updates.tags', 'replaces all tags: give it alone, or use add_tags / remove_tags')
  }
  const rows = await lockRows(store, trx, actor.companyId, ids)
  requireAll(ids, rows, 'changed')
  for (const row of rows) checkStatus(row.status, u.status, row.id)
  const moved = expected && rows.find((r) => expected.get(r.id) !== r.updated_at)
  if (moved) throw new AppError('conflict', `transaction ${moved.id} changed since the bulk update was proposed`)
  const lockDate = await lockDateOf(trx, actor.companyId)
  /** Rows in a closed period the request would change: all-or-nothing, so one refuses the whole request. */
  const locked: TransactionRow[] = []
  const ts = now.toISOString()
  const out: Transaction[] = []
  const audit = []
  const events = []
  const changed: BulkChange[] = []
  const delta = new LabelDelta()
  for (const row of rows) {
    const next: TransactionRow = { ...row, updated_at: ts }
    for (const f of ['category', 'accounting_category', 'cash_flow_category', 'merchant_name', 'status'] as const) {
      if (u[f] !== undefined) (next as unknown as Record<string, unknown>)[f] = u[f]
    }
    if (u.is_reconciled !== undefined) next.is_reconciled = u.is_reconciled ? 1 : 0
    if (u.tags !== undefined || u.add_tags || u.remove_tags) {
      let tags: string[] = u.tags ?? (JSON.parse(row.tags) as string[])
      if (u.add_tags) tags = [...tags, ...u.add_tags]
      if (u.remove_tags) tags = tags.filter((t) => !u.remove_tags!.includes(t))
      next.tags = JSON.stringify([...new Set(tags)])
    }
    if (categorizedByHand(u)) next.ai_confidence_score = null
    const before = toTransaction(row)
    const after = toTransaction(next)
    const changes = diff(before, after)
    out.push(Object.keys(changes).length ? after : before)
    changed.push({ id: row.id, transaction_date: row.transaction_date, updated_at: row.updated_at, changes })
    if (Object.keys(changes).length === 0) continue
    if (isLocked(lockDate, row.transaction_date)) {
      locked.push(row)
      continue
    }
    if (!dryRun) await store.tx.update(trx, next)
    audit.push(auditRow(actor, 'bulk_update', row.id, changes, now))
    events.push(updatedEvent(actor, after, Object.keys(changes), now))
    delta.note(row, next)
  }
  if (locked.length && lockDate) {
    const first = locked[0]
    const more = locked.length > 1 ? ` and ${count(locked.length - 1, 'other')} of the request` : ''
    // The database transaction rolls back what the loop wrote before.
    throw periodLocked(
      lockDate,
      first.transaction_date,
      `transaction ${first.id} (dated ${first.transaction_date})${more}`,
      'transaction_ids',
    )
  }
  if (dryRun) return { result: { updated: rows.length, transactions: out }, learn: () => {}, changed }
  await store.writes.appendAudit(trx, audit, 1000)
  const learn = await labelsChanged(trx, store, actor.companyId, delta.removed, delta.added, now)
  await recordEvents(store, trx, events)
  // `updated` counts the transactions the request applied to (those already as asked included)
  return { result: { updated: rows.length, transactions: out }, learn, changed }
}

export async function getTransactionDetail(store: Store, companyId: string, id: string): Promise<TransactionDetail> {
  const tx = await findTransaction(store, companyId, id)
  const account = await store.db.selectFrom('bank_accounts').select('name').where('key', '=', tx.account_key).executeTakeFirstOrThrow()
  const transaction = toTransaction(tx)
  const statement = tx.bank_statement_id
    ? await store.db
        .selectFrom('bank_statements')
        .select(['id', 'file_name'])
        .where('id', '=', tx.bank_statement_id)
        .where('company_id', '=', companyId)
        .executeTakeFirst()
    : undefined
  // Read here, not through documents/: that aggregate stands above this one.
  const documents = await store.db
    .selectFrom('document_links as l')
    .innerJoin('documents as d', (j) => j.onRef('d.id', '=', 'l.document_id').onRef('d.company_id', '=', 'l.company_id'))
    .select(['d.id as id', 'd.file_name as file_name', 'd.kind as kind'])
    .where('l.company_id', '=', companyId)
    .where('l.transaction_id', '=', tx.id)
    .orderBy('l.linked_at')
    .execute()
  return {
    ...transaction,
    bank_account: { id: tx.bank_account_id, name: account.name },
    statement: statement ?? null,
    documents,
    history: await history(store.db, companyId, tx.id, tx, transaction),
    notes: await notesOf(store.db, companyId, tx.id),
  }
}

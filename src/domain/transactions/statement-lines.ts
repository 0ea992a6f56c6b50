/**
 * Imported rows already on a statement. A statement upload reconciles the lines it
 * finds already entered (../reconcile.ts); this is the same rule the other way round, for a
 * batch that asks for it (`match_statement_lines`, sent by `finctl tx import`): a row with an
 * import_ref pairs with a transaction of its account that came from a statement line and has not
 * been paired with an imported row yet (import_ref empty), is not void, has the same amount in the
 * account's currency (a row in another currency: what it counts for in the balance,
 * accounts/balances.ts) and a transaction_date at most 3 days away. Pairs are taken best first exactly as the
 * upload takes them (matchLines: most words in common, nearest date, file order); each row takes at
 * most one transaction and each transaction at most one row, so two equal rows of a file stay two
 * unless the statement holds both.
 *
 * A paired transaction is not created again: it takes the row's import_ref (so importing the file
 * again finds it "already imported") and is reconciled (is_reconciled true, posted), as it would be
 * had the file been imported first and the statement uploaded after: either order gives one set of
 * rows in the same state. Each pairing is audited as a `reconcile`.
 */
import type { Kysely } from 'kysely'
import { unpairedStatementRows } from '../../store/queries.js'
import type { Db, NewAuditEntryRow } from '../../store/schema.js'
import type { NewTransactionRow, TransactionRow } from '../../store/transaction-codec.js'
import { InsertedRows, type Store } from '../../store/store.js'
import { creationEntries } from '../../store/creations.js'
import type { Actor } from '../actor.js'
import { auditRow, diff } from './audit.js'
import { toTransaction } from '../transaction-rows.js'
import { baseCurrency } from '../accounts/companies.js'
import { amountInAccount } from '../accounts/balances.js'
import { isLocked, lockDateOf } from '../accounts/period-lock.js'
import { matchLines, MATCH_WINDOW_DAYS, shiftDate, type Candidate } from '../reconcile.js'

/** Where a batch's rows went. */
export interface Placement {
  /** The rows inserted now, by their place in the batch's rows. */
  inserted: InsertedRows
  /** For rows left out as duplicates, the ids of the transactions holding their refs, where known (InsertOptions.existing). */
  existing?: Map<string, string>
  /** Index in `rows` -> the id of the statement's transaction it was paired with. */
  matched: Map<number, string>
}

function dateRange(rows: NewTransactionRow[]): [string, string] {
  let lo = rows[0].transaction_date
  let hi = lo
  for (const r of rows) {
    if (r.transaction_date < lo) lo = r.transaction_date
    if (r.transaction_date > hi) hi = r.transaction_date
  }
  return [shiftDate(lo, -MATCH_WINDOW_DAYS), shiftDate(hi, MATCH_WINDOW_DAYS)]
}

/** The rows with an import_ref of each account (by key), as indexes in `rows`. */
function byAccount(rows: NewTransactionRow[]): Map<number, number[]> {
  const out = new Map<number, number[]>()
  rows.forEach((r, i) => {
    if (!r.import_ref) return
    const list = out.get(r.account_key)
    if (list) list.push(i)
    else out.set(r.account_key, [i])
  })
  return out
}

/**
 * The account's transactions from statement lines not yet paired with an imported row, not void,
 * dated from..to. They are read through the partial index of statement lines (account,
 * statement_ref): SQLite's planner, left alone, took the account's date index and read every row of
 * those dates, the imported ones too, a cost growing with the account (docs/performance.md).
 */
async function unpaired(
  store: Store,
  db: Kysely<Db>,
  account: number,
  from: string,
  to: string,
  o: { limit?: number; lock?: boolean } = {},
): Promise<TransactionRow[]> {
  return store.tx.decode(db, await unpairedStatementRows(db, store.sql, { account, from, to, ...o }))
}

/** The currency of an account (by key) and its company's base currency. */
async function accountCurrency(store: Store, db: Kysely<Db>, companyId: string, key: number): Promise<[string, string]> {
  const row = await db.selectFrom('bank_accounts').select('currency_code').where('key', '=', key).executeTakeFirstOrThrow()
  return [row.currency_code, await baseCurrency(store, companyId, db)]
}

/** Whether any account of the batch has a statement transaction a row could pair with (no lock: the fast path's test). */
export async function mayMatch(store: Store, rows: NewTransactionRow[]): Promise<boolean> {
  for (const [account, indexes] of byAccount(rows)) {
    // An account without statements (a bulk import into a new account) is answered by one index probe.
    const accountId = rows[indexes[0]].bank_account_id
    if (!(await store.db.selectFrom('bank_statements').select('id').where('bank_account_id', '=', accountId).limit(1).executeTakeFirst()))
      continue
    const [from, to] = dateRange(indexes.map((i) => rows[i]))
    if ((await unpaired(store, store.db, account, from, to, { limit: 1 })).length) return true
  }
  return false
}

/**
 * Inside the caller's write transaction: pair the rows with statement transactions, reconcile
 * those, insert the others (a row whose import_ref exists already is left out, as ever). The rows'
 * actors are prepared before the transaction (TransactionCodec.prepareActors).
 */
export async function placeRows(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  rows: NewTransactionRow[],
  now: Date,
  /** The import batch the rows are part of (InsertOptions.batch). */
  batch?: string,
): Promise<Placement> {
  const matched = new Map<number, string>()
  const accounts = byAccount(rows)
  const lockDate = await lockDateOf(trx, actor.companyId)
  // PostgreSQL: a statement being applied to one of these accounts holds its row FOR NO KEY UPDATE
  // (statements/apply.ts); wait for it, so that neither misses what the other writes. SQLite's
  // write transaction serialises both already.
  if (store.sql.rowLocks && accounts.size) {
    await trx
      .selectFrom('bank_accounts')
      .select('id')
      .where(
        'key',
        'in',
        [...accounts.keys()].sort((a, b) => a - b),
      )
      .orderBy('key')
      .forShare()
      .execute()
  }
  const ts = now.toISOString()
  const audit: NewAuditEntryRow[] = []
  // Pairs take import_refs: the unique index must be there (a bulk load may have set it aside).
  if (accounts.size) store.tx.refsWillChange()
  for (const [account, indexes] of accounts) {
    // Rows imported before are duplicates, not pairs.
    const known = new Set<string>()
    const refs = indexes.map((i) => rows[i].import_ref!)
    for (let i = 0; i < refs.length; i += 500) {
      const found = await trx
        .selectFrom('transactions')
        .select('import_ref')
        .where('account_key', '=', account)
        .where('import_ref', 'in', refs.slice(i, i + 500))
        .execute()
      for (const f of found) if (f.import_ref) known.add(f.import_ref)
    }
    const fresh = indexes.filter((i) => !known.has(rows[i].import_ref!))
    if (fresh.length === 0) continue
    const [from, to] = dateRange(fresh.map((i) => rows[i]))
    // A statement transaction of a closed period is not paired (that would change it): the row is created beside it.
    const found = (await unpaired(store, trx, account, from, to, { lock: true })).filter((r) => !isLocked(lockDate, r.transaction_date))
    if (found.length === 0) continue
    const byId = new Map(found.map((r) => [r.id, r]))
    // In the account's currency, the statement's: a row in another one by what it counts for in the balance.
    const [currency, base] = await accountCurrency(store, trx, actor.companyId, account)
    const inAccount = (r: NewTransactionRow) => amountInAccount(r, currency, base)
    const candidates: Candidate[] = found.flatMap((r) => {
      const amount = inAccount(r)
      return amount === undefined
        ? []
        : [{ id: r.id, transaction_date: r.transaction_date, amount, description: r.description, merchant_name: r.merchant_name }]
    })
    const lines = fresh.flatMap((i) => {
      const amountMinor = inAccount(rows[i])
      if (amountMinor === undefined) return []
      const line = {
        date: rows[i].transaction_date,
        amountMinor,
        description: rows[i].description,
        merchant: rows[i].merchant_name ?? undefined,
      }
      return [{ index: i, line }]
    })
    for (const [index, id] of matchLines(lines, candidates)) {
      const before = byId.get(id)!
      const after: TransactionRow = {
        ...before,
        import_ref: rows[index].import_ref ?? null,
        is_reconciled: 1,
        status: before.status === 'pending' ? 'posted' : before.status,
        updated_at: ts,
      }
      await trx
        .updateTable('transactions')
        .set({ import_ref: after.import_ref, is_reconciled: 1, status: after.status, updated_at: ts })
        .where('seq', '=', before.seq)
        .execute()
      audit.push(auditRow(actor, 'reconcile', id, diff(toTransaction(before), toTransaction(after)), now))
      matched.set(index, id)
    }
  }
  const fresh = rows.filter((_, i) => !matched.has(i))
  const ids = await store.tx.insert(trx, fresh)
  // The head is locked last, after every row lock of this write (no deadlock with an update).
  await store.writes.appendAudit(trx, [
    ...audit,
    ...creationEntries(
      fresh,
      (i) => ids.has(fresh[i].id),
      () => actor.companyId,
      batch,
    ),
  ])
  return { inserted: InsertedRows.ofIds(rows, ids), matched }
}

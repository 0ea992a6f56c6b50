/**
 * Listing transactions: every filter of API.md section 4, sorted, with opaque keyset cursors
 * (a page walk sees each row once, whatever is inserted meanwhile) and the filtered total.
 */
import { CompiledQuery, sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely'
import { AMOUNT_INDEX } from '../../store/migrations/index.js'
import type { Store } from '../../store/store.js'
import type { Db, TransactionRow } from '../../store/schema.js'
import { AppError } from '../../kernel/errors.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { parseAmount } from '../../kernel/money.js'
import { baseCurrency, toTransaction } from './rows.js'
import type { Transaction, TransactionListQuery } from '../schemas.js'
import { findBankAccount } from '../accounts/bank-accounts.js'

export const SORTS = ['transaction_date', '-transaction_date', 'amount', '-amount', 'created_at', '-created_at'] as const
export type Sort = (typeof SORTS)[number]
type SortColumn = 'transaction_date' | 'amount' | 'created_at'

export interface Page<T> {
  data: T[]
  pagination: { limit: number; next_cursor: string | null; has_more: boolean; total: number }
}

interface Cursor {
  s: Sort
  v: string | number
  id: string
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.s, c.v, c.id])).toString('base64url')
}

function decodeCursor(text: string, sort: Sort): Cursor {
  try {
    const [s, v, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as [Sort, string | number, string]
    if (!SORTS.includes(s) || typeof id !== 'string' || (typeof v !== 'string' && typeof v !== 'number')) throw new Error('shape')
    if (s !== sort)
      throw new AppError('validation_error', 'this cursor belongs to another sort order: keep `sort` the same while paging', {
        details: [{ path: 'cursor', message: 'was made for another sort order' }],
      })
    return { s, v, id }
  } catch (e) {
    if (e instanceof AppError) throw e
    throw new AppError('validation_error', 'invalid cursor: pass the next_cursor of the previous page unchanged', {
      details: [{ path: 'cursor', message: 'is not a cursor of this list' }],
    })
  }
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

type TxQuery = SelectQueryBuilder<Db, 'transactions', object>

/** Apply the filters (not the cursor) to a query over transactions. */
async function applyFilters(store: Store, db: Kysely<Db>, companyId: string, q: TransactionListQuery, query: TxQuery): Promise<TxQuery> {
  let out = query.where('transactions.company_id', '=', companyId)
  if (q.bank_account_id) out = out.where('transactions.bank_account_id', '=', q.bank_account_id)
  if (q.statement_id) out = out.where('transactions.bank_statement_id', '=', q.statement_id)
  if (q.from) out = out.where('transactions.transaction_date', '>=', q.from)
  if (q.to) out = out.where('transactions.transaction_date', '<=', q.to)
  if (q.status) out = out.where('transactions.status', '=', q.status)
  if (q.category) out = out.where('transactions.category', '=', q.category)
  if (q.accounting_category) out = out.where('transactions.accounting_category', '=', q.accounting_category)
  if (q.cash_flow_category) out = out.where('transactions.cash_flow_category', '=', q.cash_flow_category)
  if (q.is_reconciled !== undefined) out = out.where('transactions.is_reconciled', '=', q.is_reconciled ? 1 : 0)
  if (q.min_amount !== undefined || q.max_amount !== undefined) {
    // Amount bounds are read in the currency of the account filtered on, else the base currency.
    const currency = q.bank_account_id
      ? (await findBankAccount(store, companyId, q.bank_account_id, db)).currency_code
      : await baseCurrency(store, companyId, db)
    const exp = currencyExponent(currency)
    for (const [field, op] of [
      ['min_amount', '>='],
      ['max_amount', '<='],
    ] as const) {
      const value = q[field]
      if (value === undefined) continue
      const r = parseAmount(value, exp)
      if (!r.ok)
        throw new AppError('validation_error', `${field}: ${r.message} (${currency})`, { details: [{ path: field, message: r.message }] })
      out = out.where('transactions.amount', op, r.minor)
    }
  }
  if (q.tag) out = out.where(sql<boolean>`transactions.tags LIKE ${likePattern(JSON.stringify(q.tag))} ESCAPE '\\'`)
  if (q.q) {
    const pattern = likePattern(q.q)
    const op = store.dialect === 'postgres' ? 'ilike' : 'like'
    out = out.where((eb: ExpressionBuilder<Db, 'transactions'>) =>
      eb.or([
        eb(sql`transactions.description`, op, sql`${pattern} ESCAPE '\\'`),
        eb(sql`coalesce(transactions.merchant_name, '')`, op, sql`${pattern} ESCAPE '\\'`),
      ]),
    )
  }
  return out
}

/**
 * SQLite's amount index is `(amount)` alone (migration 0008). Without stats the planner always
 * prefers an index with `company_id = ?` and sorts every row it gives. That is right for a few
 * thousand rows, wrong for a million (0.45 s a page at 1M against 2 ms through the amount index).
 * The filtered total, which the page answers anyway, tells which case this is: above this many
 * rows the page walks the amount index, checking the filters row by row, so a page costs about
 * limit / (matching share of the company) index steps.
 */
export const AMOUNT_WALK_MIN_ROWS = 5_000

/** Run a select over `transactions` with SQLite's INDEXED BY (kysely has no syntax for it). */
async function runIndexedBy<R>(db: Kysely<Db>, query: SelectQueryBuilder<Db, 'transactions', R>, index: string): Promise<R[]> {
  const compiled = query.compile()
  const from = 'from "transactions"'
  if (!compiled.sql.includes(from)) throw new Error(`runIndexedBy: no ${from} in ${compiled.sql}`)
  const text = compiled.sql.replace(from, `${from} indexed by "${index}"`)
  return (await db.executeQuery<R>(CompiledQuery.raw(text, [...compiled.parameters]))).rows
}

export async function listTransactions(store: Store, companyId: string, q: TransactionListQuery): Promise<Page<Transaction>> {
  const db = store.db
  const sort = (q.sort ?? '-transaction_date') as Sort
  const desc = sort.startsWith('-')
  const column = (desc ? sort.slice(1) : sort) as SortColumn
  const limit = q.limit ?? 50
  const filtered = await applyFilters(store, db, companyId, q, db.selectFrom('transactions') as TxQuery)

  let page = filtered.selectAll('transactions') as unknown as SelectQueryBuilder<Db, 'transactions', TransactionRow>
  if (q.cursor) {
    const c = decodeCursor(q.cursor, sort)
    page = page.where((eb) => eb(eb.refTuple(`transactions.${column}`, 'transactions.id'), desc ? '<' : '>', eb.tuple(c.v as never, c.id)))
  }
  const dir = desc ? 'desc' : 'asc'
  const ordered = page
    .orderBy(`transactions.${column}`, dir)
    .orderBy('transactions.id', dir)
    .limit(limit + 1)
  const counted = filtered.select(sql<number>`count(*)`.as('n'))
  let rows: TransactionRow[]
  let total: number
  if (store.dialect === 'sqlite' && column === 'amount') {
    // One connection: the two queries run one after the other anyway.
    total = Number((await counted.executeTakeFirstOrThrow()).n)
    // A bulk load may have set the index aside (sqlite-store.ts): then the page sorts.
    rows =
      total > AMOUNT_WALK_MIN_ROWS
        ? await runIndexedBy(db, ordered, AMOUNT_INDEX).catch((e: unknown) => {
            if (e instanceof Error && /no such index/i.test(e.message)) return ordered.execute()
            throw e
          })
        : await ordered.execute()
  } else {
    const [r, t] = await Promise.all([ordered.execute(), counted.executeTakeFirstOrThrow()])
    rows = r
    total = Number(t.n)
  }
  const hasMore = rows.length > limit
  const pageRows = hasMore ? rows.slice(0, limit) : rows
  const last = pageRows[pageRows.length - 1]
  return {
    data: pageRows.map(toTransaction),
    pagination: {
      limit,
      next_cursor: hasMore && last ? encodeCursor({ s: sort, v: last[column] as string | number, id: last.id }) : null,
      has_more: hasMore,
      total,
    },
  }
}

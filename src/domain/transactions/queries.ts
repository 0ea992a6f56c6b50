/**
 * Listing transactions: every filter of docs/api.md section 4, sorted, with opaque keyset cursors
 * (a page walk sees each row once, whatever is inserted meanwhile). A page reads only its rows; the
 * filtered total is counted only when asked (`include_total`), and then rides in the cursor, so a
 * walk counts once and its later pages carry it free.
 */
import { createHash } from 'node:crypto'
import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from 'kysely'
import { countAll, equalsBesideIndex, like, noRows, text, textOrEmpty } from '../../store/fragments.js'
import type { Store } from '../../store/store.js'
import type { Db } from '../../store/schema.js'
import { decodeShown, shownColumns, type ShownStoredRow } from '../../store/shown-transactions.js'
import { AppError } from '../../kernel/errors.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { parseAmount } from '../../kernel/money.js'
import { companyKey, toListedTransaction } from '../transaction-rows.js'
import { baseCurrency } from '../accounts/companies.js'
import type { Transaction, TransactionListQuery } from '../schemas.js'
import { findBankAccount } from '../accounts/lookup.js'

export const SORTS = ['transaction_date', '-transaction_date', 'amount', '-amount', 'created_at', '-created_at'] as const
export type Sort = (typeof SORTS)[number]
type SortColumn = 'transaction_date' | 'amount' | 'created_at'

export interface Page<T> {
  data: T[]
  pagination: { limit: number; next_cursor: string | null; has_more: boolean; total?: number }
}

/**
 * Where a page ended: the sort, its value there, the row's seq (the tie-breaker), and the walk's
 * total with the filters it counted (a cursor handed to other filters counts again).
 */
interface Cursor {
  s: Sort
  v: string | number
  seq: number
  total?: number
  filters?: string
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.s, c.v, c.seq, c.total, c.filters])).toString('base64url')
}

/** The filters of a query as one short text: what its total counted. */
function filterKey(q: TransactionListQuery): string {
  const { cursor: _c, limit: _l, sort: _s, include_total: _t, include_account_names: _n, ...filters } = q
  const entries = Object.entries(filters)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1))
  return createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 16)
}

function decodeCursor(text: string, sort: Sort): Cursor {
  try {
    const [s, v, seq, total, filters] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as [
      Sort,
      string | number,
      number,
      unknown,
      unknown,
    ]
    if (!SORTS.includes(s) || !Number.isSafeInteger(seq) || (typeof v !== 'string' && typeof v !== 'number')) throw new Error('shape')
    // A cursor made before the total rode in it has none: that page counts again.
    if (total !== undefined && total !== null && !(Number.isSafeInteger(total) && (total as number) >= 0)) throw new Error('shape')
    if (s !== sort)
      throw new AppError('validation_error', 'this cursor belongs to another sort order: keep `sort` the same while paging', {
        details: [{ path: 'cursor', message: 'was made for another sort order' }],
      })
    return { s, v, seq, total: typeof total === 'number' ? total : undefined, filters: typeof filters === 'string' ? filters : undefined }
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
/**
 * The rows an import batch created: each of its writes chained a `rows_created` entry naming it,
 * and the write's rows share its creator and time (store/creations.ts). A batch of none: no rows.
 */
async function ofBatch(store: Store, db: Kysely<Db>, companyId: string, batch: string, query: TxQuery): Promise<TxQuery> {
  if (!/^[0-9a-f-]{36}$/i.test(batch)) return query.where(noRows())
  const entries = await db
    .selectFrom('audit_entries')
    .select(['actor', 'created_at'])
    .where('company_id', '=', companyId)
    .where('action', '=', 'rows_created')
    .where('changes', 'like', `%"batch_id":"${batch.toLowerCase()}"%`)
    .execute()
  if (!entries.length) return query.where(noRows())
  const actors = [...new Set(entries.map((e) => e.actor))]
  const keys = await Promise.all(actors.map((a) => store.tx.actorKey(a)))
  return query
    .where('transactions.created_by', 'in', keys)
    .where('transactions.created_at', 'in', [...new Set(entries.map((e) => e.created_at))])
}

async function applyFilters(store: Store, db: Kysely<Db>, companyId: string, q: TransactionListQuery, query: TxQuery): Promise<TxQuery> {
  // An account filter stands for the company too (the account is looked up as the company's): its
  // count then reads the account's own covering index. An account of another company, or none: no rows.
  const account = q.bank_account_id
    ? await findBankAccount(store, companyId, q.bank_account_id, db).catch((e: unknown) => {
        if (e instanceof AppError && e.code === 'not_found') return undefined
        throw e
      })
    : undefined
  const owner = q.bank_account_id ? 'account_key' : 'company_key'
  const ownerKey = q.bank_account_id ? (account?.key ?? -1) : await companyKey(store, companyId, db)
  // With an id prefix, the range on the unique id index is what narrows: `key + 0` keeps both
  // planners off the company's (or account's) indexes, which would read all its rows.
  let out = q.id_prefix
    ? query.where(equalsBesideIndex(`transactions.${owner}`, ownerKey))
    : query.where(`transactions.${owner}`, '=', ownerKey)
  if (q.statement_id) out = out.where('transactions.bank_statement_id', '=', q.statement_id)
  if (q.import_batch_id !== undefined) out = await ofBatch(store, db, companyId, q.import_batch_id, out)
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
      ? (account ?? (await findBankAccount(store, companyId, q.bank_account_id, db))).currency_code
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
  // Short ids (docs/cli.md): a prefix is a range of the unique index on id; a suffix (the random
  // end of a UUIDv7, what tables show) is matched over the company's rows.
  if (q.id_prefix) {
    const [low, high] = store.tx.idRange(q.id_prefix.replaceAll('-', '').toLowerCase())
    out = out.where('transactions.id', '>=', low).where('transactions.id', '<=', high)
  }
  if (q.id_suffix) {
    const hex = q.id_suffix.replaceAll('-', '').toLowerCase()
    out = out.where(store.sql.idEndsWith(hex))
  }
  if (q.tag) out = out.where(like('transactions.tags', likePattern(JSON.stringify(q.tag))))
  if (q.q) {
    const pattern = likePattern(q.q)
    out = out.where((eb: ExpressionBuilder<Db, 'transactions'>) =>
      eb.or([
        store.sql.likeIgnoringCase(text('transactions.description'), pattern),
        store.sql.likeIgnoringCase(textOrEmpty('transactions.merchant_name'), pattern),
      ]),
    )
  }
  return out
}

export async function listTransactions(store: Store, companyId: string, q: TransactionListQuery): Promise<Page<Transaction>> {
  const db = store.db
  const sort = (q.sort ?? '-transaction_date') as Sort
  const desc = sort.startsWith('-')
  const column = (desc ? sort.slice(1) : sort) as SortColumn
  const limit = q.limit ?? 50
  const filtered = await applyFilters(store, db, companyId, q, db.selectFrom('transactions') as TxQuery)

  // What the page shows and nothing more, each row made its Transaction in one step (store/shown-transactions.ts).
  let page = filtered.select(shownColumns(store.tx)) as unknown as SelectQueryBuilder<Db, 'transactions', ShownStoredRow>
  const c = q.cursor ? decodeCursor(q.cursor, sort) : undefined
  const filters = filterKey(q)
  if (c) {
    page = page.where((eb) =>
      eb(eb.refTuple(`transactions.${column}`, 'transactions.seq'), desc ? '<' : '>', eb.tuple(c.v as never, c.seq)),
    )
  }
  const dir = desc ? 'desc' : 'asc'
  // Each sort has an index that starts with the company and ends in seq (migration 0011): a page
  // is read in index order, without sorting.
  const ordered = page
    .orderBy(`transactions.${column}`, dir)
    .orderBy('transactions.seq', dir)
    .limit(limit + 1)
  const carried = c?.total !== undefined && c.filters === filters ? c.total : undefined
  // A count reads every match: only when asked, and never again on a walk that carries one.
  const counted = carried === undefined && q.include_total ? filtered.select(countAll().as('n')) : undefined
  const [stored, t] = await Promise.all([ordered.execute(), counted?.executeTakeFirstOrThrow()])
  const total = t ? Number(t.n) : carried
  const hasMore = stored.length > limit
  const pageRows = hasMore ? stored.slice(0, limit) : stored
  const last = pageRows[pageRows.length - 1]
  const data = await decodeShown(store.tx, db, pageRows, toListedTransaction)
  return {
    data,
    pagination: {
      limit,
      next_cursor:
        hasMore && last
          ? encodeCursor({ s: sort, v: column === 'amount' ? Number(last.amount) : last[column], seq: Number(last.seq), total, filters })
          : null,
      has_more: hasMore,
      ...(total === undefined ? {} : { total }),
    },
  }
}

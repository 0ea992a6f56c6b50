/**
 * What a closed month holds (docs/closing.md, docs/audit.md): each transaction row dated in it with a
 * hash of its stored fields, a SHA-256 over them all, and its figures per account and currency.
 * `close` records them inside its write (close_rows, period_closes); `verify --close` reads them
 * again and names each row inserted, edited or deleted since, however it was done.
 */
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { currencyExponent } from '../../kernel/currencies.js'
import { formatMinor } from '../../kernel/money.js'
import { type Db, TX_COLUMNS } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { TransactionRow } from '../../store/transaction-codec.js'
import { monthEnd, monthStart } from '../accounts/period-lock.js'

/** The fields a row's hash covers: every stored column but the database's own row number, as the domain reads them. */
const HASHED: ReadonlyArray<keyof TransactionRow> = TX_COLUMNS

const PAGE = 5_000

export interface MonthFigure {
  bank_account_id: string
  currency_code: string
  /** Non-void transactions. */
  transactions: number
  /** Their sum, a decimal in the currency. */
  total: string
}

export interface MonthContents {
  /** Row id -> hash. */
  rows: Map<string, string>
  sha256: string
  figures: MonthFigure[]
}

export function rowHash(row: TransactionRow): string {
  return createHash('sha256')
    .update(JSON.stringify(HASHED.map((f) => row[f] ?? null)))
    .digest('hex')
}

/** The SHA-256 over a month's rows: each `id hash` line, sorted by id. */
export function contentsSha256(rows: Map<string, string>): string {
  const h = createHash('sha256')
  for (const id of [...rows.keys()].sort()) h.update(`${id} ${rows.get(id)}\n`)
  return h.digest('hex')
}

/** Read the month's rows as stored now (`db` may be the close's write transaction). */
export async function monthContents(store: Store, db: Kysely<Db>, companyId: string, month: string): Promise<MonthContents> {
  const companyKey = await store.tx.companyKey(companyId, db)
  const rows = new Map<string, string>()
  const sums = new Map<string, { account: string; currency: string; n: number; total: bigint }>()
  let after = -1
  for (;;) {
    const page = await db
      .selectFrom('transactions')
      .selectAll()
      .where('company_key', '=', companyKey)
      .where('transaction_date', '>=', monthStart(month))
      .where('transaction_date', '<=', monthEnd(month))
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(PAGE)
      .execute()
    if (page.length === 0) break
    after = Number(page[page.length - 1].seq)
    for (const row of await store.tx.decode(db, page)) {
      rows.set(row.id, rowHash(row))
      if (row.status === 'void') continue
      const key = `${row.bank_account_id} ${row.currency_code}`
      const s = sums.get(key) ?? { account: row.bank_account_id, currency: row.currency_code, n: 0, total: 0n }
      s.n++
      s.total += BigInt(row.amount)
      sums.set(key, s)
    }
    if (page.length < PAGE) break
  }
  const figures = [...sums.values()]
    .sort((a, b) => a.account.localeCompare(b.account) || a.currency.localeCompare(b.currency))
    .map((s) => ({
      bank_account_id: s.account,
      currency_code: s.currency,
      transactions: s.n,
      total: formatMinor(s.total, currencyExponent(s.currency)),
    }))
  return { rows, sha256: contentsSha256(rows), figures }
}

/** Keep the contents on the close record `closeId` (inside the close's write transaction). */
export async function recordContents(db: Kysely<Db>, closeId: number, c: MonthContents): Promise<void> {
  await db
    .updateTable('period_closes')
    .set({ rows_count: c.rows.size, rows_sha256: c.sha256, figures: JSON.stringify(c.figures) })
    .where('id', '=', closeId)
    .execute()
  const all = [...c.rows]
  for (let i = 0; i < all.length; i += 500)
    await db
      .insertInto('close_rows')
      .values(all.slice(i, i + 500).map(([transaction_id, hash]) => ({ close_id: closeId, transaction_id, hash })))
      .execute()
}

export interface RowChanges {
  /** Rows dated in the month now that were not there at the close. */
  inserted: string[]
  /** Rows whose stored fields differ from the close's. */
  edited: string[]
  /** Rows there at the close and gone now. */
  deleted: string[]
}

/** The rows recorded at close `closeId` compared with `now`. */
export async function compareContents(db: Kysely<Db>, closeId: number, now: MonthContents): Promise<RowChanges> {
  const then = new Map<string, string>()
  let after = ''
  for (;;) {
    const page = await db
      .selectFrom('close_rows')
      .select(['transaction_id', 'hash'])
      .where('close_id', '=', closeId)
      .where('transaction_id', '>', after)
      .orderBy('transaction_id')
      .limit(PAGE)
      .execute()
    for (const r of page) then.set(r.transaction_id, r.hash)
    if (page.length < PAGE) break
    after = page[page.length - 1].transaction_id
  }
  const changes: RowChanges = { inserted: [], edited: [], deleted: [] }
  for (const [id, hash] of now.rows) {
    const was = then.get(id)
    if (was === undefined) changes.inserted.push(id)
    else if (was !== hash) changes.edited.push(id)
  }
  for (const id of then.keys()) if (!now.rows.has(id)) changes.deleted.push(id)
  for (const list of Object.values(changes)) list.sort()
  return changes
}

/**
 * The rows of the reports bench (bench/reports.ts) in either store: loaded straight into the
 * transactions table as the store keeps them (so the indexes and the report totals' triggers work as
 * in use), and the same range's totals as one plain SQL aggregate, the check and the ceiling.
 */
import Database from 'better-sqlite3'
import pg from 'pg'
import { TX_COLUMNS } from '../../src/store/schema.js'
import { type NewTransactionRow, TransactionCodec } from '../../src/store/transaction-codec.js'
import { postgresAdapter } from '../../src/store/postgres/adapter.js'
import { INSERT_STORED, keysOf, storedValues } from './stored.js'
import { generateTransactions, transactionRow } from './txdata.js'

export interface Totals {
  inflows: bigint
  outflows: bigint
  count: number
}

export interface BenchRows {
  /** Load `rows` generated transactions over the accounts; returns the company's key. */
  load(accounts: string[], rows: number, seed: number, log: (s: string) => void): Promise<number>
  /** The range's totals by plain SQL (the check), and a function that runs that query (the ceiling). */
  totals(companyKey: number, from: string, to: string): Promise<Totals>
  close(): Promise<void>
}

const PLAIN = (notTransfer: string, param: (i: number) => string) =>
  `SELECT CAST(SUM(CASE WHEN base_amount > 0 THEN base_amount ELSE 0 END) AS TEXT) i, CAST(SUM(CASE WHEN base_amount < 0 THEN -base_amount ELSE 0 END) AS TEXT) o, COUNT(*) n
   FROM transactions WHERE company_key = ${param(1)} AND transaction_date BETWEEN ${param(2)} AND ${param(3)} AND status <> 'void' AND ${notTransfer}`

const asTotals = (r: { i: string; o: string; n: number | string }): Totals => ({
  inflows: BigInt(r.i),
  outflows: BigInt(r.o),
  count: Number(r.n),
})

/** Each generated row; one in 50 is a transfer between the accounts (shown apart, left out of totals). */
function* generated<K>(rows: number, seed: number, keyed: K[]) {
  let i = 0
  for (const t of generateTransactions(seed, rows)) {
    const row = transactionRow(t, keyed[t.account] as never)
    if (i++ % 50 === 0) Object.assign(row, { category: 'Transfer', accounting_category: 'transfer', cash_flow_category: 'transfer' })
    yield row
  }
}

export function sqliteRows(file: string): BenchRows {
  let read: Database.Database | undefined
  return {
    async load(accounts, rows, seed, log) {
      const raw = new Database(file)
      raw.pragma('journal_mode = WAL')
      raw.pragma('synchronous = OFF')
      const keyed = accounts.map((accountId) => ({ ...keysOf(raw, accountId), accountId }))
      const insert = raw.prepare(INSERT_STORED)
      const many = raw.transaction((batch: unknown[][]) => {
        for (const r of batch) insert.run(r)
      })
      const t0 = performance.now()
      let batch: unknown[][] = []
      let i = 0
      for (const row of generated(rows, seed, keyed)) {
        batch.push(storedValues(row))
        if (batch.length === 50_000) {
          many(batch)
          batch = []
          if (++i % 4 === 0) log(`  ${i * 50_000} rows, ${(((i * 50_000) / (performance.now() - t0)) * 1000).toFixed(0)} rows/s`)
        }
      }
      if (batch.length) many(batch)
      raw.pragma('wal_checkpoint(TRUNCATE)')
      raw.close()
      return keyed[0].companyKey
    },
    async totals(companyKey, from, to) {
      read ??= new Database(file, { readonly: true })
      return asTotals(read.prepare(PLAIN(`cash_flow_category IS NOT 'transfer'`, () => '?')).get(companyKey, from, to) as never)
    },
    async close() {
      read?.close()
    },
  }
}

/**
 * Rows into PostgreSQL's transactions table as the store keeps them (its indexes and triggers
 * working as in use): INSERTs of 1,000 rows, a COMMIT every 50,000, then ANALYZE.
 */
export async function insertStoredPostgres(pool: pg.Pool, rows: Iterable<NewTransactionRow>, log: (s: string) => void): Promise<void> {
  const codec = new TransactionCodec(postgresAdapter, undefined as never)
  const PER = 1000
  const insertOf = (n: number) =>
    `INSERT INTO transactions (${TX_COLUMNS.join(', ')}) VALUES ${Array.from(
      { length: n },
      (_, r) => `(${TX_COLUMNS.map((_c, c) => `$${r * TX_COLUMNS.length + c + 1}`).join(', ')})`,
    ).join(', ')}`
  const full = insertOf(PER)
  const client = await pool.connect()
  const t0 = performance.now()
  try {
    let values: unknown[] = []
    let n = 0
    let done = 0
    const flush = async () => {
      if (!n) return
      await client.query(n === PER ? full : insertOf(n), values)
      done += n
      values = []
      n = 0
      if (done % 200_000 === 0) log(`  ${done} rows, ${((done / (performance.now() - t0)) * 1000).toFixed(0)} rows/s`)
    }
    await client.query('BEGIN')
    for (const row of rows) {
      const out: unknown[] = new Array(TX_COLUMNS.length)
      codec.encodeValues(row, out as never)
      values.push(...out)
      if (++n === PER) {
        await flush()
        if (done % 50_000 === 0) await client.query('COMMIT; BEGIN')
      }
    }
    await flush()
    await client.query('COMMIT')
    await client.query('ANALYZE transactions')
  } finally {
    client.release()
  }
}

/** A postgres:// URL with ?schema=NAME, as finctl takes it; pg gets the schema as its search_path. */
export function postgresRows(url: string): BenchRows {
  const u = new URL(url)
  const schema = u.searchParams.get('schema') ?? 'public'
  u.searchParams.delete('schema')
  const pool = new pg.Pool({ connectionString: u.toString(), max: 2, options: `-c search_path=${schema}` })
  return {
    async load(accounts, rows, seed, log) {
      const keys = await pool.query(
        'SELECT a.id AS "accountId", c.key AS "companyKey", a.key AS "accountKey", a.company_id AS "companyId" FROM bank_accounts a JOIN companies c ON c.id = a.company_id WHERE a.id = ANY($1)',
        [accounts],
      )
      const byId = new Map(keys.rows.map((r) => [r.accountId as string, r]))
      const keyed = accounts.map((id) => ({
        ...byId.get(id),
        companyKey: Number(byId.get(id).companyKey),
        accountKey: Number(byId.get(id).accountKey),
      }))
      await insertStoredPostgres(pool, generated(rows, seed, keyed), log)
      return keyed[0].companyKey
    },
    async totals(companyKey, from, to) {
      const r = await pool.query(
        PLAIN(`cash_flow_category IS DISTINCT FROM 'transfer'`, (i) => `$${i}`),
        [companyKey, from, to],
      )
      return asTotals(r.rows[0])
    },
    close: () => pool.end(),
  }
}

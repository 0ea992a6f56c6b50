/**
 * Report latency at scale, EMBEDDED (in-process app, no socket): 1,000,000 deterministic
 * transactions over three years (bench/lib/txdata.ts, seeded) in a temp SQLite file, then
 * GET /api-v1/reports/cash-flow (12 months by month) and GET /api-v1/reports/summary (the same 12
 * months) through the typed client, timed over --runs runs each after --warmups; p50 and p95 printed.
 * The report totals are checked against plain SQL sums over the table.
 *
 *   npx tsx bench/reports.ts [--rows 1000000] [--runs 20] [--warmups 2] [--keep]
 *
 * Data: the company, its API key and three USD accounts are made through the app; the rows go in
 * with one prepared INSERT in transactions of 50,000 on a raw better-sqlite3 connection (the same
 * file, after the migrations, so every index and the report totals' triggers work as in use). --keep
 * leaves the file.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { Client } from '../src/client/client.js'
import { openCore } from '../src/core.js'
import { bootstrapCompany } from '../src/domain/accounts/companies.js'
import { parseAmount } from '../src/kernel/money.js'
import { percentile } from './lib/stats.js'
import { INSERT_STORED, keysOf, storedValues } from './lib/stored.js'
import { generateTransactions, transactionRow } from './lib/txdata.js'

const { values: flags } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '20' },
    warmups: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
  strict: true,
})
const ROWS = Number(flags.rows)
const RUNS = Number(flags.runs)
const WARMUPS = Number(flags.warmups)
const SEED = 20_240_101
const RANGE = { from: '2025-01-01', to: '2025-12-31' }
const log = (s: string) => process.stderr.write(`${s}\n`)

const dir = mkdtempSync(join(tmpdir(), 'finctl-bench-reports-'))
const file = join(dir, 'finctl.db')
const baseUrl = 'http://finctl.embedded'

async function setUp(): Promise<{ companyId: string; key: string; accounts: string[] }> {
  const core = await openCore(file)
  try {
    const fetch = (u: string, i: RequestInit) => Promise.resolve(core.app.fetch(new Request(u, i)))
    const email = 'owner@reports.bench'
    const password = 'correct horse battery'
    const { company } = await bootstrapCompany(core.store, { name: 'Reports Bench', baseCurrency: 'USD', email, password }, new Date())
    const token = (await new Client({ baseUrl, fetch, maxRetries: 0 }).token(email, password)).access_token
    const key = await new Client({ baseUrl, fetch, maxRetries: 0, token }).keys.create({
      name: 'bench',
      scopes: ['read', 'write', 'transactions'],
      rate_limit_per_minute: 1_000_000,
      rate_limit_per_day: 100_000_000,
    })
    const client = new Client({ baseUrl, fetch, maxRetries: 0, apiKey: key.key })
    const accounts: string[] = []
    for (const [name, type, opening] of [
      ['Operating', 'checking', '250000.00'],
      ['Reserve', 'savings', '1000000.00'],
      ['Card', 'credit_card', '0'],
    ] as const) {
      accounts.push((await client.accounts.create({ name, account_type: type, currency_code: 'USD', opening_balance: opening })).id)
    }
    return { companyId: company.id, key: key.key, accounts }
  } finally {
    await core.close()
  }
}

/** The generated rows straight into the file, as the store keeps them; returns the company's key. */
function load(accounts: string[]): number {
  const raw = new Database(file)
  raw.pragma('journal_mode = WAL')
  raw.pragma('synchronous = OFF')
  const keyed = accounts.map((accountId) => ({ ...keysOf(raw, accountId), accountId }))
  const insert = raw.prepare(INSERT_STORED)
  const many = raw.transaction((rows: unknown[][]) => {
    for (const r of rows) insert.run(r)
  })
  const t0 = performance.now()
  let batch: unknown[][] = []
  let i = 0
  for (const t of generateTransactions(SEED, ROWS)) {
    // One row in 50 is a transfer between the accounts (shown apart, left out of totals).
    const transfer = i++ % 50 === 0
    const row = transactionRow(t, keyed[t.account])
    if (transfer) Object.assign(row, { category: 'Transfer', accounting_category: 'transfer', cash_flow_category: 'transfer' })
    batch.push(storedValues(row))
    if (batch.length === 50_000) {
      many(batch)
      batch = []
      if (i % 200_000 === 0) log(`  ${i} rows, ${((i / (performance.now() - t0)) * 1000).toFixed(0)} rows/s`)
    }
  }
  if (batch.length) many(batch)
  raw.pragma('wal_checkpoint(TRUNCATE)')
  raw.close()
  log(`loaded ${ROWS} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s (generation included)`)
  return keyed[0].companyKey
}

/** Plain SQL over the table: what the report must say (cash-flow totals and summary income/expenses). */
function expected(companyKey: number): { inflows: bigint; outflows: bigint; count: number } {
  const raw = new Database(file, { readonly: true })
  try {
    const r = raw
      .prepare(
        `SELECT CAST(SUM(CASE WHEN base_amount > 0 THEN base_amount ELSE 0 END) AS TEXT) i, CAST(SUM(CASE WHEN base_amount < 0 THEN -base_amount ELSE 0 END) AS TEXT) o, COUNT(*) n
         FROM transactions NOT INDEXED WHERE company_key = ? AND transaction_date BETWEEN ? AND ? AND status <> 'void' AND cash_flow_category IS NOT 'transfer'`,
      )
      .get(companyKey, RANGE.from, RANGE.to) as { i: string; o: string; n: number }
    return { inflows: BigInt(r.i), outflows: BigInt(r.o), count: r.n }
  } finally {
    raw.close()
  }
}

const cents = (x: number): bigint => {
  const r = parseAmount(x, 2)
  if (!r.ok) throw new Error(r.message)
  return BigInt(r.minor)
}

async function time(label: string, fn: () => Promise<unknown>): Promise<{ label: string; p50: number; p95: number; first: number }> {
  const samples: number[] = []
  let first = 0
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    const s = performance.now()
    await fn()
    const ms = performance.now() - s
    if (i === 0) first = ms
    if (i >= WARMUPS) samples.push(ms)
  }
  samples.sort((a, b) => a - b)
  return { label, p50: percentile(samples, 50), p95: percentile(samples, 95), first }
}

try {
  log(`reports bench: ${ROWS} rows in ${file}`)
  const { key, accounts } = await setUp()
  const companyKey = load(accounts)
  const core = await openCore(file)
  try {
    const fetch = (u: string, i: RequestInit) => Promise.resolve(core.app.fetch(new Request(u, i)))
    const client = new Client({ baseUrl, fetch, maxRetries: 0, apiKey: key })
    const want = expected(companyKey)
    const cf = await client.reports.cashFlow({ ...RANGE, interval: 'month' })
    const sum = await client.reports.summary(RANGE)
    const ok =
      cents(cf.totals.inflows) === want.inflows &&
      cents(cf.totals.outflows) === want.outflows &&
      cents(sum.income) === want.inflows &&
      cents(sum.expenses) === want.outflows &&
      sum.transaction_count - sum.transfers.count === want.count
    log(`check against plain SQL: ${ok ? 'ok' : 'MISMATCH'} (${cf.periods.length} periods, ${sum.transaction_count} transactions in range)`)
    if (!ok) process.exitCode = 1
    const results = [
      await time('cash-flow, 12 months by month', () => client.reports.cashFlow({ ...RANGE, interval: 'month' })),
      await time('summary, 12 months', () => client.reports.summary(RANGE)),
      await time('cash-flow, 3 years by week', () => client.reports.cashFlow({ from: '2024-01-01', to: '2026-12-31', interval: 'week' })),
      await time('cash-flow, 12 months by day, one account', () =>
        client.reports.cashFlow({ ...RANGE, interval: 'day', bank_account_id: accounts[0] }),
      ),
      await time('summary, 12 months, one account', () => client.reports.summary({ ...RANGE, bank_account_id: accounts[0] })),
    ]
    // The ceiling: the same range's totals as one plain SQL aggregate over the same index, on a raw connection.
    const raw = new Database(file, { readonly: true })
    const plain = raw.prepare(
      `SELECT CAST(SUM(CASE WHEN base_amount > 0 THEN base_amount ELSE 0 END) AS TEXT) i, CAST(SUM(CASE WHEN base_amount < 0 THEN -base_amount ELSE 0 END) AS TEXT) o, COUNT(*) n
       FROM transactions WHERE company_key = ? AND transaction_date BETWEEN ? AND ? AND status <> 'void' AND cash_flow_category IS NOT 'transfer'`,
    )
    const baseline = await time('plain SQL totals of the range (ceiling)', async () => plain.get(companyKey, RANGE.from, RANGE.to))
    raw.close()
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ rows: ROWS, runs: RUNS, checked: ok, baseline, results })}\n`)
      process.exit(process.exitCode ?? 0)
    }
    results.push(baseline)
    const w = Math.max(...results.map((r) => r.label.length))
    process.stdout.write(`\n${ROWS.toLocaleString('en-US')} transactions, embedded, ${RUNS} runs after ${WARMUPS} warm-up(s)\n`)
    process.stdout.write(`${'report'.padEnd(w)}   p50 ms   p95 ms   first ms\n`)
    for (const r of results) {
      process.stdout.write(
        `${r.label.padEnd(w)}   ${r.p50.toFixed(1).padStart(6)}   ${r.p95.toFixed(1).padStart(6)}   ${r.first.toFixed(1).padStart(8)}\n`,
      )
    }
  } finally {
    await core.close()
  }
} finally {
  if (flags.keep) log(`kept ${file}`)
  else rmSync(dir, { recursive: true, force: true })
}

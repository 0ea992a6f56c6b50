/**
 * Report latency at scale, EMBEDDED (in-process app, no socket): 1,000,000 deterministic
 * transactions over three years (bench/lib/txdata.ts, seeded) in a temp SQLite file, then
 * GET /api-v1/reports/cash-flow (12 months by month) and GET /api-v1/reports/summary (the same 12
 * months) through the typed client, timed over --runs runs each after --warmups; p50 and p95 printed.
 * The report totals are checked against plain SQL sums over the table.
 *
 *   npx tsx bench/reports.ts [--rows 1000000] [--runs 20] [--warmups 2] [--keep] [--dir DIR] [--database postgres://…]
 *
 * Data: the company, its API key and three USD accounts are made through the app; the rows go in
 * straight into the table (bench/lib/reports-rows.ts), after the migrations, so every index and the
 * report totals' triggers work as in use. --database runs it all on PostgreSQL, in a schema of its own. --keep
 * leaves the file. --dir DIR keeps it in DIR and, on a later run with the same --rows, measures the
 * file already there (loading 10,000,000 rows takes a while).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { Client, EMBEDDED_BASE_URL } from '../src/client/client.js'
import { openCore } from '../src/core.js'
import { parseAmount } from '../src/kernel/money.js'
import { percentile } from './lib/stats.js'
import { type BenchRows, postgresRows, sqliteRows } from './lib/reports-rows.js'
import { embeddedCompany, embeddedFetch } from './lib/embedded-company.js'

const { values: flags } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '20' },
    warmups: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    dir: { type: 'string' },
    database: { type: 'string' },
  },
  strict: true,
})
const ROWS = Number(flags.rows)
const RUNS = Number(flags.runs)
const WARMUPS = Number(flags.warmups)
const SEED = 20_240_101
const RANGE = { from: '2025-01-01', to: '2025-12-31' }
const log = (s: string) => process.stderr.write(`${s}\n`)

const dir = flags.dir ?? mkdtempSync(join(tmpdir(), 'finctl-bench-reports-'))
if (flags.dir) mkdirSync(dir, { recursive: true })
const file = join(dir, 'finctl.db')
// --database postgres://…: a schema of its own, created by the migrations and dropped at the end.
const schema = `bench_reports_${process.pid}`
const target = flags.database ? `${flags.database}${flags.database.includes('?') ? '&' : '?'}schema=${schema}` : file
if (flags.database && flags.dir) throw new Error('--dir keeps a SQLite file: not with --database')
// What a later run with --dir needs to measure the same file again.
const saved = join(dir, 'bench.json')
interface Saved {
  rows: number
  key: string
  accounts: string[]
  companyKey: number
}

async function setUp(): Promise<{ companyId: string; key: string; accounts: string[] }> {
  const core = await openCore(target)
  try {
    const { company, key, client } = await embeddedCompany(core, { name: 'Reports Bench', email: 'owner@reports.bench', keyName: 'bench' })
    const accounts: string[] = []
    for (const [name, type, opening] of [
      ['Operating', 'checking', '250000.00'],
      ['Reserve', 'savings', '1000000.00'],
      ['Card', 'credit_card', '0'],
    ] as const) {
      accounts.push((await client.accounts.create({ name, account_type: type, currency_code: 'USD', opening_balance: opening })).id)
    }
    return { companyId: company.id, key, accounts }
  } finally {
    await core.close()
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

const rows: BenchRows = flags.database ? postgresRows(target) : sqliteRows(file)

async function loadRows(accounts: string[]): Promise<number> {
  const t0 = performance.now()
  const key = await rows.load(accounts, ROWS, SEED, log)
  log(`loaded ${ROWS} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s (generation included)`)
  return key
}

async function dropSchema(): Promise<void> {
  const pool = new pg.Pool({ connectionString: flags.database, max: 1 })
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => pool.end())
}

try {
  log(`reports bench: ${ROWS} rows in ${flags.database ? `PostgreSQL schema ${schema}` : file}`)
  const again: Saved | undefined = flags.dir && existsSync(saved) ? JSON.parse(readFileSync(saved, 'utf8')) : undefined
  if (again && again.rows !== ROWS) throw new Error(`${dir} holds ${again.rows} rows, not --rows ${ROWS}: give another --dir`)
  if (!again && existsSync(file)) throw new Error(`${file} exists without ${saved}: give an empty --dir`)
  const { key, accounts } = again ?? (await setUp())
  const companyKey = again?.companyKey ?? (await loadRows(accounts))
  if (flags.dir && !again) writeFileSync(saved, JSON.stringify({ rows: ROWS, key, accounts, companyKey } satisfies Saved))
  if (again) log(`measuring the ${ROWS} rows loaded before in ${file}`)
  const core = await openCore(target)
  try {
    const client = new Client({ baseUrl: EMBEDDED_BASE_URL, fetch: embeddedFetch(core), maxRetries: 0, apiKey: key })
    const want = await rows.totals(companyKey, RANGE.from, RANGE.to)
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
    const baseline = await time('plain SQL totals of the range (ceiling)', () => rows.totals(companyKey, RANGE.from, RANGE.to))
    if (flags.json) {
      process.stdout.write(
        `${JSON.stringify({ rows: ROWS, runs: RUNS, store: flags.database ? 'postgres' : 'sqlite', checked: ok, baseline, results })}\n`,
      )
      process.exit(process.exitCode ?? 0)
    }
    results.push(baseline)
    const w = Math.max(...results.map((r) => r.label.length))
    process.stdout.write(
      `\n${ROWS.toLocaleString('en-US')} transactions, embedded, ${flags.database ? 'PostgreSQL' : 'SQLite'}, ${RUNS} runs after ${WARMUPS} warm-up(s)\n`,
    )
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
  await rows.close()
  if (flags.database) await dropSchema()
  if (flags.keep || flags.dir) log(`kept ${file}`)
  else rmSync(dir, { recursive: true, force: true })
}

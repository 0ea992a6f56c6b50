/**
 * Budgets, recurring detection and the forecast at scale, EMBEDDED (in-process app): N deterministic
 * transactions over three years (bench/lib/txdata.ts, as bench/reports.ts loads them) plus a monthly
 * rent, a budget per category, then, each beside its baseline measured in the same run:
 * - GET /reports/budget (12 months by month) beside GET /reports/summary over the same 12 months
 *   (the report whose totals it reads), p50/p95 over --runs;
 * - POST /forecast --days 365 beside GET /reports/cash-flow of the same 365 days by day, p50/p95;
 * - POST /recurring/detect over every row (--detect-runs runs; the process's peak RSS and heap
 *   growth sampled while it runs) beside a plain SQL read of the same columns of every row.
 * The budget report's actuals are checked against the summary's.
 *
 *   npx tsx bench/planning.ts [--rows 1000000] [--runs 20] [--detect-runs 3] [--json]
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { Client, EMBEDDED_BASE_URL } from '../src/client/client.js'
import { openCore } from '../src/core.js'
import { CATEGORIES } from './lib/txdata.js'
import { percentile } from './lib/stats.js'
import { sqliteRows } from './lib/reports-rows.js'
import { embeddedCompany, embeddedFetch } from './lib/embedded-company.js'

const { values: flags } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '20' },
    'detect-runs': { type: 'string', default: '3' },
    warmups: { type: 'string', default: '2' },
    json: { type: 'boolean', default: false },
  },
  strict: true,
})
const ROWS = Number(flags.rows)
const RUNS = Number(flags.runs)
const DETECT_RUNS = Number(flags['detect-runs'])
const WARMUPS = Number(flags.warmups)
const SEED = 20_240_101
const RANGE = { from: '2025-01-01', to: '2025-12-31' }
const log = (s: string) => process.stderr.write(`${s}\n`)

const dir = mkdtempSync(join(tmpdir(), 'finctl-bench-planning-'))
const file = join(dir, 'finctl.db')

interface Timing {
  label: string
  p50: number
  p95: number
  samples: number[]
}

async function time(label: string, runs: number, fn: () => Promise<unknown>, warmups = WARMUPS): Promise<Timing> {
  const samples: number[] = []
  for (let i = 0; i < warmups + runs; i++) {
    const s = performance.now()
    await fn()
    if (i >= warmups) samples.push(performance.now() - s)
  }
  const sorted = [...samples].sort((a, b) => a - b)
  return { label, p50: percentile(sorted, 50), p95: percentile(sorted, 95), samples }
}

/** Peak RSS and heap growth (MiB) while `fn` runs, sampled every 20 ms. */
async function peak<T>(fn: () => Promise<T>): Promise<{ value: T; rssMiB: number; heapMiB: number }> {
  const start = process.memoryUsage()
  let rss = start.rss
  let heap = start.heapUsed
  const timer = setInterval(() => {
    const m = process.memoryUsage()
    rss = Math.max(rss, m.rss)
    heap = Math.max(heap, m.heapUsed)
  }, 20)
  try {
    const value = await fn()
    return { value, rssMiB: (rss - start.rss) / 2 ** 20, heapMiB: (heap - start.heapUsed) / 2 ** 20 }
  } finally {
    clearInterval(timer)
  }
}

const rows = sqliteRows(file)
try {
  log(`planning bench: ${ROWS} rows in ${file}`)
  let setup = await openCore(file)
  const { key } = await (async () => {
    try {
      const { key, client } = await embeddedCompany(setup, { name: 'Planning Bench', email: 'owner@planning.bench', keyName: 'bench' })
      const accounts: string[] = []
      for (const [name, type, opening] of [
        ['Operating', 'checking', '250000.00'],
        ['Reserve', 'savings', '1000000.00'],
        ['Card', 'credit_card', '0'],
      ] as const)
        accounts.push((await client.accounts.create({ name, account_type: type, currency_code: 'USD', opening_balance: opening })).id)
      await rows.load(accounts, ROWS, SEED, log)
      return { key, accounts }
    } finally {
      await setup.close()
    }
  })()
  setup = await openCore(file)
  try {
    const client = new Client({ baseUrl: EMBEDDED_BASE_URL, fetch: embeddedFetch(setup), maxRetries: 0, apiKey: key })
    const account = (await client.accounts.list()).data[0].id
    // A rent on the 1st of every month: the series detection must find among the generated rows.
    const rent = Array.from({ length: 36 }, (_, i) => ({
      bank_account_id: account,
      transaction_date: `${2024 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`,
      description: `RENT HQ ${i}`,
      merchant_name: 'Harbor Offices',
      amount: '-8500.00',
      category: 'Office Rent',
    }))
    await client.transactions.batch(rent)
    for (const c of CATEGORIES)
      await client.budgets.set({ category: c.name, monthly: '25000.00', from: '2025-01', to: '2025-12', rollover: c.weight > 5 })
    const report = await client.budgets.report({ ...RANGE })
    const summary = await client.reports.summary(RANGE)
    const total = report.periods.reduce(
      (s, p) => s + Math.round(p.unbudgeted.actual * 100) + p.rows.reduce((t, x) => t + Math.round(x.actual * 100), 0),
      0,
    )
    const checked = total === -Math.round(summary.net * 100)
    log(`check: the budget report's actuals ${checked ? 'equal' : 'DIFFER FROM'} the summary's (${report.periods.length} periods)`)
    if (!checked) process.exitCode = 1

    // The forecast counts accepted items: the rent, found by detection and accepted.
    const rentItem = (await client.recurring.detect()).items.find((x) => x.name === 'Harbor Offices')
    if (!rentItem) throw new Error('the rent was not detected')
    await client.recurring.accept(rentItem.id)
    const budget = await time('reports budget, 12 months by month', RUNS, () => client.budgets.report({ ...RANGE }))
    const summaryT = await time('summary, 12 months (its totals)', RUNS, () => client.reports.summary(RANGE))
    const from = '2026-01-01'
    const forecast = await time('forecast --days 365', RUNS, () => client.forecast.run({ from, days: 365 }))
    const cashFlow = await time('cash-flow, 365 days by day', RUNS, () =>
      client.reports.cashFlow({ from, to: '2026-12-31', interval: 'day' }),
    )

    const raw = new Database(file, { readonly: true })
    const scan = raw.prepare(
      "SELECT seq, transaction_date, amount, currency_code, merchant_name, description, category, account_key, cash_flow_category FROM transactions WHERE status <> 'void'",
    )
    const detectMs: number[] = []
    const plainMs: number[] = []
    let found = 0
    let rss = 0
    let heap = 0
    for (let i = 0; i < DETECT_RUNS; i++) {
      // Alternated: the plain read, then detection, so that both meet the same page cache.
      let s = performance.now()
      let n = 0
      for (const _ of scan.iterate()) n++
      plainMs.push(performance.now() - s)
      s = performance.now()
      const p = await peak(() => client.recurring.detect())
      detectMs.push(performance.now() - s)
      found = p.value.items.length
      rss = Math.max(rss, p.rssMiB)
      heap = Math.max(heap, p.heapMiB)
      if (n === 0) throw new Error('the plain read found no rows')
      if (!p.value.items.some((x) => x.name === 'Harbor Offices' && x.interval === 'monthly')) throw new Error('the rent was not detected')
    }
    raw.close()
    const out = {
      rows: ROWS,
      runs: RUNS,
      checked,
      budget,
      summary: summaryT,
      forecast,
      cashFlow,
      detect: { ms: detectMs, plainMs, found, peakRssMiB: rss, heapGrowthMiB: heap },
    }
    if (flags.json) process.stdout.write(`${JSON.stringify(out)}\n`)
    else {
      for (const t of [budget, summaryT, forecast, cashFlow])
        process.stdout.write(`${t.label.padEnd(40)} p50 ${t.p50.toFixed(1)} ms  p95 ${t.p95.toFixed(1)} ms\n`)
      process.stdout.write(
        `recurring detect over ${ROWS} rows: ${detectMs.map((m) => (m / 1000).toFixed(2)).join(', ')} s (plain SQL read ${plainMs.map((m) => (m / 1000).toFixed(2)).join(', ')} s); ${found} found; peak RSS +${rss.toFixed(0)} MiB, heap +${heap.toFixed(0)} MiB\n`,
      )
    }
  } finally {
    await setup.close()
  }
} finally {
  await rows.close()
  rmSync(dir, { recursive: true, force: true })
}

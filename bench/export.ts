/**
 * `finctl export` at scale, EMBEDDED, through the built CLI: 1,000,000 deterministic transactions
 * over three years (bench/lib/txdata.ts, seeded; one row in 50 a transfer, one in 20 in EUR at a
 * rate) in a temp SQLite file, then each format of the whole period to a file beside `tx list --all
 * --output csv` of the same rows: wall time and peak RSS (/usr/bin/time) of each process. With a
 * filing format (datev, sie4, saft-no) among --formats the rows are spread over one fiscal year
 * (2026: a filing file holds one) and the company's accounts map is stored; each format's time is
 * printed as a ratio to the ledger export of the same run (target: within 2x).
 *
 *   npm run build && npx tsx bench/export.ts [--rows 1000000] [--formats csv,ledger,...] [--keep]
 *   npx tsx bench/export.ts --formats ledger,datev,sie4,saft-no       the filing formats beside ledger
 *
 * The data goes in as bench/reports.ts puts it: the company, key and accounts through the app, the
 * rows with one prepared INSERT on a raw connection to the same file (every index maintained).
 */
import Database from 'better-sqlite3'
import { spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { openCore } from '../src/core.js'
import { convertMinor } from '../src/kernel/money.js'
import { INSERT_STORED, keysOf, storedValues } from './lib/stored.js'
import { DATE_FROM, generateTransactions, transactionRow } from './lib/txdata.js'
import { embeddedCompany } from './lib/embedded-company.js'
import type { AccountsMapFile } from '../src/domain/exports/accounts-map-schema.js'

const { values: flags } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    formats: { type: 'string', default: 'csv,ledger,hledger,beancount,xlsx' },
    keep: { type: 'boolean', default: false },
  },
  strict: true,
})
const ROWS = Number(flags.rows)
const SEED = 20_240_101
const FORMATS = flags.formats.split(',')
const FILING = FORMATS.some((f) => f === 'datev' || f === 'sie4' || f === 'saft-no')
if (FILING && !FORMATS.includes('ledger')) FORMATS.unshift('ledger')
const FROM = FILING ? '2026-01-01' : DATE_FROM
const TO = '2026-12-31'
/** One fiscal year's days, for the filing formats. */
const YEAR = Array.from({ length: 365 }, (_, i) => new Date(Date.parse('2026-01-01T00:00:00Z') + i * 86_400_000).toISOString().slice(0, 10))
const BIN = resolve(import.meta.dirname, '../bin/finctl.cjs')
const log = (s: string) => process.stderr.write(`${s}\n`)

const dir = mkdtempSync(join(tmpdir(), 'finctl-bench-export-'))
const file = join(dir, 'finctl.db')

async function setUp(): Promise<{ key: string; accounts: string[] }> {
  const core = await openCore(file)
  try {
    const { key, client } = await embeddedCompany(core, { name: 'Export Bench', email: 'owner@export.bench', keyName: 'bench' })
    const accounts: string[] = []
    for (const [name, type, opening] of [
      ['Operating', 'checking', '250000.00'],
      ['Reserve', 'savings', '1000000.00'],
      ['Card', 'credit_card', '0'],
    ] as const)
      accounts.push((await client.accounts.create({ name, account_type: type, currency_code: 'USD', opening_balance: opening })).id)
    if (FILING) await client.exportMap.set(BENCH_MAP)
    return { key, accounts }
  } finally {
    await core.close()
  }
}

function load(accounts: string[]): void {
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
    const row = transactionRow(t, keyed[t.account])
    if (FILING) row.transaction_date = row.posted_date = YEAR[Math.floor((i * YEAR.length) / ROWS)]
    if (i % 50 === 0) Object.assign(row, { category: 'Transfer', accounting_category: 'transfer', cash_flow_category: 'transfer' })
    if (i % 20 === 1)
      Object.assign(row, { currency_code: 'EUR', exchange_rate: '1.0823', base_amount: convertMinor(row.amount, 2, '1.0823', 2) })
    i++
    batch.push(storedValues(row))
    if (batch.length === 50_000) {
      many(batch)
      batch = []
    }
  }
  if (batch.length) many(batch)
  raw.pragma('wal_checkpoint(TRUNCATE)')
  raw.close()
  log(`loaded ${ROWS} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
}

/** The map of the bench's accounts and categories, in the Norwegian standard accounts (groupings from the numbers). */
const n = (number: number) => ({ number })
const BENCH_MAP: AccountsMapFile = {
  chart: 'no-standard',
  datev: { adviser: 1001, client: 1 },
  saft: { registration_number: '999999999', contact: { first_name: 'Bench', last_name: 'Runner', telephone: '12345678' } },
  bank_accounts: { Operating: n(1920), Reserve: n(1921), Card: n(1922) },
  accounting_categories: {
    revenue: n(3000),
    other_income: n(3900),
    cost_of_goods_sold: n(4300),
    operating_expenses: n(7700),
    payroll: n(5000),
    taxes: n(8300),
    interest: n(8150),
    capital_expenditure: n(1280),
    loan: n(2220),
    equity: n(2000),
    transfer: n(1940),
    other_expense: n(7790),
    uncategorized: n(2990),
  },
  cash_flow_categories: { transfer: n(1940) },
  uncategorized_income: n(2990),
  uncategorized_expense: n(2990),
  opening_balances: n(2050),
}

const seconds = new Map<string, number>()

/** Run the built CLI under /usr/bin/time; `stdout` (a path) takes what it prints. */
function timed(label: string, args: string[], out: string, key: string, stdout?: string): void {
  const fd = stdout ? openSync(stdout, 'w') : 'ignore'
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, BIN, ...args], {
    env: { ...process.env, FINCTL_CONFIG_DIR: join(dir, 'config'), FINCTL_DATABASE: file, FINCTL_API_KEY: key, CI: 'true' },
    encoding: 'utf8',
    stdio: ['ignore', fd, 'pipe'],
  })
  if (typeof fd === 'number') closeSync(fd)
  const [secs, kb] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ')
  const size = statSync(out, { throwIfNoEntry: false })?.size
  seconds.set(label, Number(secs))
  const ledger = seconds.get('export --format ledger')
  const ratio = FILING && ledger && label !== 'export --format ledger' ? `, ${(Number(secs) / ledger).toFixed(2)}x ledger` : ''
  log(
    `${label}: exit ${r.status}, ${secs} s${ratio}, peak RSS ${(Number(kb) / 1024).toFixed(0)} MB, ${((size ?? 0) / 1e6).toFixed(0)} MB written`,
  )
  if (r.status !== 0) log(r.stderr)
}

try {
  const { key, accounts } = await setUp()
  load(accounts)
  const period = ['--from', FROM, '--to', TO]
  const listed = join(dir, 'list.csv')
  timed('tx list --all --output csv', ['tx', 'list', '--all', '--output', 'csv', ...period], listed, key, listed)
  rmSync(listed, { force: true })
  for (const format of FORMATS) {
    const out = join(dir, `export.${format}`)
    timed(`export --format ${format}`, ['export', '--format', format, ...period, '--output', out], out, key)
    rmSync(out, { force: true })
  }
} finally {
  if (flags.keep) log(`kept ${dir}`)
  else rmSync(dir, { recursive: true, force: true })
}

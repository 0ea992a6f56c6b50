/**
 * `finctl export` at scale, EMBEDDED, through the built CLI: 1,000,000 deterministic transactions
 * over three years (bench/lib/txdata.ts, seeded; one row in 50 a transfer, one in 20 in EUR at a
 * rate) in a temp SQLite file, then each format of the whole period to a file beside `tx list --all
 * --output csv` of the same rows: wall time and peak RSS (/usr/bin/time) of each process.
 *
 *   npm run build && npx tsx bench/export.ts [--rows 1000000] [--formats csv,ledger,...] [--keep]
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
const TO = '2026-12-31'
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
  log(`${label}: exit ${r.status}, ${secs} s, peak RSS ${(Number(kb) / 1024).toFixed(0)} MB, ${((size ?? 0) / 1e6).toFixed(0)} MB written`)
  if (r.status !== 0) log(r.stderr)
}

try {
  const { key, accounts } = await setUp()
  load(accounts)
  const period = ['--from', DATE_FROM, '--to', TO]
  const listed = join(dir, 'list.csv')
  timed('tx list --all --output csv', ['tx', 'list', '--all', '--output', 'csv', ...period], listed, key, listed)
  rmSync(listed, { force: true })
  for (const format of flags.formats.split(',')) {
    const out = join(dir, `export.${format}`)
    timed(`export --format ${format}`, ['export', '--format', format, ...period, '--output', out], out, key)
    rmSync(out, { force: true })
  }
} finally {
  if (flags.keep) log(`kept ${dir}`)
  else rmSync(dir, { recursive: true, force: true })
}

/**
 * Section `list-scale`: does a list page cost the same at any table size, and how far is
 * `tx list --all` from the store's floor? One SQLite file grows through two sizes; at each, the
 * unfiltered first page (embedded client, no total; and with `include_total=true`) is timed beside
 * the same page query on a prepared better-sqlite3 statement, and the CLI's `tx list --all --json`
 * and `--output csv` to /dev/null (wall time, peak RSS) beside a process that reads the same rows
 * with better-sqlite3.
 */
import Database from 'better-sqlite3'
import { spawnSync } from 'node:child_process'
import { closeSync, openSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '../../src/client/client.js'
import { openCore, type Core } from '../../src/core.js'
import { bootstrapCompany } from '../../src/domain/accounts/companies.js'
import type { NewTransactionRow } from '../../src/store/transaction-codec.js'
import { cleanEnv, makeTempDir } from './children.js'
import { makeFigure, type Figure } from './report.js'
import { generateTransactions, transactionRow } from './txdata.js'

export interface ListScaleConfig {
  sizes: [number, number]
  reps: number
  /** CLI runs per size and format (each reads every row). */
  cliRuns: number
}

const SEED = 2_000_003
const PAGE_SQL = 'SELECT * FROM "transactions" WHERE "company_key" = ? ORDER BY "transaction_date" DESC, "seq" DESC LIMIT 51'
const ALL_SQL = 'SELECT * FROM "transactions" WHERE "company_key" = ? ORDER BY "transaction_date" DESC, "seq" DESC'

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

/** A child process's wall time and peak RSS (MiB), its stdout to /dev/null. */
function runMeasured(root: string, args: string[], env: NodeJS.ProcessEnv): { ms: number; rssMb: number } {
  const out = openSync('/dev/null', 'w')
  try {
    const t0 = performance.now()
    const r = spawnSync('/usr/bin/time', ['-f', 'RSS_KB=%M', process.execPath, ...args], {
      cwd: root,
      env,
      stdio: ['ignore', out, 'pipe'],
      encoding: 'utf8',
      timeout: 600_000,
    })
    const ms = performance.now() - t0
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr.slice(-1000)}`)
    const kb = Number(/RSS_KB=(\d+)/.exec(r.stderr)?.[1])
    return { ms, rssMb: kb / 1024 }
  } finally {
    closeSync(out)
  }
}

export async function runListScaleSection(
  root: string,
  cfg: ListScaleConfig,
  log: (l: string) => void,
): Promise<{ figures: Figure[]; lines: string[]; extra: Record<string, unknown> }> {
  const dir = makeTempDir('list-scale')
  const file = join(dir, 'finctl.db')
  let core: Core | undefined
  const figures: Figure[] = []
  const lines: string[] = []
  const extra: Record<string, unknown> = {}
  try {
    core = await openCore(file)
    const c = core
    const fetch = (u: string, i: RequestInit) => Promise.resolve(c.app.fetch(new Request(u, i)))
    const baseUrl = 'http://finctl.embedded'
    const email = 'bench-owner@list-scale.test'
    const password = 'correct horse battery'
    const { company } = await bootstrapCompany(c.store, { name: 'List Scale', baseCurrency: 'USD', email, password }, new Date())
    const token = (await new Client({ baseUrl, fetch, maxRetries: 0 }).token(email, password)).access_token
    const key = await new Client({ baseUrl, fetch, maxRetries: 0, token }).keys.create({
      name: 'list-scale',
      scopes: ['read', 'write', 'transactions'],
      rate_limit_per_minute: 1_000_000,
      rate_limit_per_day: 100_000_000,
    })
    const client = new Client({ baseUrl, fetch, maxRetries: 0, apiKey: key.key })
    const keyed = []
    for (const [name, type] of [
      ['Operating', 'checking'],
      ['Reserve', 'savings'],
      ['Corporate card', 'credit_card'],
    ] as const) {
      const id = (await client.accounts.create({ name, account_type: type, currency_code: 'USD' })).id
      const a = await c.store.db.selectFrom('bank_accounts').select('key').where('id', '=', id).executeTakeFirstOrThrow()
      keyed.push({ companyKey: await c.store.tx.companyKey(company.id), accountKey: Number(a.key), accountId: id })
    }
    const companyKey = keyed[0].companyKey
    const cliEnv = cleanEnv({
      FINCTL_DATABASE: file,
      FINCTL_API_KEY: key.key,
      FINCTL_CONFIG_DIR: join(dir, 'config'),
      FINCTL_KEYRING: 'off',
    })
    const floorScript =
      "const D=require('better-sqlite3');const db=new D(process.argv[1],{readonly:true});let n=0;" +
      'for(const r of db.prepare(process.argv[2]).iterate(Number(process.argv[3]))){n+=r?1:0}process.stdout.write(String(n))'

    const rows = generateTransactions(SEED, cfg.sizes[1])[Symbol.iterator]()
    let have = 0
    const perSize: Record<string, Record<string, number[]>> = {}
    for (const size of cfg.sizes) {
      const t0 = performance.now()
      let batch: NewTransactionRow[] = []
      while (have < size) {
        const t = rows.next().value
        if (!t) break
        batch.push(transactionRow(t, keyed[t.account]))
        have++
        if (batch.length >= 5000) {
          await c.store.hot.insertTransactions(batch)
          batch = []
        }
      }
      if (batch.length) await c.store.hot.insertTransactions(batch)
      log(`list-scale: ${have} rows (${((performance.now() - t0) / 1000).toFixed(1)} s to add)`)

      const raw = new Database(file, { readonly: true, fileMustExist: true })
      const page = raw.prepare(PAGE_SQL)
      const t: Record<string, number[]> = { service: [], counted: [], sql: [] }
      for (let i = 0; i < cfg.reps + 3; i++) {
        let s = performance.now()
        const a = await client.transactions.list({ limit: 50 })
        const service = performance.now() - s
        s = performance.now()
        const b = await client.transactions.list({ limit: 50, include_total: true })
        const counted = performance.now() - s
        s = performance.now()
        const bare = page.all(companyKey)
        const sqlMs = performance.now() - s
        if (a.data.length !== 50 || bare.length !== 51 || b.pagination?.total !== size) throw new Error('list-scale: unexpected page')
        if (i < 3) continue
        t.service.push(service)
        t.counted.push(counted)
        t.sql.push(sqlMs)
      }
      raw.close()

      for (const format of ['--json', '--output=csv']) {
        const cli: number[] = []
        const floor: number[] = []
        const rss: number[] = []
        for (let i = 0; i < cfg.cliRuns; i++) {
          const r = runMeasured(root, ['bin/finctl.cjs', 'tx', 'list', '--all', format], cliEnv)
          cli.push(r.ms)
          rss.push(r.rssMb)
          floor.push(runMeasured(root, ['-e', floorScript, file, ALL_SQL, String(companyKey)], cliEnv).ms)
        }
        t[`cli${format}`] = cli
        t[`floor${format}`] = floor
        t[`rss${format}`] = rss
      }
      perSize[size] = t
      const n = size.toLocaleString('en-US')
      figures.push(
        makeFigure({
          id: `list-scale.page.${size}`,
          label: `first page of 50, no total, ${n} rows (embedded)`,
          unit: 'ms',
          spread: 'p10-p90',
          value: t.service,
          baselineLabel: 'the page query alone (better-sqlite3)',
          baseline: t.sql,
        }),
        makeFigure({
          id: `list-scale.counted.${size}`,
          label: `first page of 50 with include_total, ${n} rows`,
          unit: 'ms',
          spread: 'p10-p90',
          value: t.counted,
          baselineLabel: 'the page query alone (better-sqlite3)',
          baseline: t.sql,
        }),
      )
      for (const format of ['--json', '--output=csv']) {
        figures.push(
          makeFigure({
            id: `list-scale.all${format.replace('--output=', '.').replace('--', '.')}.${size}`,
            label: `CLI tx list --all ${format} > /dev/null, ${n} rows`,
            unit: 'ms',
            spread: 'min-max',
            value: t[`cli${format}`],
            baselineLabel: 'a process reading the same rows (better-sqlite3)',
            baseline: t[`floor${format}`],
            target: { kind: 'max', ratio: 2 },
          }),
        )
        lines.push(`list-scale: ${n} rows, tx list --all ${format}: peak RSS ${median(t[`rss${format}`]).toFixed(0)} MiB`)
      }
    }
    const [small, big] = cfg.sizes
    const grow = (w: string) => median(perSize[big][w]) / median(perSize[small][w])
    lines.push(
      `list-scale: ${big.toLocaleString('en-US')} over ${small.toLocaleString('en-US')} rows (medians): page ${grow('service').toFixed(2)}x, ` +
        `page query alone ${grow('sql').toFixed(2)}x, page with include_total ${grow('counted').toFixed(2)}x, ` +
        `tx list --all --json RSS ${grow('rss--json').toFixed(2)}x, csv RSS ${grow('rss--output=csv').toFixed(2)}x`,
    )
    extra.sizes = cfg.sizes
    extra.medians = Object.fromEntries(
      Object.entries(perSize).map(([size, t]) => [size, Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]))]),
    )
    return { figures, lines, extra }
  } finally {
    await core?.close()
    if (process.env.FINCTL_BENCH_KEEP_TMP) log(`list-scale: kept ${file} (FINCTL_BENCH_KEEP_TMP)`)
    else rmSync(dir, { recursive: true, force: true })
  }
}

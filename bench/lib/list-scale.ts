/**
 * Section `list-scale`: does a list page cost the same at any table size, and how far is
 * `tx list --all` from the store's floor? One SQLite file grows through two sizes; at each, the
 * unfiltered first page (embedded client, no total; and with `include_total=true`) is timed beside
 * the same page query on a prepared better-sqlite3 statement, and the CLI's `tx list --all --json`
 * and `--output csv` to /dev/null beside a process that reads the same rows with better-sqlite3,
 * alternated, several runs a size, wall and processor time (list-walk.ts); then the walks' peak RSS
 * at the larger size beside the smaller's, also under a bounded V8 heap: memory flat as rows grow.
 */
import Database from 'better-sqlite3'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openCore, type Core } from '../../src/core.js'
import type { NewTransactionRow } from '../../src/store/transaction-codec.js'
import { cleanEnv, makeTempDir } from './children.js'
import { FORMATS, measureWalks, type Format, type Measured, type Walks } from './list-walk.js'
import { makeFigure, type Figure } from './report.js'
import { summarize } from './stats.js'
import { generateTransactions, transactionRow } from './txdata.js'
import { embeddedCompany } from './embedded-company.js'

export interface ListScaleConfig {
  sizes: [number, number]
  reps: number
  /** Alternated CLI and floor runs per format at each size (same index as `sizes`), each reading every row. */
  cliRuns: [number, number]
  /** V8's old generation (MiB) of the bounded-heap walks (`node --max-old-space-size`); 0: none. */
  boundedHeapMb: number
}

const SEED = 2_000_003
const PAGE_SQL = 'SELECT * FROM "transactions" WHERE "company_key" = ? ORDER BY "transaction_date" DESC, "seq" DESC LIMIT 51'
const ALL_SQL = 'SELECT * FROM "transactions" WHERE "company_key" = ? ORDER BY "transaction_date" DESC, "seq" DESC'

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

/** "1.23 s [1.10-1.40]": the median and min-max of some runs' `pick`, in seconds. */
function spread(runs: Measured[], pick: (m: Measured) => number, scale = 1, unit = ' s'): string {
  const s = summarize(runs.map(pick).map((x) => x * scale))
  const f = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2))
  return `${f(s.median)}${unit} [${f(s.min)}-${f(s.max)}]`
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
    const { company, key, client } = await embeddedCompany(c, {
      name: 'List Scale',
      email: 'bench-owner@list-scale.test',
      keyName: 'list-scale',
    })
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
      FINCTL_API_KEY: key,
      FINCTL_CONFIG_DIR: join(dir, 'config'),
      FINCTL_KEYRING: 'off',
    })

    if (process.env.FINCTL_BENCH_KEEP_TMP)
      writeFileSync(
        join(dir, 'env.sh'),
        Object.entries({ FINCTL_DATABASE: file, FINCTL_API_KEY: key, FINCTL_CONFIG_DIR: join(dir, 'config'), FINCTL_KEYRING: 'off' })
          .map(([k, v]) => `export ${k}='${v}'\n`)
          .join(''),
        { mode: 0o600 },
      )
    const rows = generateTransactions(SEED, cfg.sizes[1])[Symbol.iterator]()
    let have = 0
    const perSize: Record<string, Record<string, number[]>> = {}
    const walksBySize: Record<string, Walks> = {}
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

      const walks = measureWalks(root, {
        file,
        env: cliEnv,
        allSql: ALL_SQL,
        companyKey,
        runs: cfg.cliRuns[cfg.sizes.indexOf(size)],
        boundedHeapMb: cfg.boundedHeapMb,
      })
      walksBySize[size] = walks
      for (const format of FORMATS) {
        const w = walks.byFormat[format]
        t[`cli${format}`] = w.cli.map((m) => m.ms)
        t[`floor${format}`] = w.floor.map((m) => m.ms)
        t[`rss${format}`] = w.cli.map((m) => m.rssMb)
        t[`cpu${format}`] = w.cli.map((m) => m.cpuS)
        t[`floorCpu${format}`] = w.floor.map((m) => m.cpuS)
        const b = walks.bounded?.[format]
        if (b) t[`boundedRss${format}`] = [b.rssMb]
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
      for (const format of FORMATS) {
        const id = `${format.replace('--output=', '.').replace('--', '.')}.${size}`
        figures.push(
          makeFigure({
            id: `list-scale.all${id}`,
            label: `CLI tx list --all ${format} > /dev/null, ${n} rows`,
            unit: 'ms',
            spread: 'min-max',
            value: t[`cli${format}`],
            baselineLabel: 'a process reading the same rows (better-sqlite3)',
            baseline: t[`floor${format}`],
            target: { kind: 'max', ratio: 2 },
          }),
          makeFigure({
            id: `list-scale.all-cpu${id}`,
            label: `CPU (user + sys) of tx list --all ${format}, ${n} rows`,
            unit: 's',
            spread: 'min-max',
            value: t[`cpu${format}`],
            baselineLabel: "the reading process's CPU",
            baseline: t[`floorCpu${format}`],
          }),
        )
        lines.push(walkLine(n, format, walks))
      }
      lines.push(
        `list-scale: ${n} rows: the SQLite file ${walks.fileMb.toFixed(0)} MiB; load average ${walks.loadBefore.toFixed(2)} before the walks, ${walks.loadAfter.toFixed(2)} after`,
      )
    }
    const [small, big] = cfg.sizes
    const grow = (w: string) => median(perSize[big][w]) / median(perSize[small][w])
    lines.push(
      `list-scale: ${big.toLocaleString('en-US')} over ${small.toLocaleString('en-US')} rows (medians): page ${grow('service').toFixed(2)}x, ` +
        `page query alone ${grow('sql').toFixed(2)}x, page with include_total ${grow('counted').toFixed(2)}x, ` +
        `tx list --all --json RSS ${grow('rss--json').toFixed(2)}x, csv RSS ${grow('rss--output=csv').toFixed(2)}x`,
    )
    // Memory as the rows grow: the walk's peak RSS at ten times the rows, and the same under a bounded
    // heap (a walk that kept rows could not finish in it).
    for (const format of FORMATS) {
      const name = format.replace('--output=', '').replace('--', '')
      const label = (what: string) => `peak RSS of tx list --all ${format}${what}, ${big.toLocaleString('en-US')} rows`
      figures.push(
        makeFigure({
          id: `list-scale.rss.${name}`,
          label: label(''),
          unit: 'MiB',
          spread: 'min-max',
          value: perSize[big][`rss${format}`],
          baselineLabel: `the same at ${small.toLocaleString('en-US')} rows`,
          baseline: perSize[small][`rss${format}`],
        }),
      )
      if (perSize[big][`boundedRss${format}`])
        figures.push(
          makeFigure({
            id: `list-scale.rss-bounded.${name}`,
            label: label(` (--max-old-space-size=${cfg.boundedHeapMb})`),
            unit: 'MiB',
            spread: 'min-max',
            value: perSize[big][`boundedRss${format}`],
            baselineLabel: `the same at ${small.toLocaleString('en-US')} rows`,
            baseline: perSize[small][`boundedRss${format}`],
          }),
        )
    }
    extra.sizes = cfg.sizes
    extra.medians = Object.fromEntries(
      Object.entries(perSize).map(([size, t]) => [size, Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]))]),
    )
    return { figures, lines, extra }
  } finally {
    await core?.close()
    if (process.env.FINCTL_BENCH_KEEP_TMP)
      log(`list-scale: kept ${file} and its CLI settings, ${join(dir, 'env.sh')} (FINCTL_BENCH_KEEP_TMP)`)
    else rmSync(dir, { recursive: true, force: true })
  }
}

/** One size and format: wall and CPU beside the floor's, peak RSS, and the bounded-heap walk. */
function walkLine(n: string, format: Format, walks: Walks): string {
  const w = walks.byFormat[format]
  const ratio = (pick: (m: Measured) => number) => median(w.cli.map(pick)) / median(w.floor.map(pick))
  const b = walks.bounded?.[format]
  return (
    `list-scale: ${n} rows, tx list --all ${format} (${w.cli.length} alternated with the floor; median [min-max]): ` +
    `wall ${spread(w.cli, (m) => m.ms, 1e-3)} against the floor's ${spread(w.floor, (m) => m.ms, 1e-3)} (${ratio((m) => m.ms).toFixed(2)}x); ` +
    `CPU ${spread(w.cli, (m) => m.cpuS)} against ${spread(w.floor, (m) => m.cpuS)} (${ratio((m) => m.cpuS).toFixed(2)}x); ` +
    `peak RSS ${spread(w.cli, (m) => m.rssMb, 1, ' MiB')}` +
    (b ? `; with a bounded heap: ${(b.ms / 1000).toFixed(2)} s, CPU ${b.cpuS.toFixed(2)} s, peak RSS ${b.rssMb.toFixed(0)} MiB` : '')
  )
}

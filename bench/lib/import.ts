/**
 * Section `import`: `finctl tx import` of a generated CSV (deterministic, seeded) with the built CLI,
 * EMBEDDED and REMOTE (a `finctl serve` on loopback), beside two ceilings measured in the same run on
 * the same file: csv-parse alone (reading), and csv-parse + plain prepared better-sqlite3 inserts of
 * the same rows into a plain table in batches of 1,000 (reading and storing, with none of finctl's
 * validation, indexes, audit trail or exactly-once identity). A third figure, for context, is the
 * schema's own floor: the rows the embedded import created, inserted again through the store's
 * bulk-insert path with nothing around them. Peak RSS of the CLI from /usr/bin/time.
 * Each finctl import writes into a fresh database (embedded, or behind its own `finctl serve`).
 */
import Database from 'better-sqlite3'
import { parse } from 'csv-parse'
import { spawnSync } from 'node:child_process'
import { copyFileSync, createReadStream, existsSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { mulberry32 } from '../../src/kernel/random.js'
import type { NewTransactionRow } from '../../src/store/transaction-codec.js'
import { openSqliteStore } from '../../src/store/sqlite/store.js'
import { makeTempDir, peakRssMb, type ServerProcess } from './children.js'
import { type PgImportRun, runPgImport } from './pg-import.js'
import { makeFigure, type Figure } from './report.js'
import { prepareFinctl, startFinctl } from './throughput.js'

/** The order of a file's rows: by date as many banks export them, newest first, or none (merged or re-sorted files). */
export type RowOrder = 'ascending' | 'descending' | 'shuffled'

export interface ImportConfig {
  /** Row counts to import, e.g. [100_000, 1_000_000]. */
  sizes: number[]
  /** Orders of the rows: each size is imported in each (embedded); the ceilings and remote use the first. */
  orders?: readonly RowOrder[]
  /** Runs per size for the ceilings (cheap). */
  ceilingRuns: number
  /**
   * Rounds of the embedded imports (each order into an empty database, then each into one holding
   * as many): the figures are medians, and a round runs every order once, so that a machine whose
   * speed drifts between minutes moves all of them alike. Default 1. PostgreSQL runs as many times
   * (each into an empty schema of its own), remote once.
   */
  rounds?: number
  remote: boolean
  /** Also into a `finctl serve` on PostgreSQL (FINCTL_BENCH_DATABASE_URL), beside raw COPY of the same rows. */
  postgres?: boolean
  /**
   * Also each size again into the database of the first order's embedded import, which holds that
   * many rows already (a copy of it for each run): other rows (another seed) over the same dates, in
   * the first order and shuffled.
   */
  intoExisting?: boolean
  /**
   * Also each size with a running balance column (the first order's rows, ascending): the import
   * then checks every row against it in a pass of its own before sending (balance-check.ts); the
   * figure stands beside the same rows without the column, of the same rounds.
   */
  withBalance?: boolean
}

/**
 * A bank-like CSV of `n` rows over 3 years: signed amounts, descriptions that repeat, a reference per
 * row. The same rows in any `order`: by date (ascending), newest first (descending), or shuffled.
 * Seeded (mulberry32), so every run reads the same file.
 */
export function writeCsv(path: string, n: number, seed = 42, order: RowOrder = 'ascending', balance = false): void {
  if (balance && order !== 'ascending') throw new Error('a running balance is written for ascending rows only')
  const words = [
    'AMAZON MARKETPLACE',
    'REWE SAGT DANKE',
    'SHELL 1234',
    'Salary',
    'Rent',
    'Stripe payout',
    'AWS EMEA',
    'Coffee',
    'Uber BV',
    'Insurance',
  ]
  const start = Date.UTC(2023, 0, 1)
  const chunk: string[] = [`Date,Description,Amount,Reference${balance ? ',Balance' : ''}`]
  let running = 100_000_00
  const money = (c: number) => `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`
  writeFileSync(path, '')
  // Row k of the file is row position(k) of the date-ordered sequence (a seeded Fisher-Yates permutation when shuffled).
  let permutation: Uint32Array | undefined
  if (order === 'shuffled') {
    const shuffle = mulberry32(seed + 1)
    permutation = new Uint32Array(n)
    for (let i = 0; i < n; i++) permutation[i] = i
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(shuffle() * (i + 1))
      const x = permutation[i]
      permutation[i] = permutation[j]
      permutation[j] = x
    }
  }
  const position = (k: number) => (permutation ? permutation[k] : order === 'descending' ? n - 1 - k : k)
  for (let k = 0; k < n; k++) {
    const i = position(k)
    const d = new Date(start + Math.floor((i * 1095) / n) * 86_400_000).toISOString().slice(0, 10)
    // Each row's content comes from its own position, so every order holds the same rows.
    const rnd = mulberry32(seed * 1_000_003 + i)
    // Never 0: a transaction of no money is refused without --force.
    const cents = Math.floor(rnd() * 200_000) - 150_000 || 1
    const amount = money(cents)
    running += cents
    chunk.push(
      `${d},${words[Math.floor(rnd() * words.length)]} ${Math.floor(rnd() * 1000)},${amount},REF${i}${balance ? `,${money(running)}` : ''}`,
    )
    if (chunk.length >= 50_000) {
      writeFileSync(path, `${chunk.join('\n')}\n`, { flag: 'a' })
      chunk.length = 0
    }
  }
  if (chunk.length) writeFileSync(path, `${chunk.join('\n')}\n`, { flag: 'a' })
}

async function csvOnly(path: string): Promise<number> {
  const t0 = performance.now()
  let rows = 0
  for await (const _ of createReadStream(path).pipe(parse({ from_line: 2 }))) rows++
  if (rows === 0) throw new Error('csv-parse read no rows')
  return (performance.now() - t0) / 1000
}

async function csvAndInserts(path: string, dir: string): Promise<number> {
  const file = join(dir, `plain-${Date.now()}.db`)
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, date TEXT NOT NULL, description TEXT NOT NULL, amount INTEGER NOT NULL, reference TEXT)')
  const ins = db.prepare('INSERT INTO t (date, description, amount, reference) VALUES (?, ?, ?, ?)')
  const many = db.transaction((rows: string[][]) => {
    for (const r of rows) ins.run(r[0], r[1], Number(r[2].replace('.', '')), r[3])
  })
  const t0 = performance.now()
  let batch: string[][] = []
  for await (const rec of createReadStream(path).pipe(parse({ from_line: 2 })) as AsyncIterable<string[]>) {
    batch.push(rec)
    if (batch.length === 1000) {
      many(batch)
      batch = []
    }
  }
  many(batch)
  const s = (performance.now() - t0) / 1000
  db.close()
  return s
}

/** The middle value (the upper one of an even count). */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Peak RSS of one run or the range of several, in MB. */
function rssRange(mb: number[]): string {
  if (mb.length === 0) return '? MB'
  const lo = Math.min(...mb)
  const hi = Math.max(...mb)
  return lo === hi ? `${hi.toFixed(0)} MB` : `${lo.toFixed(0)}-${hi.toFixed(0)} MB`
}

interface CliRun {
  seconds: number
  rssMb?: number
  created: number
}

/**
 * Wait until a SQLite file's bulk load has ended: the indexes it set aside built again (no
 * `deferred_indexes` record). A `finctl serve` does that once the load has been quiet for its idle time.
 */
async function indexesBack(database: string, timeoutMs = 10 * 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const db = new Database(database, { readonly: true, fileMustExist: true })
    try {
      db.pragma('busy_timeout = 5000')
      if (!db.prepare("SELECT 1 FROM settings WHERE key = 'deferred_indexes'").get()) return
    } finally {
      db.close()
    }
    if (Date.now() > deadline) throw new Error(`${database}: the indexes were not back within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Bytes on disk per transaction of a SQLite file (with its WAL, if any). */
function bytesPerRow(database: string, rows: number): number {
  const size = (f: string) => (existsSync(f) ? statSync(f).size : 0)
  return (size(database) + size(`${database}-wal`)) / rows
}

function runImport(root: string, env: NodeJS.ProcessEnv, cwd: string, file: string, account: string): CliRun {
  const bin = join(root, 'bin', 'finctl.cjs')
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined
  const args = ['tx', 'import', file, '--account', account, '--json', '--no-progress']
  const t0 = performance.now()
  const r = timeBin
    ? spawnSync(timeBin, ['-f', 'FINCTL_MAXRSS_KB=%M', process.execPath, bin, ...args], {
        cwd,
        env,
        encoding: 'utf8',
        timeout: 30 * 60_000,
        maxBuffer: 64 * 1024 * 1024,
      })
    : spawnSync(process.execPath, [bin, ...args], { cwd, env, encoding: 'utf8', timeout: 30 * 60_000, maxBuffer: 64 * 1024 * 1024 })
  const seconds = (performance.now() - t0) / 1000
  if (r.status !== 0) throw new Error(`finctl tx import exited ${r.status ?? r.signal}: ${(r.stderr ?? '').slice(-2000)}`)
  const summary = JSON.parse(r.stdout) as { created: number; rejected: number }
  if (summary.rejected) throw new Error(`finctl rejected ${summary.rejected} generated rows`)
  const kb = /FINCTL_MAXRSS_KB=(\d+)/.exec(r.stderr ?? '')?.[1]
  return { seconds, rssMb: kb ? Number(kb) / 1024 : undefined, created: summary.created }
}

/**
 * The schema's own floor: the rows an embedded import created (`from`), inserted again into a fresh
 * database (`to`, after `finctl init`) through the store's bulk-insert path, with the embedded
 * core's page cache and the same batches of 1,000 and bulk-load hint, and nothing else: no CSV, no
 * validation, no HTTP, no threads. Times the inserts and the store's close (which builds the amount
 * index a bulk load set aside), not the reads of the source rows.
 */
async function storeInsertsAlone(from: string, to: { database: string; accountId: string }): Promise<number> {
  const source = await openSqliteStore(from, { cacheMb: 8 })
  const store = await openSqliteStore(to.database, { cacheMb: 8 })
  let closed = false
  try {
    const account = await store.db
      .selectFrom('bank_accounts')
      .select(['key', 'company_id'])
      .where('id', '=', to.accountId)
      .executeTakeFirstOrThrow()
    const companyKey = await store.tx.companyKey(account.company_id)
    const total = Number(
      (
        await source.db
          .selectFrom('transactions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
    let seconds = 0
    for (let after = 0; ; ) {
      const stored = await source.db.selectFrom('transactions').selectAll().where('seq', '>', after).orderBy('seq').limit(1000).execute()
      if (stored.length === 0) break
      after = Number(stored[stored.length - 1].seq)
      const rows: NewTransactionRow[] = (await source.tx.decode(source.db, stored)).map(({ seq: _seq, ...r }) => ({
        ...r,
        company_key: companyKey,
        account_key: Number(account.key),
        bank_account_id: to.accountId,
      }))
      const t0 = performance.now()
      const inserted = await store.hot.bulkLoad({ rows: total }).insert(rows)
      seconds += (performance.now() - t0) / 1000
      if (inserted.size !== rows.length) throw new Error(`store inserts: ${inserted.size} of ${rows.length} rows inserted`)
    }
    const t0 = performance.now()
    closed = true
    await store.close()
    return seconds + (performance.now() - t0) / 1000
  } finally {
    await source.close()
    if (!closed) await store.close()
  }
}

export async function runImportSection(
  root: string,
  c: ImportConfig,
  log: (l: string) => void,
): Promise<{ figures: Figure[]; lines: string[]; extra: unknown }> {
  const dir = makeTempDir('import')
  const figures: Figure[] = []
  const lines: string[] = [
    'import: rows | csv-parse alone | csv-parse + plain inserts | store inserts alone | finctl embedded (peak RSS) | finctl remote (peak RSS)',
  ]
  const extra: Record<string, unknown> = {}
  // Every import writes into a database of its own, as a first import of a bank's history would:
  // `finctl init`, a bench key (no practical rate limit: the profile's own init key would pace the
  // import) and an account, then `finctl serve` on it for the remote run.
  const fresh = () => {
    const setup = prepareFinctl(root, log)
    return { setup, env: { ...setup.env, FINCTL_API_KEY: setup.apiKey } }
  }
  const orders = c.orders ?? ['ascending']
  const rounds = Math.max(1, c.rounds ?? 1)
  for (const n of c.sizes) {
    const file = join(dir, `rows-${n}.csv`)
    writeCsv(file, n, 42, orders[0])
    log(`import: ${n.toLocaleString('en-US')} rows, ${(statSync(file).size / 1e6).toFixed(1)} MB`)
    const parseOnly: number[] = []
    const plain: number[] = []
    for (let i = 0; i < c.ceilingRuns; i++) {
      parseOnly.push(await csvOnly(file))
      plain.push(await csvAndInserts(file, dir))
    }
    const label = n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`
    const files: Record<string, string> = { [orders[0]]: file }
    for (const order of orders.slice(1)) {
      files[order] = join(dir, `rows-${n}-${order}.csv`)
      writeCsv(files[order], n, 42, order)
    }
    // A round: each order into a database of its own, then each import into a copy of a database
    // that holds n rows (the first order's, of the first round): other rows over the same dates. So
    // each ratio compares runs of the same minutes. The first round's first database is kept for
    // the floor and as that holding database.
    const runs: Record<string, Array<CliRun & { bytesPerRow: number }>> = {}
    const intoRuns: Record<string, Array<CliRun & { bytesPerRow: number }>> = {}
    const intoOrders = c.intoExisting ? [...new Set([orders[0], 'shuffled' as const])] : []
    const more: Record<string, string> = {}
    for (const [k, order] of intoOrders.entries()) {
      // Rows of their own (another seed each), over the same dates.
      more[order] = join(dir, `more-${n}-${order}.csv`)
      writeCsv(more[order], n, 4242 + k, order)
    }
    const balanced = join(dir, `rows-${n}-balance.csv`)
    if (c.withBalance) writeCsv(balanced, n, 42, 'ascending', true)
    const balanceRuns: CliRun[] = []
    const snapshot = join(dir, `holding-${n}.db`)
    let emb: ReturnType<typeof fresh> | undefined
    let floor = 0
    for (let r = 0; r < rounds; r++) {
      const round = rounds > 1 ? `, round ${r + 1}` : ''
      for (const order of orders) {
        const o = fresh()
        const run = runImport(root, o.env, o.setup.configDir, files[order], o.setup.accountId)
        if (run.created !== n) throw new Error(`embedded import (${order}) created ${run.created} of ${n}`)
        ;(runs[order] ??= []).push({ ...run, bytesPerRow: bytesPerRow(o.setup.database, n) })
        if (r === 0 && order === orders[0]) emb = o
        else rmSync(o.setup.configDir, { recursive: true, force: true })
        log(`import: embedded, ${order}${round}: ${run.seconds.toFixed(1)} s, peak RSS ${run.rssMb?.toFixed(0) ?? '?'} MB`)
      }
      if (c.withBalance) {
        const o = fresh()
        const run = runImport(root, o.env, o.setup.configDir, balanced, o.setup.accountId)
        if (run.created !== n) throw new Error(`embedded import with a balance column created ${run.created} of ${n}`)
        balanceRuns.push(run)
        rmSync(o.setup.configDir, { recursive: true, force: true })
        log(
          `import: embedded, with a running balance checked${round}: ${run.seconds.toFixed(1)} s, peak RSS ${run.rssMb?.toFixed(0) ?? '?'} MB`,
        )
      }
      if (!emb) throw new Error('no embedded import')
      const database = emb.setup.database
      if (r === 0) {
        // The floor reads the rows of the first order's database: before more go in.
        floor = await storeInsertsAlone(database, fresh().setup)
        const settled = new Database(database)
        settled.pragma('wal_checkpoint(TRUNCATE)')
        settled.close()
        copyFileSync(database, snapshot)
      }
      for (const order of intoOrders) {
        // Each run starts from the database as the first import left it (n rows).
        for (const f of [`${database}-wal`, `${database}-shm`]) rmSync(f, { force: true })
        copyFileSync(snapshot, database)
        const run = runImport(root, emb.env, emb.setup.configDir, more[order], emb.setup.accountId)
        if (run.created !== n) throw new Error(`import into ${n} rows (${order}) created ${run.created} of ${n}`)
        ;(intoRuns[order] ??= []).push({ ...run, bytesPerRow: bytesPerRow(database, 2 * n) })
        log(
          `import: embedded, ${order}, into a database of ${n.toLocaleString('en-US')}${round}: ${run.seconds.toFixed(1)} s, peak RSS ${run.rssMb?.toFixed(0) ?? '?'} MB`,
        )
      }
    }
    type Summary = { seconds: number; runs: number[]; rssMb: number[]; bytesPerRow: number }
    const summary = (done: Array<CliRun & { bytesPerRow: number }>): Summary => ({
      seconds: median(done.map((x) => x.seconds)),
      runs: done.map((x) => x.seconds),
      rssMb: done.flatMap((x) => (x.rssMb === undefined ? [] : [x.rssMb])),
      bytesPerRow: done[0].bytesPerRow,
    })
    /** The runs behind a median, when there are several. */
    const listed = (runs: number[]) => (runs.length > 1 ? ` (median of ${runs.length}: ${runs.map((x) => x.toFixed(1)).join(', ')})` : '')
    const byOrder: Record<string, Summary> = {}
    for (const order of orders) byOrder[order] = summary(runs[order])
    const first = byOrder[orders[0]]
    const embedded = { seconds: first.seconds, rssMb: first.rssMb.length ? Math.max(...first.rssMb) : undefined }
    for (const order of orders) {
      const o = byOrder[order]
      log(
        `import: embedded, ${order}: ${o.seconds.toFixed(1)} s${listed(o.runs)}${order === orders[0] ? `, ${Math.round(n / o.seconds)} rows/s` : ` (${(o.seconds / first.seconds).toFixed(2)}x ${orders[0]})`}, peak RSS ${rssRange(o.rssMb)}, ${o.bytesPerRow.toFixed(0)} bytes a transaction`,
      )
      if (order !== orders[0])
        figures.push(
          makeFigure({
            id: `import.embedded.${order}.${label}`,
            label: `tx import ${label} rows, embedded, ${order}`,
            unit: 's',
            spread: 'min-max',
            value: o.runs,
            baselineLabel: 'csv-parse + plain inserts',
            baseline: plain,
          }),
        )
    }
    const intoExisting: Record<string, Summary> = {}
    for (const order of intoOrders) {
      const got = (intoExisting[order] = summary(intoRuns[order]))
      const empty = byOrder[order]?.seconds
      log(
        `import: embedded, ${order}, into a database of ${n.toLocaleString('en-US')}: ${got.seconds.toFixed(1)} s${listed(got.runs)}${empty ? ` (${(got.seconds / empty).toFixed(2)}x the empty database's ${empty.toFixed(1)} s)` : ''}, peak RSS ${rssRange(got.rssMb)}, ${got.bytesPerRow.toFixed(0)} bytes a transaction`,
      )
      figures.push(
        makeFigure({
          id: `import.embedded.into-existing.${order}.${label}`,
          label: `tx import ${label} rows, embedded, ${order}, into a database holding ${label}`,
          unit: 's',
          spread: 'min-max',
          value: got.runs,
          baselineLabel: 'csv-parse + plain inserts',
          baseline: plain,
        }),
      )
    }
    if (balanceRuns.length) {
      const b = median(balanceRuns.map((x) => x.seconds))
      log(
        `import: embedded, with a running balance checked: ${b.toFixed(1)} s (${(b / first.seconds).toFixed(2)}x the same rows without it)`,
      )
      figures.push(
        makeFigure({
          id: `import.embedded.balance.${label}`,
          label: `tx import ${label} rows, embedded, a running balance checked on every row`,
          unit: 's',
          spread: 'min-max',
          value: balanceRuns.map((x) => x.seconds),
          baselineLabel: 'the same rows without the balance column',
          baseline: first.runs,
        }),
      )
    }
    log(`import: the store's inserts alone ${floor.toFixed(1)} s`)
    figures.push(
      makeFigure({
        id: `import.embedded.${label}`,
        label: `tx import ${label} rows, embedded`,
        unit: 's',
        spread: 'min-max',
        value: first.runs,
        baselineLabel: 'csv-parse + plain inserts',
        baseline: plain,
      }),
      makeFigure({
        id: `import.store.${label}`,
        label: `store inserts alone, ${label} rows (context)`,
        unit: 's',
        spread: 'min-max',
        value: [floor],
        baselineLabel: 'csv-parse + plain inserts',
        baseline: plain,
      }),
      makeFigure({
        id: `import.parse.${label}`,
        label: `csv-parse alone, ${label} rows (context)`,
        unit: 's',
        spread: 'min-max',
        value: parseOnly,
        baselineLabel: 'csv-parse + plain inserts',
        baseline: plain,
      }),
    )
    let remote: (CliRun & { indexed: number; serveRssMb?: number }) | undefined
    if (c.remote) {
      const rem = fresh()
      let server: ServerProcess | undefined
      try {
        server = await startFinctl(root, rem.setup)
        const t0 = performance.now()
        const run = runImport(root, { ...rem.env, FINCTL_BASE_URL: server.url }, rem.setup.configDir, file, rem.setup.accountId)
        // The server builds the indexes a bulk load set aside once the load has been quiet for a while:
        // the import is whole when they are back.
        await indexesBack(rem.setup.database)
        remote = { ...run, indexed: (performance.now() - t0) / 1000, serveRssMb: peakRssMb(server.child.pid) }
      } finally {
        await server?.stop()
      }
      if (remote.created !== n) throw new Error(`remote import created ${remote.created} of ${n}`)
      log(
        `import: remote ${remote.seconds.toFixed(1)} s (${(remote.seconds / embedded.seconds).toFixed(2)}x embedded), ${Math.round(n / remote.seconds)} rows/s, the server's indexes back at ${remote.indexed.toFixed(1)} s (its quiet time included); peak RSS CLI ${remote.rssMb?.toFixed(0) ?? '?'} MB, finctl serve ${remote.serveRssMb?.toFixed(0) ?? '?'} MB`,
      )
      figures.push(
        makeFigure({
          id: `import.remote.${label}`,
          label: `tx import ${label} rows, remote (loopback)`,
          unit: 's',
          spread: 'min-max',
          value: [remote.seconds],
          baselineLabel: 'csv-parse + plain inserts',
          baseline: plain,
        }),
      )
    }
    let onPg: PgImportRun | undefined
    if (c.postgres) {
      onPg = await runPgImport(root, file, c.ceilingRuns, rounds, (env, cwd, account) => runImport(root, env, cwd, file, account), log)
      if (onPg.created.some((k) => k !== n)) throw new Error(`import into PostgreSQL created ${onPg.created.join(', ')} of ${n}`)
      const copy = median(onPg.rawCopy)
      const pgTime = median(onPg.finctl)
      const serveRss = onPg.serveRssMb.filter((m): m is number => m !== undefined)
      const f = onPg.floors
      log(
        `import: PostgreSQL ${pgTime.toFixed(1)} s${listed(onPg.finctl)} (${(pgTime / copy).toFixed(2)}x csv-parse + raw COPY, ${copy.toFixed(1)} s; ` +
          `${(pgTime / f.indexed).toFixed(2)}x the same rows COPY'd into a table with every index, ${f.indexed.toFixed(1)} s), finctl serve peak RSS ${rssRange(serveRss)}`,
      )
      const x = (s: number) => `${s.toFixed(1)} s, ${(s / copy).toFixed(1)}x raw COPY`
      log(
        `import: PostgreSQL's own floor, COPY of the rows finctl stored into a table shaped like transactions: primary key only ${x(f.plain)}; ` +
          `every index ${x(f.indexed)}; unique indexes only ${f.deferred.copy.toFixed(1)} s + the other indexes built after ${f.deferred.builds.toFixed(1)} s = ${x(f.deferred.copy + f.deferred.builds)}`,
      )
      figures.push(
        makeFigure({
          id: `import.postgres.${label}`,
          label: `tx import ${label} rows into finctl serve on PostgreSQL`,
          unit: 's',
          spread: 'min-max',
          value: onPg.finctl,
          baselineLabel: 'csv-parse + raw COPY into a plain table',
          baseline: onPg.rawCopy,
        }),
        // The storage engine's own speed for these rows: the rows finctl stored, one COPY into a
        // table shaped like transactions with every index (PostgreSQL's floor, measured once).
        makeFigure({
          id: `import.postgres.vs-indexed-copy.${label}`,
          label: `tx import ${label} rows into finctl serve on PostgreSQL (vs the same rows COPY'd with every index)`,
          unit: 's',
          spread: 'min-max',
          value: onPg.finctl,
          baselineLabel: "the rows finctl stored, COPY'd into a table with every index",
          baseline: [f.indexed],
        }),
      )
    }
    lines.push(
      `import: ${label.padEnd(5)} | ${median(parseOnly).toFixed(1)} s | ${median(plain).toFixed(1)} s | ${floor.toFixed(1)} s | ${embedded.seconds.toFixed(1)} s (${embedded.rssMb?.toFixed(0) ?? '?'} MB) | ${remote ? `${remote.seconds.toFixed(1)} s (${remote.rssMb?.toFixed(0) ?? '?'} MB)` : '-'}`,
    )
    extra[label] = { rows: n, parseOnly, plain, storeInserts: floor, embedded, remote, byOrder, intoExisting, postgres: onPg }
  }
  return { figures, lines, extra }
}

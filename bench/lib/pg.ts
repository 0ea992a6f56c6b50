/**
 * Section `pg`: scale-out on PostgreSQL. `finctl serve --database postgres://…?schema=bench_…`
 * as ONE process and as TWO processes (load split between them: two autocannon instances at once,
 * half the connections each, req/s summed), beside ONE `finctl serve` on SQLite in the same run.
 * Loads: POST /api-v1/transactions and a filtered GET /api-v1/transactions page. Both databases
 * are seeded with the same deterministic transactions (POST /api-v1/transactions/batch) first.
 *
 * The schema is created fresh per run and dropped at the end, also when the run fails or is
 * interrupted (a synchronous `node -e` drop registered with the cleanup hooks).
 */
import { measureUsageReads } from './usage-reads.js'
import { randomBytes } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import { cpus } from 'node:os'
import pg from 'pg'
import { onCleanup, type ServerProcess } from './children.js'
import { makeFigure, type Figure } from './report.js'
import { summarize } from './stats.js'
import { cpuDelta, cpuSnapshot, type CpuDelta } from './sysstat.js'
import {
  checkOnce,
  load,
  prepareFinctl,
  redact,
  startFinctl,
  txRequest,
  type FinctlSetup,
  type HttpRequestSpec,
  type LoadSample,
} from './throughput.js'
import { centsToDecimal, generateTransactions } from './txdata.js'

export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test'

export interface PgConfig {
  rounds: number
  durationS: number
  warmupS: number
  /** Total connections per configuration (split in half across two processes). */
  connections: number
  pauseMs: number
  seedRows: number
  batchSize: number
  /** Rounds of the usage reads beside GET /api-v1/company (usage-reads.ts). */
  usageReadRounds: number
}

export interface PgSectionResult {
  figures: Figure[]
  lines: string[]
  extra: Record<string, unknown>
}

type ConfigName = 'sqlite' | 'pg1' | 'pg2'

interface ConfigSample extends LoadSample {
  cpu: CpuDelta
  /** For pg2: each process's own sample. */
  parts?: LoadSample[]
}

/** The filtered GET: one category (Rent is ~4% of the seed rows), first page of 50. */
export const GET_FILTER = { category: 'Rent', limit: 50 }

function getRequest(apiKey: string): HttpRequestSpec {
  // With its total, as the bare server gives one: the same work on both sides.
  const q = new URLSearchParams({ category: GET_FILTER.category, limit: String(GET_FILTER.limit), include_total: 'true' })
  return { method: 'GET', path: `/api-v1/transactions?${q}`, headers: { 'x-api-key': apiKey, accept: 'application/json' } }
}

/** Two samples taken at the same time on two servers, as one: req/s and counts summed. */
function combine(parts: LoadSample[]): LoadSample {
  const total = parts.reduce((a, s) => a + s.total, 0)
  const w = (k: keyof LoadSample) => parts.reduce((a, s) => a + s[k] * s.total, 0) / Math.max(1, total)
  const sum = (k: keyof LoadSample) => parts.reduce((a, s) => a + s[k], 0)
  const max = (k: keyof LoadSample) => Math.max(...parts.map((s) => s[k]))
  return {
    rps: sum('rps'),
    okRps: sum('okRps'),
    // autocannon gives percentiles, not histograms, per instance: p50 is the request-weighted mean of
    // the two p50s, p90/p99/max the larger of the two (conservative).
    latencyP50: w('latencyP50'),
    latencyP90: max('latencyP90'),
    latencyP99: max('latencyP99'),
    latencyMean: w('latencyMean'),
    latencyMax: max('latencyMax'),
    total,
    ok2xx: sum('ok2xx'),
    non2xx: sum('non2xx'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    durationS: max('durationS'),
    serverCpuMs: sum('serverCpuMs'),
    serverCpuUsPerReq: (sum('serverCpuMs') * 1000) / Math.max(1, total),
    // Both instances ran in this one process at the same time: each measured the whole process.
    loaderCpuMs: max('loaderCpuMs'),
    stderrLinesPerReq: w('stderrLinesPerReq'),
  }
}

/** The PostgreSQL target: reachable? Throws a clear error when not. */
export async function checkPostgres(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
  try {
    await client.connect()
    const r = await client.query<{ v: string }>('select version() as v')
    return r.rows[0].v
  } catch (err) {
    throw new Error(`PostgreSQL at ${redact(url)} did not answer (${(err as Error).message}); set FINCTL_BENCH_DATABASE_URL`)
  } finally {
    await client.end().catch(() => {})
  }
}

function dropSchemaSql(schema: string): string {
  return `SET lock_timeout = '10s'; DROP SCHEMA IF EXISTS ${schema} CASCADE`
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
  await client.connect()
  try {
    await client.query(dropSchemaSql(schema))
  } finally {
    await client.end().catch(() => {})
  }
}

/** The same drop, synchronously (for exit and signal handlers): a bounded `node -e` with pg. */
export function dropSchemaSync(root: string, url: string, schema: string): void {
  const code =
    `const pg=require('pg');const c=new pg.Client({connectionString:process.env.U,connectionTimeoutMillis:5000});` +
    `c.connect().then(()=>c.query(process.env.Q)).then(()=>c.end(),(e)=>{console.error(e.message);process.exitCode=1;return c.end()})`
  const r = spawnSync(process.execPath, ['-e', code], {
    cwd: root,
    env: { ...process.env, U: url, Q: dropSchemaSql(schema) },
    timeout: 20_000,
    encoding: 'utf8',
  })
  if (r.status !== 0) process.stderr.write(`pg: could not drop schema ${schema}: ${(r.stderr || r.error?.message || '').trim()}\n`)
  else process.stderr.write(`pg: dropped schema ${schema}\n`)
}

/** POST /api-v1/transactions/batch with `rows` deterministic transactions, `batchSize` per request. */
async function seed(server: ServerProcess, s: FinctlSetup, rows: number, batchSize: number): Promise<{ ms: number; rent: number }> {
  const t0 = performance.now()
  let rent = 0
  let batch: unknown[] = []
  const send = async () => {
    const res = await fetch(`${server.url}/api-v1/transactions/batch`, {
      method: 'POST',
      headers: { 'x-api-key': s.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ transactions: batch }),
      signal: AbortSignal.timeout(120_000),
    })
    const body = (await res.json()) as { data?: { created?: unknown[]; errors?: unknown[] } }
    if (res.status !== 201 || body.data?.errors?.length || body.data?.created?.length !== batch.length) {
      throw new Error(`${server.name}: batch seed answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`)
    }
    batch = []
  }
  for (const t of generateTransactions(20_240_101, rows)) {
    if (t.category === GET_FILTER.category) rent++
    batch.push({
      bank_account_id: s.accountId,
      transaction_date: t.date,
      description: t.description,
      amount: centsToDecimal(t.amountMinor),
      category: t.category,
      accounting_category: t.accounting,
      cash_flow_category: t.cashFlow,
      merchant_name: t.merchant,
      tags: t.tags,
    })
    if (batch.length >= batchSize) await send()
  }
  if (batch.length) await send()
  return { ms: performance.now() - t0, rent }
}

export async function runPgSection(root: string, cfg: PgConfig, log: (l: string) => void): Promise<PgSectionResult> {
  const base = process.env.FINCTL_BENCH_DATABASE_URL ?? DEFAULT_PG_URL
  const version = await checkPostgres(base)
  const schema = `bench_${randomBytes(8).toString('hex')}`
  const u = new URL(base)
  u.searchParams.set('schema', schema)
  const pgUrl = u.toString()
  const adminUrl = (() => {
    const a = new URL(base)
    a.searchParams.delete('schema')
    return a.toString()
  })()
  log(`pg: ${version.split(',')[0]} at ${redact(adminUrl)}; schema ${schema}`)
  // From here on the schema may exist: drop it whatever happens.
  let dropped = false
  const unregister = onCleanup(() => {
    if (!dropped) dropSchemaSync(root, adminUrl, schema)
  })

  const servers: ServerProcess[] = []
  const lines: string[] = []
  const extra: Record<string, unknown> = { schema, postgres: version, databaseUrl: redact(pgUrl) }
  try {
    const t0 = performance.now()
    const pgSetup = prepareFinctl(root, log, pgUrl)
    const sqliteSetup = prepareFinctl(root, log)
    const setupMs = performance.now() - t0
    const sqlite = await startFinctl(root, sqliteSetup)
    servers.push(sqlite)
    const pgA = await startFinctl(root, pgSetup)
    servers.push(pgA)
    const pgB = await startFinctl(root, pgSetup)
    servers.push(pgB)
    log(
      `pg: servers: SQLite ${sqlite.url} (pid ${sqlite.child.pid}); PostgreSQL ${pgA.url} (pid ${pgA.child.pid}) and ${pgB.url} (pid ${pgB.child.pid}); default --pool-size 10 each`,
    )

    const seeded = {
      sqlite: await seed(sqlite, sqliteSetup, cfg.seedRows, cfg.batchSize),
      pg: await seed(pgA, pgSetup, cfg.seedRows, cfg.batchSize),
    }
    log(
      `pg: seeded ${cfg.seedRows} transactions each (batches of ${cfg.batchSize}): SQLite ${seeded.sqlite.ms.toFixed(0)} ms, ` +
        `PostgreSQL ${seeded.pg.ms.toFixed(0)} ms; ${seeded.pg.rent} match category=${GET_FILTER.category}`,
    )
    extra.seed = {
      rows: cfg.seedRows,
      batchSize: cfg.batchSize,
      sqliteMs: Math.round(seeded.sqlite.ms),
      postgresMs: Math.round(seeded.pg.ms),
      matching: seeded.pg.rent,
      setupMs: Math.round(setupMs),
    }

    const reqs = {
      sqlite: { get: getRequest(sqliteSetup.apiKey), post: txRequest(sqliteSetup.apiKey, sqliteSetup.accountId) },
      pg: { get: getRequest(pgSetup.apiKey), post: txRequest(pgSetup.apiKey, pgSetup.accountId) },
    }
    // Fail fast on a broken set-up: every server answers both requests, and the filter matches the seed.
    for (const [srv, r] of [
      [sqlite, reqs.sqlite],
      [pgA, reqs.pg],
      [pgB, reqs.pg],
    ] as const) {
      const page = JSON.parse(await checkOnce(srv, r.get, 200)) as { data: { category: string }[]; pagination: { total: number } }
      if (
        page.pagination.total !== seeded.pg.rent ||
        page.data.length !== GET_FILTER.limit ||
        page.data.some((t) => t.category !== GET_FILTER.category)
      ) {
        throw new Error(`${srv.name} ${r.get.path}: total ${page.pagination.total} (want ${seeded.pg.rent}), ${page.data.length} rows`)
      }
    }

    const half = Math.max(1, Math.floor(cfg.connections / 2))
    const cores = cpus().length
    const runConfig = async (name: ConfigName, kind: 'get' | 'post', durationS: number): Promise<ConfigSample> => {
      const c0 = cpuSnapshot()
      let sample: LoadSample
      let parts: LoadSample[] | undefined
      if (name === 'sqlite') sample = await load(sqlite, reqs.sqlite[kind], durationS, cfg.connections)
      else if (name === 'pg1') sample = await load(pgA, reqs.pg[kind], durationS, cfg.connections)
      else {
        parts = await Promise.all([load(pgA, reqs.pg[kind], durationS, half), load(pgB, reqs.pg[kind], durationS, cfg.connections - half)])
        sample = combine(parts)
      }
      return { ...sample, cpu: cpuDelta(c0, cpuSnapshot(), cores), parts }
    }
    const label: Record<ConfigName, string> = {
      sqlite: 'SQLite, 1 process',
      pg1: 'PostgreSQL, 1 process',
      pg2: 'PostgreSQL, 2 processes',
    }
    const fmt = (s: ConfigSample) =>
      `${s.rps.toFixed(0)} req/s, p50 ${s.latencyP50.toFixed(0)} ms, p99 ${s.latencyP99} ms` +
      (s.parts ? ` (split ${s.parts.map((p) => p.rps.toFixed(0)).join(' + ')})` : '') +
      `; machine ${(100 * s.cpu.machineBusy).toFixed(0)}% busy, postgres ${((s.cpu.postgresMs / 1000 / s.durationS) * 100).toFixed(0)}% of a core` +
      (s.non2xx || s.errors || s.timeouts ? `; non-2xx ${s.non2xx}, errors ${s.errors}, timeouts ${s.timeouts}` : '')
    const pause = () => new Promise((r) => setTimeout(r, cfg.pauseMs))
    const order: ConfigName[] = ['sqlite', 'pg1', 'pg2']

    const figures: Figure[] = []
    const runs: Record<string, Record<ConfigName, ConfigSample[]>> = {}
    // GET first: POST rows carry no category, so the filtered GET's matches stay the same anyway.
    for (const kind of ['get', 'post'] as const) {
      const what =
        kind === 'get' ? `GET /api-v1/transactions?category=${GET_FILTER.category}&limit=${GET_FILTER.limit}` : 'POST /api-v1/transactions'
      log(
        `pg: ${what}: ${cfg.rounds} round(s) x ${cfg.durationS} s per configuration, ${cfg.connections} connections (${half}+${cfg.connections - half} on 2 processes)`,
      )
      if (cfg.warmupS > 0) {
        for (const name of order) {
          const w = await runConfig(name, kind, cfg.warmupS)
          log(`pg: ${kind} warm-up ${label[name]}: ${fmt(w)}`)
          await pause()
        }
      }
      const r: Record<ConfigName, ConfigSample[]> = { sqlite: [], pg1: [], pg2: [] }
      for (let i = 0; i < cfg.rounds; i++) {
        // Rotate which configuration goes first, so drift (table growth, checkpoints) spreads evenly.
        const seq = i % 2 === 0 ? order : [...order].reverse()
        for (const name of seq) {
          const s = await runConfig(name, kind, cfg.durationS)
          r[name].push(s)
          log(`pg: ${kind} round ${i + 1}/${cfg.rounds} ${label[name]}: ${fmt(s)}`)
          await pause()
        }
      }
      runs[kind] = r
      const id = `pg.${kind}`
      const short = kind === 'get' ? `GET ?category=${GET_FILTER.category}&limit=${GET_FILTER.limit}` : 'POST /api-v1/transactions'
      const notesFor = (xs: ConfigSample[]) => {
        const bad = xs.filter((s) => s.non2xx || s.errors || s.timeouts)
        return bad.length
          ? [
              `non-2xx ${bad.reduce((a, s) => a + s.non2xx, 0)}, errors ${bad.reduce((a, s) => a + s.errors, 0)}, timeouts ${bad.reduce((a, s) => a + s.timeouts, 0)} in ${bad.length} run(s)`,
            ]
          : []
      }
      for (const [metric, unit, key] of [
        ['req/s', 'req/s', 'rps'],
        ['latency p50', 'ms', 'latencyP50'],
        ['latency p99', 'ms', 'latencyP99'],
      ] as const) {
        const v = (n: ConfigName) => r[n].map((s) => s[key])
        figures.push(
          makeFigure({
            id: `${id}.pg1-vs-sqlite.${key}`,
            label: `${short} ${metric}: PG 1 proc`,
            unit,
            spread: 'min-max',
            value: v('pg1'),
            baselineLabel: 'SQLite 1 proc',
            baseline: v('sqlite'),
            notes: [...notesFor(r.pg1), ...notesFor(r.sqlite).map((n) => `SQLite: ${n}`)],
          }),
          makeFigure({
            id: `${id}.pg2-vs-pg1.${key}`,
            label: `${short} ${metric}: PG 2 procs`,
            unit,
            spread: 'min-max',
            value: v('pg2'),
            baselineLabel: 'PG 1 proc',
            baseline: v('pg1'),
            notes: notesFor(r.pg2),
          }),
        )
      }
      // Where the CPU went: the machine has few cores, and PostgreSQL and autocannon share them.
      for (const name of order) {
        const xs = r[name]
        const med = (f: (s: ConfigSample) => number) => summarize(xs.map(f)).median
        lines.push(
          `pg ${kind.toUpperCase().padEnd(4)} ${label[name].padEnd(24)} ${med((s) => s.rps)
            .toFixed(0)
            .padStart(6)} req/s  p50 ${med((s) => s.latencyP50)
            .toFixed(1)
            .padStart(5)} ms  p99 ${med((s) => s.latencyP99)
            .toFixed(0)
            .padStart(4)} ms | ` +
            `CPU per request: finctl ${med((s) => s.serverCpuUsPerReq).toFixed(0)} µs, postgres ${med((s) => (s.cpu.postgresMs * 1000) / Math.max(1, s.total)).toFixed(0)} µs; ` +
            `machine ${(100 * med((s) => s.cpu.machineBusy)).toFixed(0)}% busy (${med((s) => s.cpu.busyCores).toFixed(2)} of ${cores} cores), ` +
            `autocannon ${(100 * med((s) => s.loaderCpuMs / (s.durationS * 1000))).toFixed(0)}% of a core` +
            (name === 'pg2' ? `; split ${xs.map((s) => (s.parts ?? []).map((p) => p.rps.toFixed(0)).join('+')).join(', ')}` : ''),
        )
      }
    }
    const ratio = (kind: 'get' | 'post', a: ConfigName, b: ConfigName) =>
      summarize(runs[kind][a].map((s) => s.rps)).median / summarize(runs[kind][b].map((s) => s.rps)).median
    lines.push(
      `pg ratios (req/s): GET  PG1/SQLite ${ratio('get', 'pg1', 'sqlite').toFixed(2)}x, PG2/PG1 ${ratio('get', 'pg2', 'pg1').toFixed(2)}x; ` +
        `POST PG1/SQLite ${ratio('post', 'pg1', 'sqlite').toFixed(2)}x, PG2/PG1 ${ratio('post', 'pg2', 'pg1').toFixed(2)}x`,
      `pg: ${cores} CPU(s); PostgreSQL, both finctl processes and autocannon share them, so a second process cannot add CPU that is not there.`,
    )
    extra.runs = runs
    // Usage reads beside GET /api-v1/company: one process, then both on the one schema.
    const one = await measureUsageReads([pgA], pgSetup.apiKey, pgSetup.accountId, cfg.usageReadRounds, 'pg.usage1', 'PG 1 proc')
    const two = await measureUsageReads([pgA, pgB], pgSetup.apiKey, pgSetup.accountId, cfg.usageReadRounds, 'pg.usage2', 'PG 2 procs')
    figures.push(...one.figures, ...two.figures)
    extra.usageReads = { pg1: one.p50, pg2: two.p50 }
    return { figures, lines, extra }
  } finally {
    const stopped = await Promise.all(servers.map((s) => s.stop()))
    stopped.forEach((st, i) => {
      if (st.forced) log(`pg: ${servers[i].name} did not stop within 10 s of SIGTERM; killed`)
    })
    try {
      await dropSchema(adminUrl, schema)
      dropped = true
      unregister()
      log(`pg: dropped schema ${schema}`)
    } catch (err) {
      log(`pg: DROP SCHEMA ${schema} failed (${(err as Error).message}); retrying at exit`)
    }
  }
}

/**
 * Figure 2: server throughput. `finctl serve` on a prepared SQLite database beside a bare
 * node:http + better-sqlite3 server (bench/bare-server.mjs), both loaded with autocannon.
 */
import autocannon, { type Result } from 'autocannon'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanEnv, makeTempDir, runTimed, startServer, type ServerProcess } from './children.js'
import { Transaction } from '../../src/domain/schemas.js'

export interface FinctlSetup {
  configDir: string
  env: NodeJS.ProcessEnv
  database: string
  apiKey: string
  accountId: string
  /** Rate limits the bench key was created with. */
  limits: { perMinute: number; perDay: number }
}

// The brief asked for 100000000 per minute, but the API caps `rate_limit_per_minute` at 1,000,000
// (CreateApiKeyRequest in src/domain/schemas.ts), so the key gets the largest allowed values.
// 1,000,000 per minute is 16,666 req/s sustained over a whole minute: far above what one core does.
export const BENCH_KEY_LIMITS = { perMinute: 1_000_000, perDay: 100_000_000 }

/**
 * `finctl init`, a bench key with (almost) no rate limit and a bank account, in a temp config dir.
 * `database`: a SQLite path or postgres:// URL to init instead of the default `finctl.db` in that dir
 * (the profile remembers it, so `keys create` and `accounts create` use it too).
 */
export function prepareFinctl(root: string, log: (l: string) => void, database?: string): FinctlSetup {
  const node = process.execPath
  const bin = join(root, 'bin', 'finctl.cjs')
  const configDir = makeTempDir('serve')
  const env = cleanEnv({ FINCTL_CONFIG_DIR: configDir })
  const run = (...args: string[]) => runTimed(node, [bin, ...args], { cwd: configDir, env, timeoutMs: 60_000 }).stdout
  log(`serve: FINCTL_CONFIG_DIR=${configDir}; init${database ? ` --database ${redact(database)}` : ''}, keys create, accounts create`)
  run('init', '--no-input', ...(database ? ['--database', database] : []))
  const key = JSON.parse(
    run(
      'keys',
      'create',
      '--name',
      'bench',
      '--scopes',
      'read,write,transactions',
      '--rate-limit-per-minute',
      String(BENCH_KEY_LIMITS.perMinute),
      '--rate-limit-per-day',
      String(BENCH_KEY_LIMITS.perDay),
      '--json',
    ),
  ) as { key?: string }
  if (typeof key.key !== 'string') throw new Error('keys create --json printed no .key')
  const account = JSON.parse(run('accounts', 'create', '--name', 'B', '--type', 'checking', '--currency', 'USD', '--json')) as {
    id?: string
  }
  if (typeof account.id !== 'string') throw new Error('accounts create --json printed no .id')
  return {
    configDir,
    env,
    database: database ?? join(configDir, 'finctl.db'),
    apiKey: key.key,
    accountId: account.id,
    limits: BENCH_KEY_LIMITS,
  }
}

/** A database target for logs: a URL without its password. */
export function redact(target: string): string {
  try {
    const u = new URL(target)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return target
  }
}

export function startFinctl(root: string, s: FinctlSetup, nodeArgs: string[] = []): Promise<ServerProcess> {
  const bin = join(root, 'bin', 'finctl.cjs')
  return startServer(
    'finctl serve',
    process.execPath,
    [...nodeArgs, bin, 'serve', '--host', '127.0.0.1', '--port', '0', '--database', s.database],
    { cwd: s.configDir, env: s.env, timeoutMs: 20_000, logDir: s.configDir },
  )
}

/**
 * The baseline inserts into a database that finctl itself created (its own `finctl init` and bank
 * account, in another temp folder), so both servers write the same row into the same table,
 * indexes and foreign keys.
 */
export function startBare(root: string, s: FinctlSetup, nodeArgs: string[] = []): Promise<ServerProcess> {
  const dir = s.configDir
  return startServer(
    'bare server',
    process.execPath,
    [
      ...nodeArgs,
      join(root, 'bench', 'bare-server.mjs'),
      ...['--database', s.database, '--account', s.accountId, '--port', '0'],
      // One list of a transaction's public fields: a field added to the API reaches the baseline too.
      ...['--fields', Object.keys(Transaction.shape).join(',')],
    ],
    {
      cwd: dir,
      env: cleanEnv(),
      timeoutMs: 20_000,
      logDir: dir,
    },
  )
}

export interface HttpRequestSpec {
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
}

export function txRequest(apiKey: string, accountId: string): HttpRequestSpec {
  return {
    method: 'POST',
    path: '/api-v1/transactions',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ bank_account_id: accountId, transaction_date: '2026-11-20', description: 'bench', amount: '-12.34' }),
  }
}

export const healthRequest: HttpRequestSpec = { method: 'GET', path: '/healthz', headers: {} }

/** One request with fetch; throws unless the status is `expect` (so a broken setup fails fast and loudly). */
export async function checkOnce(server: ServerProcess, req: HttpRequestSpec, expect: number): Promise<string> {
  const res = await fetch(server.url + req.path, {
    method: req.method,
    headers: req.headers,
    body: req.body,
    signal: AbortSignal.timeout(10_000),
  })
  const text = await res.text()
  if (res.status !== expect)
    throw new Error(`${server.name} ${req.method} ${req.path}: expected ${expect}, got ${res.status}: ${text.slice(0, 500)}`)
  return text
}

export interface LoadSample {
  /** autocannon's mean of per-second request counts. */
  rps: number
  /** Responses with a 2xx status per second of the run. */
  okRps: number
  latencyP50: number
  latencyP90: number
  latencyP99: number
  latencyMean: number
  latencyMax: number
  total: number
  ok2xx: number
  non2xx: number
  errors: number
  timeouts: number
  durationS: number
  /** CPU time (user + system) the server process used during the run, in ms; NaN where /proc is missing. */
  serverCpuMs: number
  /** Server CPU per answered request, in µs. */
  serverCpuUsPerReq: number
  /** CPU the load generator (this process, autocannon) used during the run, in ms. */
  loaderCpuMs: number
  /** Lines the server wrote on stderr per request during the run (1 = an access-log line each). */
  stderrLinesPerReq: number
}

/** utime + stime of a process in ms, from /proc (Linux; clock ticks assumed 100 Hz). */
function processCpuMs(pid: number | undefined): number {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return Number.NaN
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}

/** autocannon for `durationS` seconds; bounded by a watchdog that stops it if it overruns. */
export async function load(server: ServerProcess, req: HttpRequestSpec, durationS: number, connections: number): Promise<LoadSample> {
  server.assertAlive()
  const cpu0 = processCpuMs(server.child.pid)
  const lines0 = server.stderrLines()
  const own0 = process.cpuUsage()
  const instance = autocannon({
    url: server.url + req.path,
    method: req.method,
    headers: req.headers,
    body: req.body,
    connections,
    duration: durationS,
    timeout: 10,
  })
  let watchdog: NodeJS.Timeout | undefined
  const overrun = new Promise<never>((_, reject) => {
    watchdog = setTimeout(
      () => {
        instance.stop()
        reject(new Error(`autocannon against ${server.name} did not finish within ${durationS + 30} s`))
      },
      (durationS + 30) * 1000,
    )
  })
  let r: Result
  try {
    r = await Promise.race([Promise.resolve(instance), overrun])
  } finally {
    clearTimeout(watchdog)
  }
  // A server that died during the run makes its figures meaningless: fail rather than report them.
  server.assertAlive()
  const own = process.cpuUsage(own0)
  const serverCpuMs = processCpuMs(server.child.pid) - cpu0
  return {
    rps: r.requests.average,
    okRps: r['2xx'] / r.duration,
    latencyP50: r.latency.p50,
    latencyP90: r.latency.p90,
    latencyP99: r.latency.p99,
    latencyMean: r.latency.average,
    latencyMax: r.latency.max,
    total: r.requests.total,
    ok2xx: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    durationS: r.duration,
    serverCpuMs,
    serverCpuUsPerReq: (serverCpuMs * 1000) / Math.max(1, r.requests.total),
    loaderCpuMs: (own.user + own.system) / 1000,
    stderrLinesPerReq: (server.stderrLines() - lines0) / Math.max(1, r.requests.total),
  }
}

export interface PairedRuns {
  subject: LoadSample[]
  baseline: LoadSample[]
}

/**
 * `rounds` paired runs of subject and baseline, alternating which goes first (ABBA…), after one
 * discarded warm-up run of each. Pauses `pauseMs` between runs so that background work (finctl's
 * batched usage writes, WAL checkpoints) does not spill into the next run.
 */
export async function pairedLoad(
  subject: ServerProcess,
  subjectReq: HttpRequestSpec,
  baseline: ServerProcess,
  baselineReq: HttpRequestSpec,
  o: { rounds: number; durationS: number; warmupS: number; connections: number; pauseMs: number; log: (l: string) => void; label: string },
): Promise<PairedRuns> {
  const pause = () => new Promise((r) => setTimeout(r, o.pauseMs))
  const fmt = (s: LoadSample) =>
    `${s.rps.toFixed(0)} req/s, p50 ${s.latencyP50} ms, p99 ${s.latencyP99} ms${s.non2xx || s.errors ? `, non-2xx ${s.non2xx}, errors ${s.errors}` : ''}`
  if (o.warmupS > 0) {
    for (const [srv, req] of [
      [subject, subjectReq],
      [baseline, baselineReq],
    ] as const) {
      const w = await load(srv, req, o.warmupS, o.connections)
      o.log(`${o.label}: warm-up ${srv.name}: ${fmt(w)}`)
      await pause()
    }
  }
  const out: PairedRuns = { subject: [], baseline: [] }
  for (let i = 0; i < o.rounds; i++) {
    const order = i % 2 === 0 ? (['subject', 'baseline'] as const) : (['baseline', 'subject'] as const)
    for (const which of order) {
      const srv = which === 'subject' ? subject : baseline
      const s = await load(srv, which === 'subject' ? subjectReq : baselineReq, o.durationS, o.connections)
      out[which].push(s)
      o.log(`${o.label}: round ${i + 1}/${o.rounds} ${srv.name}: ${fmt(s)}`)
      await pause()
    }
  }
  return out
}

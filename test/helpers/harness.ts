/**
 * Runs the same API suite through both transports: the embedded core (app.fetch, no socket) and
 * a real `finctl serve` process on 127.0.0.1 (a random free port), on SQLite or PostgreSQL: the
 * worker's shared one of each (`createHarness`), or a fresh one for a test that asks for its own.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { SignJWT } from 'jose'
import { sql } from 'kysely'
import { Client, type FetchLike } from '../../src/client/client.js'
import { openEmbedded } from '../../src/embedded/embedded.js'
import { openRemote } from '../../src/client/remote.js'
import { bootstrapCompany } from '../../src/domain/accounts/companies.js'
import { signSession } from '../../src/domain/api-keys/auth.js'
import { openStore } from '../../src/store/open-store.js'
import type { Store } from '../../src/store/store.js'
import type { App } from '../../src/api/app.js'
import { SHARED_SERVE_PIDS } from './shared-serves.js'

export type TransportKind = 'embedded' | 'http'
export const TRANSPORTS: TransportKind[] = ['embedded', 'http']
export type StoreKind = 'sqlite' | 'postgres'

export const TEST_DATABASE_URL = process.env.FINCTL_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** PostgreSQL is used when it answers; under CI=true a missing database fails the run instead. */
async function postgresAvailable(): Promise<boolean> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch (err) {
    if (process.env.CI === 'true')
      throw new Error(`PostgreSQL is required under CI=true but ${TEST_DATABASE_URL} did not answer: ${(err as Error).message}`)
    process.stderr.write(`note: PostgreSQL at ${TEST_DATABASE_URL} did not answer; store tests run on SQLite only\n`)
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

export const STORES: StoreKind[] = (await postgresAvailable()) ? ['sqlite', 'postgres'] : ['sqlite']
/** Every transport on every store. */
export const MATRIX: Array<[TransportKind, StoreKind]> = TRANSPORTS.flatMap((t) => STORES.map((s): [TransportKind, StoreKind] => [t, s]))

/**
 * A fresh PostgreSQL schema for one harness. The name is random: pid and clock are not unique
 * enough when several runs (CI containers with the same pids, a VM clock that jumps) share one
 * server, and another run's drop would take this run's tables with it. Within a test run the
 * name starts with the run's prefix (test/global-setup.ts), and the run drops its schemas when it
 * ends: a schema dropped while another test file opens its store made kysely's Migrator fail (it
 * reads the tables of every schema, by name, before migrating: `schema "t_..." does not exist`).
 * `drop` is then a no-op; outside a run (a script using the harness) it drops at once.
 */
export async function freshPostgres(o: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const prefix = process.env.FINCTL_TEST_SCHEMA_PREFIX
  const schema = `${prefix ?? 't_'}${randomBytes(8).toString('hex')}`
  const u = new URL(TEST_DATABASE_URL)
  u.searchParams.set('schema', schema)
  if (o.migrated) await copyPostgresTemplate(schema)
  return {
    url: u.toString(),
    drop: async () => {
      if (prefix) return
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
      await client.connect()
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      } finally {
        await client.end()
      }
    },
  }
}

/**
 * A fresh SQLite file at `file`: the run's migrated database (made once by test/global-setup.ts) copied,
 * with a JWT secret of its own, as its own migration would have made it: migrating each harness's file
 * was most of its set-up (docs/performance.md, "The test suite's time"). Outside a test run (no
 * template) nothing is made: the store migrates the file when it opens it.
 */
export async function freshSqlite(file: string): Promise<void> {
  const template = process.env.FINCTL_TEST_SQLITE_TEMPLATE
  if (!template) return
  copyFileSync(template, file)
  const { default: Database } = await import('better-sqlite3')
  const db = new Database(file)
  try {
    db.prepare("UPDATE settings SET value = ? WHERE key = 'jwt_secret'").run(randomBytes(32).toString('base64url'))
  } finally {
    db.close()
  }
}

/**
 * `migrated`: the schema made from the run's migrated one (test/global-setup.ts dumped it with pg_dump)
 * with a JWT secret of its own, instead of the store migrating an empty one when it opens it, which
 * cost several times as much. Without a template (outside a run, no pg_dump) the store migrates.
 */
async function copyPostgresTemplate(schema: string): Promise<void> {
  const file = process.env.FINCTL_TEST_PG_TEMPLATE
  const name = process.env.FINCTL_TEST_PG_TEMPLATE_SCHEMA
  if (!file || !name) return
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await client.connect()
  try {
    await client.query(readFileSync(file, 'utf8').replaceAll(name, schema))
    await client.query(`UPDATE ${schema}.settings SET value = $1 WHERE key = 'jwt_secret'`, [randomBytes(32).toString('base64url')])
  } finally {
    await client.end()
  }
}

export const ROOT = resolve(import.meta.dirname, '../..')
export const BIN = join(ROOT, 'bin', 'finctl.cjs')

export interface Tenant {
  companyId: string
  email: string
  password: string
  token: string
  /** A key with read, write and transactions scopes. */
  key: string
  keyId: string
  accountId: string
}

export interface Harness {
  kind: TransportKind
  storeKind: StoreKind
  baseUrl: string
  fetch: FetchLike
  dir: string
  database: string
  /** The store, for test set-up only (another connection to the same file for http). */
  store: Store
  /** The embedded core's app, for a test that calls into it directly (none over http). */
  app?: App
  client(creds?: { apiKey?: string; token?: string }): Client
  /** Raw request, for cases the typed client does not make (bad JSON, odd headers). */
  raw(method: string, path: string, init?: { headers?: Record<string, string>; body?: string }): Promise<Response>
  tenant(name?: string): Promise<Tenant>
  /**
   * Stop the service (usage records reach the database first: embedded, the recorder; http, a usage
   * read does it), then remove its files unless `keepFiles` (the caller removes `dir` then).
   */
  close(o?: { keepFiles?: boolean }): Promise<void>
}

let counter = 0

export async function startServeProcess(
  database: string,
  extraEnv: Record<string, string> = {},
  extraArgs: string[] = [],
  folderPrefix = 'finctl-serve-',
): Promise<{ url: string; child: ChildProcess }> {
  const configDir = mkdtempSync(join(tmpdir(), folderPrefix))
  // Small pools: parallel test files share one PostgreSQL server.
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--database', database, '--pool-size', '4', ...extraArgs], {
    env: {
      ...process.env,
      XDG_CACHE_HOME: process.env.FINCTL_TEST_CACHE_HOME,
      FINCTL_CONFIG_DIR: configDir,
      FINCTL_KEYRING: 'off',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  // The config folder is the process's own: it goes when the process does (stopProcess waits for that).
  child.once('exit', () => rmSync(configDir, { recursive: true, force: true }))
  const url = await new Promise<string>((resolveUrl, reject) => {
    let err = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL') // leave no server (nor its config folder) behind
      reject(new Error(`finctl serve did not start: ${err}`))
    }, 60_000)
    child.stderr!.on('data', (d: Buffer) => {
      // SHOW_SERVE=1: the server's log and an internal error's stack beside the test's output.
      if (process.env.SHOW_SERVE) process.stderr.write(d)
      err += d.toString()
      const m = /listening on (http:\/\/\S+)/.exec(err)
      if (m) {
        clearTimeout(timer)
        resolveUrl(m[1])
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`finctl serve exited with ${code}: ${err}`))
    })
  })
  return { url, child }
}

export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode
  return new Promise((res) => {
    child.once('exit', (code) => res(code))
    child.kill(signal)
  })
}

export interface HarnessOptions {
  /** More environment of the `finctl serve` process (http only: the embedded core reads this process's). */
  env?: Record<string, string>
  /** More flags of the `finctl serve` process. */
  args?: string[]
  /**
   * A service of the test's own, stopped and removed by `close`, instead of the worker's shared one:
   * for a test that needs an empty store, counts rows of every company, keeps the files, or stops it.
   */
  own?: boolean
}

/**
 * A service on a store, its store for set-up, and clients of it. Within a test run, without `env`,
 * `args` or `own`, it is the worker's shared one of that transport and store (a test file after
 * another, each with companies of its own from `tenant`): `close` gives it back. Making one was
 * most of a matrix file's time outside its tests (docs/performance.md, "The test suite's time").
 */
export async function createHarness(kind: TransportKind, storeKind: StoreKind = 'sqlite', o: HarnessOptions = {}): Promise<Harness> {
  // A setting of finctl the test put in this process's environment: the service starts with it (the embedded core reads it).
  const settings = finctlSettings() !== WORKER_SETTINGS
  if (o.own || o.env || o.args || settings || !process.env.FINCTL_TEST_SCHEMA_PREFIX) return makeHarness(kind, storeKind, o)
  const pool = sharedHarnesses()
  const key = `${kind} ${storeKind}`
  let entry = pool.get(key)?.find((p) => !p.busy)
  if (!entry) {
    const harness = await makeHarness(kind, storeKind, o, true)
    entry = { harness, busy: false, schema: await schemaOf(harness.store) }
    pool.set(key, [...(pool.get(key) ?? []), entry])
  }
  const shared = entry
  shared.busy = true
  let given = false
  return {
    ...shared.harness,
    async close(c = {}) {
      if (c.keepFiles) throw new Error('a shared harness keeps no files for its test: createHarness(kind, store, { own: true })')
      if (given) return
      given = true
      // A test that changed the store's tables, indexes or triggers needs a store of its own: the later files would test another schema.
      if ((await schemaOf(shared.harness.store)) !== shared.schema) {
        pool.set(
          key,
          (pool.get(key) ?? []).filter((p) => p !== shared),
        )
        await shared.harness.close()
        throw new Error(`the test changed the schema of the worker's shared ${key} store: createHarness(kind, store, { own: true })`)
      }
      shared.busy = false
    },
  }
}

const finctlSettings = () =>
  Object.entries(process.env)
    .filter(([name]) => name.startsWith('FINCTL_'))
    .sort()
    .join('\n')
/** As the run set them, before a test file could change them. */
const WORKER_SETTINGS = finctlSettings()

interface SharedHarness {
  harness: Harness
  busy: boolean
  /** Its tables, indexes and triggers when it was made. */
  schema: string
}

async function schemaOf(store: Store): Promise<string> {
  const q =
    store.dialect === 'postgres'
      ? sql<{
          name: string
        }>`SELECT c.relkind::text || ':' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() UNION ALL SELECT 't:' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND NOT t.tgisinternal ORDER BY 1`
      : sql<{ name: string }>`SELECT type || ':' || name AS name FROM sqlite_master ORDER BY 1`
  return (await q.execute(store.db)).rows.map((r) => r.name).join(',')
}

const SHARED = Symbol.for('finctl.test.harness.shared')
/** The worker's shared harnesses (one module graph, but a symbol in case a file gets its own copy). */
function sharedHarnesses(): Map<string, SharedHarness[]> {
  const g = globalThis as { [SHARED]?: Map<string, SharedHarness[]> }
  g[SHARED] ??= new Map()
  return g[SHARED]
}

const OUTLIVES = Symbol.for('finctl.test.leftovers.outlives')
/** A process or folder the worker keeps for its later files: not the current file's (test/helpers/leftovers.ts). */
function outlivesFile(made: { child?: ChildProcess; folder?: string }): void {
  ;(globalThis as { [OUTLIVES]?: (m: typeof made) => void })[OUTLIVES]?.(made)
}

async function makeHarness(kind: TransportKind, storeKind: StoreKind, o: HarnessOptions, shared = false): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), shared ? `shared-${kind}-` : `finctl-${kind}-`))
  if (shared) outlivesFile({ folder: dir })
  const closers: Array<() => Promise<unknown>> = []
  let database = join(dir, 'finctl.db')
  if (storeKind === 'postgres') {
    const pgdb = await freshPostgres({ migrated: true })
    database = pgdb.url
    closers.push(pgdb.drop)
  } else await freshSqlite(database)
  let fetch: FetchLike
  let baseUrl: string
  let store: Store
  let app: App | undefined
  try {
    if (kind === 'embedded') {
      const t = await openEmbedded(database, { poolSize: 4 })
      closers.unshift(t.close)
      fetch = t.fetch
      baseUrl = 'http://finctl.embedded'
      store = t.core.store
      app = t.core.app
    } else {
      // Create the database first so the server and this test see the same migrations.
      store = await openStore(database, { poolSize: 2 })
      closers.unshift(() => store.close())
      const { url, child } = await startServeProcess(database, o.env, o.args, shared ? 'shared-serve-' : undefined)
      closers.unshift(() => stopProcess(child))
      if (shared) {
        outlivesFile({ child })
        // The worker may end first: the run's teardown ends the process by its pid then.
        const pids = join(tmpdir(), SHARED_SERVE_PIDS)
        mkdirSync(pids, { recursive: true })
        writeFileSync(join(pids, String(child.pid)), '')
        child.unref()
        ;(child.stderr as { unref?: () => void } | null)?.unref?.()
      }
      const r = openRemote()
      closers.unshift(r.close)
      fetch = r.fetch
      baseUrl = url
    }
  } catch (err) {
    // Half set up: undo what was done (the test gets the first error), leaving no files behind.
    for (const c of closers)
      await Promise.resolve()
        .then(c)
        .catch(() => {})
    rmSync(dir, { recursive: true, force: true })
    throw err
  }
  const h: Harness = {
    kind,
    storeKind,
    baseUrl,
    fetch,
    dir,
    database,
    store,
    app,
    client: (creds = {}) => new Client({ baseUrl, fetch, maxRetries: 0, ...creds }),
    raw: (method, path, init = {}) => fetch(baseUrl + path, { method, headers: init.headers, body: init.body }),
    async tenant(name = 'Acme') {
      const n = ++counter
      // Unique in a store the worker shares between files, whichever copy of this module made it.
      const email = `owner${n}-${randomBytes(4).toString('hex')}@${kind}.test`
      const password = 'correct horse battery'
      const { company, user } = await bootstrapCompany(store, { name: `${name} ${n}`, baseCurrency: 'USD', email, password }, new Date())
      // The session a login would give, without a login: a shared service's logins from this address
      // would reach their limit a minute (test/api/login.test.ts logs in).
      const token = (await signSession(store, { id: user.id, company_id: company.id, role: 'owner' }, new Date())).access_token
      // A high limit: suites make many requests with this key (rate-limit tests make their own keys).
      const created = await h.client({ token }).keys.create({
        name: 'all',
        scopes: ['read', 'write', 'transactions'],
        rate_limit_per_minute: 1_000_000,
        rate_limit_per_day: 100_000_000,
      })
      const account = await h
        .client({ apiKey: created.key })
        .accounts.create({ name: 'Operating', account_type: 'checking', currency_code: 'USD' })
      return { companyId: company.id, email, password, token, key: created.key, keyId: created.id, accountId: account.id }
    },
    async close(o = {}) {
      for (const c of closers) await c()
      if (!o.keepFiles) rmSync(dir, { recursive: true, force: true })
    },
  }
  return h
}

/** A JWT signed with the installation's secret, for tests of scopes and expiry. */
export async function signToken(store: Store, claims: { sub: string; cid: string; scopes: string[] }, expSeconds: number): Promise<string> {
  const row = await store.db.selectFrom('settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow()
  const iat = Math.floor(Date.now() / 1000)
  return new SignJWT({ cid: claims.cid, scopes: claims.scopes })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setIssuer('finctl')
    .setIssuedAt(iat)
    .setExpirationTime(iat + expSeconds)
    .sign(new TextEncoder().encode(row.value))
}

/**
 * Run `attempt` inside one calendar minute (the rate limits' window): again, from a clean slate the
 * attempt makes itself (a new key, cleared counters), when a minute ended meanwhile. The server reads
 * the same clock between the two readings here, so an attempt that began and ended in one minute was
 * counted in one window. Nothing waits for a minute's edge; a third attempt is returned as it is.
 */
export async function inOneMinute<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    const minute = Math.floor(Date.now() / 60_000)
    const out = await attempt()
    if (Math.floor(Date.now() / 60_000) === minute || tries === 3) return out
  }
}

/**
 * Once per test run, in vitest's main process, before any test file starts:
 *
 * - The bank-file corpus (test/helpers/bank-files.ts): when it is missing, say so in one line (its
 *   tests skip themselves); under CI=true fail the run instead.
 * - Build the CLI bundle, so the spawned `finctl` always matches the source (kept when its inputs
 *   did not change since it was built: `build.mjs --if-changed`). The threads and child processes
 *   that in-process tests start load their module's chunk of it (FINCTL_TEST_THREADS names
 *   dist/threads.json; src/worker-entry.ts), not the TypeScript sources through tsx anew each time.
 * - Give the run its own temporary folder: TMPDIR points into it for every test worker and every
 *   process they spawn (they inherit the environment). When the run ends, anything named finctl-*
 *   still in it was left behind by a test (or by the code under test) and fails the run, naming
 *   it; then the folder goes, whatever it holds.
 * - A cache folder there (XDG_CACHE_HOME) that every finctl the tests start shares: the launcher's
 *   code cache warm after a command's first run (the code cache's own tests keep theirs).
 * - Migrate one SQLite database there and one PostgreSQL schema, which the harness copies for each
 *   of its stores (test/helpers/harness.ts freshSqlite, freshPostgres) instead of migrating each.
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { TestProject } from 'vitest/node'
import { CI_ERROR, HAS_BANK_FILES, SKIP_NOTE } from './helpers/bank-files.js'
import { SHARED_SERVE_PIDS } from './helpers/shared-serves.js'

/** What a test may not leave in the temporary folder. */
const LEAK = /^finctl-/

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!HAS_BANK_FILES) {
    if (process.env.CI === 'true') throw new Error(CI_ERROR)
    process.stderr.write(`${SKIP_NOTE}\n`)
  }

  const build = () =>
    execFileSync(process.execPath, [resolve(import.meta.dirname, '../scripts/build.mjs'), '--if-changed'], {
      stdio: 'inherit',
      cwd: resolve(import.meta.dirname, '..'),
    })
  build()
  process.env.FINCTL_TEST_THREADS = resolve(import.meta.dirname, '../dist/threads.json')
  // Watch mode: a rerun builds what changed first, so that neither the spawned CLI nor a thread runs
  // the sources as they were.
  project.onTestsRerun(async () => {
    build()
  })

  const before = process.env.TMPDIR
  const runTmp = mkdtempSync(join(tmpdir(), 'finctl-test-run-'))
  process.env.TMPDIR = runTmp
  // One code cache for the run's CLI processes (test/helpers/cli.ts), as a user's is shared by their
  // commands: a sandbox's first command no longer compiles the bundle cold.
  process.env.FINCTL_TEST_CACHE_HOME = join(runTmp, 'cache')
  // The PostgreSQL schemas of this run (test/helpers/harness.ts freshPostgres), dropped at its end.
  const schemaPrefix = `t_${randomBytes(4).toString('hex')}_`
  process.env.FINCTL_TEST_SCHEMA_PREFIX = schemaPrefix
  const { openStore } = await import('../src/store/open-store.js')
  const template = join(runTmp, 'sqlite-template.db')
  await (await openStore(template)).close()
  process.env.FINCTL_TEST_SQLITE_TEMPLATE = template
  await postgresTemplate(runTmp, schemaPrefix)

  return async function teardown(): Promise<void> {
    await endSharedServes(runTmp)
    await dropSchemas(schemaPrefix)
    if (before === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = before
    let left: string[]
    try {
      left = readdirSync(runTmp).sort()
    } finally {
      rmSync(runTmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    }
    // Other names are the caches of tools (tsx-UID, the TypeScript loader of worker threads): not ours.
    const leaks = left.filter((name) => LEAK.test(name))
    if (leaks.length > 0) {
      throw new Error(
        `the tests left ${leaks.length} finctl-* entr${leaks.length === 1 ? 'y' : 'ies'} in the run's temporary folder ${runTmp} (removed now): ${leaks.join(', ')}. ` +
          'Each test must remove the temporary folders and files it (or the code it runs) creates: afterAll, finally, or the helper that made them.',
      )
    }
  }
}

/**
 * Migrate one PostgreSQL schema of the run and dump it (pg_dump, as SQL without psql's commands) for
 * the harness to replay for each of its stores (test/helpers/harness.ts freshPostgres). Without
 * PostgreSQL or pg_dump there is no template, and each store migrates its own schema.
 */
async function postgresTemplate(runTmp: string, prefix: string): Promise<void> {
  const url = new URL(process.env.FINCTL_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
  const schema = `${prefix}template`
  let dump: string
  try {
    const { openStore } = await import('../src/store/open-store.js')
    url.searchParams.set('schema', schema)
    await (await openStore(url.toString(), { poolSize: 2 })).close()
    url.searchParams.delete('schema')
    dump = execFileSync('pg_dump', ['--dbname', url.toString(), '--schema', schema, '--inserts', '--no-owner', '--no-privileges'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
  } catch (err) {
    process.stderr.write(`note: no PostgreSQL template (${(err as Error).message.split('\n')[0]}): each test schema migrates itself\n`)
    return
  }
  const file = join(runTmp, 'postgres-template.sql')
  writeFileSync(
    file,
    dump
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n'),
  )
  process.env.FINCTL_TEST_PG_TEMPLATE = file
  process.env.FINCTL_TEST_PG_TEMPLATE_SCHEMA = schema
}

/**
 * End the `finctl serve` processes of the workers' shared harnesses (test/helpers/harness.ts), which
 * outlive their workers, and wait for them to go, so that their files and schemas can.
 */
async function endSharedServes(runTmp: string): Promise<void> {
  let pids: number[]
  try {
    pids = readdirSync(join(runTmp, SHARED_SERVE_PIDS)).map(Number)
  } catch {
    return
  }
  // Still running, and still a finctl (not another process given the pid since).
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0)
    } catch {
      return false
    }
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('finctl')
    } catch {
      return process.platform !== 'linux'
    }
  }
  for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL')
  for (let waited = 0; waited < 5000 && pids.some(alive); waited += 50) await new Promise((r) => setTimeout(r, 50))
}

/** Drop the PostgreSQL schemas whose name starts with `prefix` (none when PostgreSQL is not there). */
async function dropSchemas(prefix: string): Promise<void> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({
    connectionString: process.env.FINCTL_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    connectionTimeoutMillis: 3000,
  })
  try {
    await client.connect()
  } catch {
    return
  }
  try {
    const { rows } = await client.query<{ name: string }>('SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1)', [
      prefix,
    ])
    for (const { name } of rows) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`)
  } finally {
    await client.end()
  }
}

/**
 * kill -9 of a `finctl serve` during `POST /imports/{id}/apply` of a large pending batch and during
 * `POST /imports/{id}/revert` of a large batch, on SQLite and on PostgreSQL, then a new serve on the
 * same database: the same request again converges. Apply leaves every row exactly once and the batch
 * `completed` with every row counted as created; revert is one transaction, so the kill leaves all of
 * the batch's rows or none, and the second revert removes them all, with `finctl verify` intact.
 * (imports-kill.test.ts kills the CLI's embedded service instead.)
 */
import Database from 'better-sqlite3'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client.js'
import { openRemote } from '../../src/client/remote.js'
import { fastKey, Sandbox, type ServeProcess, startServe } from '../helpers/cli.js'
import { freshPostgres, STORES, TEST_DATABASE_URL } from '../helpers/harness.js'

const ROWS = 20_000

function bigFile(path: string, n: number, tag: string): void {
  const lines = ['Date,Text,Amount']
  for (let i = 0; i < n; i++)
    lines.push(
      `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},${tag} ${i},-${(i % 900) + 1}.${String(i % 100).padStart(2, '0')}`,
    )
  writeFileSync(path, `${lines.join('\n')}\n`)
}

describe.each(STORES)('kill -9 of finctl serve during apply and revert on %s', (kind) => {
  let sb: Sandbox
  let database: string
  let key: string
  let server: ServeProcess | undefined
  let dropSchema: (() => Promise<void>) | undefined
  let pgClient: import('pg').Client | undefined
  const remote = openRemote({ timeoutMs: 240_000 })

  const COUNT =
    'SELECT count(*) AS n, count(DISTINCT import_ref) AS refs FROM transactions t JOIN bank_accounts a ON a.key = t.account_key WHERE a.id = '
  const pgSchema = () => new URL(database).searchParams.get('schema') as string
  const count = async (account: string): Promise<{ n: number; refs: number }> => {
    if (pgClient) {
      const r = await pgClient.query(`${COUNT.replace(/(transactions|bank_accounts) /g, `${pgSchema()}.$1 `)}$1`, [account])
      return { n: Number(r.rows[0].n), refs: Number(r.rows[0].refs) }
    }
    const db = new Database(database, { readonly: true, fileMustExist: true })
    try {
      return db.prepare(`${COUNT}?`).get(account) as { n: number; refs: number }
    } finally {
      db.close()
    }
  }
  const serve = async () => {
    server = await startServe(sb, database)
    return new Client({ baseUrl: server.url, fetch: remote.fetch, apiKey: key, maxRetries: 0 })
  }
  /** kill -9 the server once `when` holds; the request in flight fails. */
  async function killWhen(request: Promise<unknown>, when: () => boolean | Promise<boolean>): Promise<boolean> {
    let settled = false
    const outcome = request.then(
      () => (settled = true),
      () => (settled = true),
    )
    for (let i = 0; i < 6000 && !settled && !(await when()); i++) await new Promise((r) => setTimeout(r, 10))
    const running = !settled
    await server!.stop('SIGKILL')
    server = undefined
    await outcome
    return running
  }

  beforeAll(async () => {
    sb = new Sandbox(`imports-kill-serve-${kind}`)
    if (kind === 'postgres') {
      const fresh = await freshPostgres()
      database = fresh.url
      dropSchema = fresh.drop
      const { default: pg } = await import('pg')
      pgClient = new pg.Client({ connectionString: TEST_DATABASE_URL })
      await pgClient.connect()
    } else database = sb.database
    await sb.ok(['init', '--no-input', '--currency', 'USD', ...(kind === 'postgres' ? ['--database', database] : [])])
    key = (await fastKey(sb)).key
  })
  afterAll(async () => {
    await server?.stop('SIGKILL')
    await remote.close()
    await pgClient?.end()
    await dropSchema?.()
    sb?.cleanup()
  })

  it('serve killed mid-apply, restarted, apply again: every row exactly once, the batch completed with every row created', async () => {
    let c = await serve()
    const account = (await c.accounts.create({ name: 'Apply', account_type: 'checking', currency_code: 'USD' })).id
    await server!.stop()
    const file = join(sb.dir, 'apply.csv')
    bigFile(file, ROWS, 'Apply')
    const review = await sb.run(['tx', 'import', file, '--account', account, '--review', '--json'], { timeoutMs: 120_000 })
    expect(review.code, review.stderr).toBe(0)
    const id = (JSON.parse(review.stdout) as { batch_id: string }).batch_id

    c = await serve()
    expect((await c.imports.get(id)).state).toBe('pending')
    const running = await killWhen(c.imports.apply(id), async () => (await count(account)).n >= 3000)
    expect(running, 'the apply finished before the server could be killed').toBe(true)
    const between = await count(account)
    expect(between.n).toBeGreaterThan(0)
    expect(between.n).toBeLessThan(ROWS)
    expect(between.refs).toBe(between.n)

    c = await serve()
    expect((await c.imports.get(id)).state).toBe('pending')
    const again = await c.imports.apply(id)
    expect(again.state).toBe('completed')
    expect(again.applied.created + again.applied.existing).toBe(ROWS)
    expect(again.applied.existing).toBe(between.n)
    expect(await count(account)).toEqual({ n: ROWS, refs: ROWS })
    expect(await c.imports.get(id)).toMatchObject({ state: 'completed', counts: { created: ROWS, existing: 0, rejected: 0 } })
    expect((await c.imports.apply(id)).applied.created).toBe(0)
    expect(await count(account)).toEqual({ n: ROWS, refs: ROWS })
    await server!.stop()
    server = undefined
  }, 400_000)

  it('serve killed mid-revert, restarted, revert again: all of the rows or none after the kill, then none, verify intact', async () => {
    let c = await serve()
    const account = (await c.accounts.create({ name: 'Revert', account_type: 'checking', currency_code: 'USD' })).id
    await server!.stop()
    const file = join(sb.dir, 'revert.csv')
    bigFile(file, ROWS, 'Revert')
    const imported = await sb.json<{ created: number; batch_id: string }>(['tx', 'import', file, '--account', account, '--json'], {
      timeoutMs: 120_000,
    })
    expect(imported.created).toBe(ROWS)
    const id = imported.batch_id

    c = await serve()
    // The revert plans as its dry run does, then writes: the kill lands after the planning's time.
    const t0 = Date.now()
    expect((await c.imports.revert(id, { dry_run: true })).deleted).toBe(ROWS)
    const planning = Date.now() - t0
    const started = Date.now()
    // On PostgreSQL, once the revert holds its batch's row lock its transaction is open (a probe with NOWAIT fails).
    let lockedAt: number | undefined
    const locked = async () => {
      if (lockedAt === undefined)
        await pgClient!
          .query(`SELECT 1 FROM ${pgSchema()}.import_batches WHERE id = $1 FOR UPDATE NOWAIT`, [id])
          .catch((e: { code?: string }) => {
            if (e.code === '55P03') lockedAt = Date.now()
            else throw e
          })
      return lockedAt !== undefined && Date.now() - lockedAt > planning * 0.3
    }
    const running = await killWhen(c.imports.revert(id), () => (kind === 'postgres' ? locked() : Date.now() - started > planning * 1.1))
    expect(running, 'the revert finished before the server could be killed').toBe(true)
    // All of the rows, or none when a busy machine let the transaction commit before the kill landed.
    const after = await count(account)
    expect([0, ROWS], `${after.n} of ${ROWS} rows after the kill`).toContain(after.n)
    expect(after.refs).toBe(after.n)

    c = await serve()
    expect((await c.imports.get(id)).state).toBe(after.n === ROWS ? 'completed' : 'reverted')
    if (after.n === ROWS) {
      const r = await c.imports.revert(id)
      expect(r).toMatchObject({ deleted: ROWS, batch: { state: 'reverted' } })
    }
    expect(await count(account)).toEqual({ n: 0, refs: 0 })
    await server!.stop()
    server = undefined
    const verified = await sb.run(['verify', '--json'], { timeoutMs: 120_000 })
    expect(verified.code, verified.stderr).toBe(0)
  }, 400_000)
})

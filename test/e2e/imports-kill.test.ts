/**
 * kill -9 during `imports apply` of a large pending batch and during `imports revert` of a large
 * batch, with the built CLI embedded on SQLite and on PostgreSQL (the killed process is the
 * service): the same command again converges. Apply leaves
 * every row exactly once and the batch `completed` with every row counted as created; revert is one
 * transaction, so the kill leaves all of the batch's rows or none, and the second revert removes
 * them all, with `finctl verify` intact.
 */
import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, Sandbox, fastKey } from '../helpers/cli.js'
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

type Batch = { id: string; state: string; counts: { created: number; existing: number; rejected: number } }

describe.each(STORES)('kill -9 during imports apply and imports revert on %s', (kind) => {
  let sb: Sandbox
  let pgUrl: string | undefined
  let dropSchema: (() => Promise<void>) | undefined
  let pgClient: import('pg').Client | undefined

  const COUNT =
    'SELECT count(*) AS n, count(DISTINCT import_ref) AS refs FROM transactions t JOIN bank_accounts a ON a.key = t.account_key WHERE a.id = '
  const count = async (account: string): Promise<{ n: number; refs: number }> => {
    if (pgClient) {
      const r = await pgClient.query(COUNT.replace(/(transactions|bank_accounts) /g, `${pgSchema()}.$1 `) + '$1', [account])
      return { n: Number(r.rows[0].n), refs: Number(r.rows[0].refs) }
    }
    const db = new Database(sb.database, { readonly: true, fileMustExist: true })
    try {
      return db.prepare(`${COUNT}?`).get(account) as { n: number; refs: number }
    } finally {
      db.close()
    }
  }
  const pgSchema = () => new URL(pgUrl!).searchParams.get('schema')!
  /** The indexes of transactions (a large revert drops and builds them in its transaction). */
  const indexes = () => {
    if (kind === 'postgres') return []
    const db = new Database(sb.database, { readonly: true, fileMustExist: true })
    try {
      return db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'transactions' ORDER BY name").all()
    } finally {
      db.close()
    }
  }
  const batchOf = async (account: string) => (await sb.json<Batch[]>(['imports', 'list', '--account', account, '--json']))[0]
  const newAccount = async (name: string) =>
    (await sb.json<{ id: string }>(['accounts', 'create', '--name', name, '--type', 'checking', '--json'])).id

  /** Start `finctl ARGS`, kill -9 it once `when` holds (or it ended), and give back its stderr and whether it was still running. */
  async function killWhen(args: string[], when: () => boolean | Promise<boolean>): Promise<{ err: string; running: boolean }> {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: sb.dir, env: sb.env(), stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    const exited = new Promise<void>((res) => child.once('exit', () => res()))
    for (let i = 0; i < 6000 && child.exitCode === null && !(await when()); i++) await new Promise((r) => setTimeout(r, 10))
    const running = child.exitCode === null
    child.kill('SIGKILL')
    await exited
    return { err, running }
  }

  beforeAll(async () => {
    sb = new Sandbox(`imports-kill-${kind}`)
    if (kind === 'postgres') {
      const fresh = await freshPostgres()
      pgUrl = fresh.url
      dropSchema = fresh.drop
      const { default: pg } = await import('pg')
      pgClient = new pg.Client({ connectionString: TEST_DATABASE_URL })
      await pgClient.connect()
    }
    await sb.ok(['init', '--no-input', '--currency', 'USD', ...(pgUrl ? ['--database', pgUrl] : [])])
    await fastKey(sb)
  })
  afterAll(async () => {
    await pgClient?.end()
    await dropSchema?.()
    sb?.cleanup()
  })

  it('kill -9 mid-apply, then apply again: every row exactly once, the batch completed with every row created', async () => {
    const account = await newAccount('Apply')
    const file = join(sb.dir, 'apply.csv')
    bigFile(file, ROWS, 'Apply')
    const review = await sb.run(['tx', 'import', file, '--account', account, '--review', '--json'], { timeoutMs: 120_000 })
    expect(review.code, review.stderr).toBe(0)
    const pending = await batchOf(account)
    expect(pending.state).toBe('pending')
    expect((await count(account)).n).toBe(0)

    const { err, running } = await killWhen(['imports', 'apply', pending.id], async () => (await count(account)).n >= 3000)
    expect(running, `the apply finished before it could be killed:\n${err}`).toBe(true)
    const between = await count(account)
    expect(between.n).toBeGreaterThan(0)
    expect(between.n).toBeLessThan(ROWS)
    expect(between.refs).toBe(between.n)
    expect((await batchOf(account)).state).toBe('pending')

    const again = await sb.json<{ state: string; applied: { created: number; existing: number } }>(
      ['imports', 'apply', pending.id, '--json'],
      {
        timeoutMs: 120_000,
      },
    )
    expect(again.state).toBe('completed')
    expect(again.applied.created + again.applied.existing).toBe(ROWS)
    expect(again.applied.existing).toBe(between.n)
    expect(await count(account)).toEqual({ n: ROWS, refs: ROWS })
    // The batch created every row, in one apply or the other: none of them was on the account before.
    expect(await batchOf(account)).toMatchObject({ state: 'completed', counts: { created: ROWS, existing: 0, rejected: 0 } })
    const third = await sb.json<{ applied: { created: number } }>(['imports', 'apply', pending.id, '--json'])
    expect(third.applied.created).toBe(0)
    expect(await count(account)).toEqual({ n: ROWS, refs: ROWS })
  }, 300_000)

  it('kill -9 mid-revert, then revert again: all of the rows or none after the kill, then none, the batch reverted, verify intact', async () => {
    const account = await newAccount('Revert')
    const file = join(sb.dir, 'revert.csv')
    bigFile(file, ROWS, 'Revert')
    const imported = await sb.json<{ created: number; batch_id: string }>(['tx', 'import', file, '--account', account, '--json'], {
      timeoutMs: 120_000,
    })
    expect(imported.created).toBe(ROWS)
    const batch = await batchOf(account)
    expect(batch.id).toBe(imported.batch_id)
    // The revert plans as its dry run does, then writes: the kill lands after the planning's time.
    const t0 = Date.now()
    const dry = await sb.json<{ deleted: number }>(['imports', 'revert', batch.id, '--dry-run', '--json'], { timeoutMs: 120_000 })
    const planning = Date.now() - t0
    expect(dry.deleted).toBe(ROWS)

    const before = indexes()
    // On PostgreSQL, once the revert holds its batch's row lock its transaction is open: the kill
    // lands a while after that (a probe with NOWAIT fails while the lock is held).
    let lockedAt: number | undefined
    const locked = async () => {
      if (lockedAt === undefined)
        await pgClient!
          .query(`SELECT 1 FROM ${pgSchema()}.import_batches WHERE id = $1 FOR UPDATE NOWAIT`, [batch.id])
          .catch((e: { code?: string }) => {
            if (e.code === '55P03') lockedAt = Date.now()
            else throw e
          })
      return lockedAt !== undefined && Date.now() - lockedAt > planning * 0.3
    }
    // On SQLite the revert's transaction holds the write lock until it commits: the kill lands once
    // a probe (BEGIN IMMEDIATE, no wait) has found it held for a while, not at a guess of its time.
    let heldSince: number | undefined
    const held = () => {
      const db = new Database(sb.database, { fileMustExist: true, timeout: 0 })
      try {
        db.exec('BEGIN IMMEDIATE')
        db.exec('ROLLBACK')
        heldSince = undefined
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e
        heldSince ??= Date.now()
      } finally {
        db.close()
      }
      return heldSince !== undefined && Date.now() - heldSince > Math.min(200, planning * 0.3)
    }
    const { err, running } = await killWhen(['imports', 'revert', batch.id, '--yes'], () => (kind === 'postgres' ? locked() : held()))
    expect(running, `the revert finished before it could be killed:\n${err}`).toBe(true)
    // One transaction: the kill leaves the batch's rows all there and the batch as it was, or, when a
    // busy machine let the transaction commit before the kill landed, none and the batch reverted.
    const after = await count(account)
    expect([0, ROWS], `${after.n} of ${ROWS} rows after the kill`).toContain(after.n)
    expect(after.refs).toBe(after.n)
    expect((await batchOf(account)).state).toBe(after.n === ROWS ? 'completed' : 'reverted')
    expect(indexes()).toEqual(before)
    const intact = await sb.run(['verify', '--json'], { timeoutMs: 120_000 })
    expect(intact.code, intact.stderr).toBe(0)

    if (after.n === ROWS) {
      const r = await sb.json<{ deleted: number; batch: { state: string } }>(['imports', 'revert', batch.id, '--yes', '--json'], {
        timeoutMs: 120_000,
      })
      expect(r).toMatchObject({ deleted: ROWS, batch: { state: 'reverted' } })
    }
    expect(await count(account)).toEqual({ n: 0, refs: 0 })
    expect((await batchOf(account)).state).toBe('reverted')
    expect(indexes()).toEqual(before)
    const verified = await sb.run(['verify', '--json'], { timeoutMs: 120_000 })
    expect(verified.code, verified.stderr).toBe(0)
    // The same file imports again, each row once.
    const back = await sb.json<{ created: number }>(['tx', 'import', file, '--account', account, '--json'], { timeoutMs: 120_000 })
    expect(back.created).toBe(ROWS)
    expect(await count(account)).toEqual({ n: ROWS, refs: ROWS })
  }, 300_000)
})

/**
 * End-to-end: a database that cannot take a command, as the embedded CLI tells it. Locked by another
 * process past the wait, damaged, not a database, read-only: one line naming the file and what to do
 * (`finctl doctor`), exit 11, never a stack trace; a damaged file refuses writes until `finctl doctor`
 * passes on it again.
 */
import Database from 'better-sqlite3'
import { spawnSync } from 'node:child_process'
import { chmodSync, closeSync, copyFileSync, existsSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, fastKey, type CliResult } from '../helpers/cli.js'

const DATABASE_EXIT = 11

describe('store errors on the embedded CLI', () => {
  let sb: Sandbox
  let account: string

  /** Exit 11, one line of error naming the file and `finctl doctor`, no stack trace. */
  const expectStoreError = (r: CliResult, words: RegExp, file = sb.database) => {
    expect(r.code, r.stderr).toBe(DATABASE_EXIT)
    const lines = r.stderr.trim().split('\n')
    expect(lines, r.stderr).toHaveLength(1)
    expect(lines[0]).toMatch(/^error: the database /)
    expect(lines[0]).toContain(file)
    expect(lines[0]).toMatch(words)
    expect(lines[0]).toContain('finctl doctor')
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /)
  }
  const create = (description: string, env: Record<string, string> = {}) =>
    sb.run(['tx', 'create', '--account', account, '--date', '2026-01-05', '--description', description, '--amount', '-1.00'], { env })

  beforeAll(async () => {
    sb = new Sandbox('store-errors')
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    await fastKey(sb)
    account = (await sb.json(['accounts', 'create', '--name', 'Errors', '--type', 'checking', '--currency', 'USD', '--json'])).id
    const rows = [
      'Booking date;Text;Amount',
      ...Array.from({ length: 3000 }, (_, i) => `${String((i % 28) + 1).padStart(2, '0')}.01.2026;Row ${i} ${'x'.repeat(80)};-${i + 1},00`),
    ]
    writeFileSync(join(sb.dir, 'rows.csv'), `${rows.join('\n')}\n`)
    await sb.ok(['tx', 'import', join(sb.dir, 'rows.csv'), '--account', account])
  })
  afterAll(() => sb?.cleanup())

  it('locked by another process past the wait: exit 11 after the wait, nothing written', async () => {
    const other = new Database(sb.database)
    other.exec('BEGIN IMMEDIATE')
    try {
      const r = await create('locked out', { FINCTL_BUSY_TIMEOUT_MS: '300' })
      expectStoreError(r, /is locked by another process and stayed locked for 0\.\d s: nothing was written/)
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    expect((await sb.json(['tx', 'list', '--account', account, '--search', 'locked out', '--json'])).length).toBe(0)
  })

  it('a lock let go within the wait: the command waits its turn and succeeds', async () => {
    const other = new Database(sb.database)
    other.exec('BEGIN IMMEDIATE')
    // The holder is this process: it lets go from a timer while the CLI, another process, waits.
    setTimeout(() => other.exec('COMMIT'), 1500)
    try {
      const r = await create('waited its turn')
      expect(r.code, r.stderr).toBe(0)
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK')
      other.close()
    }
  })

  it('read-only: exit 11 naming the file', async (ctx) => {
    // As root a mode of 0444 does not stop a write: make the file immutable instead (chattr), where the system can.
    const root = process.getuid?.() === 0
    if (root && spawnSync('chattr', ['+i', sb.database]).status !== 0) ctx.skip()
    if (!root) chmodSync(sb.database, 0o444)
    try {
      expectStoreError(await create('read-only'), /is read-only \(SQLITE_READONLY[A-Z_]*\): nothing was written/)
    } finally {
      if (root) spawnSync('chattr', ['-i', sb.database])
      else chmodSync(sb.database, 0o600)
    }
  })

  it('not a database: exit 11 naming the file', async () => {
    const garbage = join(sb.dir, 'garbage.db')
    writeFileSync(garbage, 'this is not a SQLite file, however long it goes on. '.repeat(100))
    expectStoreError(
      await sb.run(['tx', 'list'], { env: { FINCTL_DATABASE: garbage } }),
      /is not a database, or is damaged \(SQLITE_NOTADB\)/,
      garbage,
    )
  })

  it('a damaged page: exit 11 naming the file; writes refused until finctl doctor passes on a restored file', async () => {
    const backup = join(sb.dir, 'backup.db')
    const db = new Database(sb.database)
    db.pragma('wal_checkpoint(TRUNCATE)')
    await db.backup(backup)
    const page = db
      .prepare(`SELECT pageno FROM dbstat WHERE name = 'transactions' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 3`)
      .pluck()
      .get() as number
    const size = db.pragma('page_size', { simple: true }) as number
    db.close()
    const fd = openSync(sb.database, 'r+')
    writeSync(fd, Buffer.alloc(size, 0x5a), 0, size, (page - 1) * size)
    closeSync(fd)

    expectStoreError(await sb.run(['tx', 'list', '--all']), /is damaged \(SQLITE_CORRUPT\): finctl refuses to write to it/)
    expect(existsSync(`${sb.database}-damaged`)).toBe(true)
    // This write would not touch the damaged page: refused all the same.
    expectStoreError(await create('into a damaged file'), /is damaged/)
    const checked = await sb.run(['doctor', '--json'])
    expect(checked.code).toBe(1)
    const check = JSON.parse(checked.stdout).checks.find((c: { name: string }) => c.name === 'database')
    expect(check).toMatchObject({ status: 'fail' })
    expect(check.detail).toMatch(/writes are refused since .*restore a backup/)

    // Restoring a backup: the file alone, without the damaged file's WAL.
    for (const f of [`${sb.database}-wal`, `${sb.database}-shm`]) rmSync(f, { force: true })
    copyFileSync(backup, sb.database)
    const again = JSON.parse((await sb.run(['doctor', '--json'])).stdout).checks.find((c: { name: string }) => c.name === 'database')
    expect(again).toMatchObject({ status: 'ok' })
    expect(again.detail).toContain('writes are allowed again')
    expect(existsSync(`${sb.database}-damaged`)).toBe(false)
    expect((await create('after the restore')).code).toBe(0)
  })
})

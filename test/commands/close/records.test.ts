/**
 * In process (test/helpers/in-process-cli.ts; its run through `finctl serve` is
 * test/commands/close/records-served.test.ts): `close MONTH --export` writes the month's exports
 * into a folder and records their SHA-256 beside the audit chain's head; `verify --close MONTH`
 * finds them the same (exit 0), and exit 13 naming what changed: an export file edited, an audit
 * entry of before the close edited in the database. Wrong flags exit 2 before anything changes.
 */
import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { type Checked, END, FORCE, M, type Recorded, recordBooks } from '../../helpers/closing.js'

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

describe('the close record and verify --close, in process', () => {
  let sb: InProcessSandbox
  let dir: string

  beforeAll(async () => {
    sb = new InProcessSandbox('close-records')
    dir = join(sb.dir, 'books')
    await recordBooks(sb)
  }, 240_000)
  afterAll(() => sb?.cleanup())

  it('refuses wrong flags before anything changes', async () => {
    const bad = await sb.run(['close', M, ...FORCE, '--export', 'hledger,pdf', '--output-dir', dir])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--export takes formats among ledger, hledger, beancount, xlsx, csv, datev, sie4, saft-no, not pdf')
    const dirOnly = await sb.run(['close', M, ...FORCE, '--output-dir', dir])
    expect(dirOnly.code).toBe(2)
    expect(dirOnly.stderr).toContain('go with --export')
    const status = await sb.run(['close', 'status', '--month', M, '--json'])
    expect(JSON.parse(status.stdout)).toMatchObject({ closed: false })
    const never = await sb.run(['verify', '--close', M])
    expect(never.code).toBe(5)
    expect(never.stderr).toContain(`${M} was never closed`)
    expect((await sb.run(['verify', '--dir', dir])).code).toBe(2)
  })

  it('refuses an export that would be its own accounts map, or a named pipe, before anything changes', async () => {
    const other = join(sb.dir, 'other')
    mkdirSync(other)
    const map = join(other, `books-${M}.journal`)
    writeFileSync(map, '{}\n')
    const own = await sb.run(['close', M, ...FORCE, '--export', 'hledger', '--output-dir', other, '--accounts-map', map, '--overwrite'])
    expect([own.code, own.stderr]).toEqual([2, 'error: --output-dir must not be the --accounts-map file: it would be overwritten\n'])
    expect(readFileSync(map, 'utf8')).toBe('{}\n')
    const fifo = join(other, `books-${M}.csv`)
    execFileSync('mkfifo', [fifo])
    const piped = await sb.run(['close', M, ...FORCE, '--export', 'csv', '--output-dir', other, '--overwrite'])
    expect(piped.code).toBe(2)
    expect(piped.stderr).toBe(
      `error: --output-dir: ${fifo} is a pipe or a device: the exports of a close are files, their SHA-256 recorded: remove it or give another folder\n`,
    )
    expect(statSync(fifo).isFIFO()).toBe(true)
    const status = await sb.run(['close', 'status', '--month', M, '--json'])
    expect(JSON.parse(status.stdout)).toMatchObject({ closed: false })
  })

  it('close --export writes the files and records their SHA-256 with the audit head', async () => {
    const r = await sb.run(['close', M, ...FORCE, '--export', 'hledger,csv,xlsx', '--output-dir', dir, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const recorded = JSON.parse(r.stdout) as Recorded[]
    expect(recorded.map((e) => e.file_name)).toEqual([`books-${M}.journal`, `books-${M}.csv`, `books-${M}.xlsx`])
    for (const e of recorded) {
      expect(e.rows).toBe(3)
      expect(e.sha256).toBe(sha(join(dir, e.file_name)))
    }
    expect(readFileSync(join(dir, `books-${M}.journal`), 'utf8')).toContain('Invoice 7')
    expect(r.stderr).toContain(`recorded 3 exports on the close of ${M}`)
    const history = await sb.json<Array<{ action: string; chain_head: { id: number; hash: string } | null }>>([
      'close',
      'history',
      '--json',
    ])
    const db = new Database(sb.database, { readonly: true })
    // The head when the month was closed: the entry before the close's own (the lock date it set).
    const head = db
      .prepare("SELECT id AS last_id, hash FROM audit_entries WHERE action <> 'lock_date_changed' ORDER BY id DESC LIMIT 1")
      .get() as { last_id: number; hash: string }
    db.close()
    expect(history[0]).toMatchObject({ action: 'close', lock_date: END, chain_head: { id: head.last_id, hash: head.hash } })
    // A file that exists is not written over: refused before the exports (the month is closed already).
    const again = await sb.run(['close', M, '--export', 'csv', '--output-dir', dir])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain(`books-${M}.csv`)
  })

  it('verify --close: the same, exit 0; without --dir the workbook is named as not checked', async () => {
    const r = await sb.run(['verify', '--close', M, '--dir', dir, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const v = JSON.parse(r.stdout) as { intact: boolean; exports: Checked[]; still_closed: boolean }
    expect(v).toMatchObject({ intact: true, still_closed: true })
    expect(v.exports.map((e) => e.result)).toEqual(['same', 'same', 'same'])
    expect(r.stderr).toContain(`${M} is as it was closed`)
    const noDir = await sb.run(['verify', '--close', M])
    expect(noDir.code, noDir.stderr).toBe(0)
    expect(noDir.stdout).toMatch(/xlsx.*not checked: a workbook holds its time of writing/)
  })

  it('an export file edited: exit 13 naming the file', async () => {
    const csv = join(dir, `books-${M}.csv`)
    const before = readFileSync(csv)
    appendFileSync(csv, 'forged,row\r\n')
    const r = await sb.run(['verify', '--close', M, '--dir', dir])
    expect(r.code).toBe(13)
    expect(r.stderr).toContain(`changed since the close: csv export books-${M}.csv: ${csv} was changed`)
    writeFileSync(csv, before)
    expect((await sb.run(['verify', '--close', M, '--dir', dir])).code).toBe(0)
  })

  it('an audit entry of before the close edited in the database: exit 13 naming it', async () => {
    const db = new Database(sb.database)
    const row = db.prepare('SELECT id, changes FROM audit_entries ORDER BY id DESC LIMIT 1').get() as { id: number; changes: string }
    db.prepare('UPDATE audit_entries SET changes = ? WHERE id = ?').run('{"category":{"before":null,"after":"Forged"}}', row.id)
    const r = await sb.run(['verify', '--close', M])
    db.prepare('UPDATE audit_entries SET changes = ? WHERE id = ?').run(row.changes, row.id)
    db.close()
    expect(r.code).toBe(13)
    expect(r.stderr).toContain(`audit entry #${row.id} was changed`)
    expect((await sb.run(['verify', '--close', M])).code).toBe(0)
  })

  it("a transaction of the month edited by SQL (the lock's triggers dropped): exit 13 naming the row", async () => {
    const db = new Database(sb.database)
    const row = db.prepare('SELECT seq, amount FROM transactions WHERE transaction_date <= ? LIMIT 1').get(END) as {
      seq: number
      amount: number
    }
    const triggers = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'transactions_lock_%'")
      .all() as Array<{ name: string; sql: string }>
    for (const t of triggers) db.exec(`DROP TRIGGER ${t.name}`)
    db.prepare('UPDATE transactions SET amount = amount + 1 WHERE seq = ?').run(row.seq)
    const r = await sb.run(['verify', '--close', M])
    db.prepare('UPDATE transactions SET amount = ? WHERE seq = ?').run(row.amount, row.seq)
    for (const t of triggers) db.exec(t.sql)
    db.close()
    expect(r.code).toBe(13)
    const ids = (await sb.json<Array<{ id: string }>>(['tx', 'list', '--json'])).map((t) => t.id)
    const named = new RegExp(`changed since the close: ${M}'s transactions: 1 row edited \\(([0-9a-f-]{36})\\) since the close`).exec(
      r.stderr,
    )
    expect(named, r.stderr).not.toBeNull()
    expect(ids).toContain(named![1])
    expect((await sb.run(['verify', '--close', M])).code).toBe(0)
  })
})

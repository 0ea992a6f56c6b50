/**
 * In process (test/helpers/in-process-cli.ts; moved from test/e2e, which it needed nothing of):
 * `reports --as-of` reproduces the reports run before the changes; `finctl verify` on the entries
 * the CLI's own writes chained (tx update, bulk update, delete): exit 0 when intact; an SQL UPDATE,
 * DELETE or forged INSERT of one audit row in the database file gives exit 13 with that entry named
 * (docs/audit.md), and so does a transaction row inserted by SQL; its usage errors (exit 2) and a close that does not exist (exit 5).
 */
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

interface Row {
  id: number
  company_id: string
  transaction_id: string
  actor: string
  action: string
  changes: string
  created_at: string
  prev_hash: string
  hash: string
}

describe('finctl verify', () => {
  const sb = new InProcessSandbox('verify')
  let rows: Row[] = []
  const RANGE = ['--from', '2026-10-01', '--to', '2026-10-31']
  let summary: unknown
  let cashFlow: unknown
  let asOf = ''
  const sqlite = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(sb.database)
    try {
      return fn(db)
    } finally {
      db.close()
    }
  }

  beforeAll(async () => {
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Ops', '--type', 'checking', '--json'])).id
    const ids: string[] = []
    for (const [d, a] of [
      ['Rent', '-900.00'],
      ['Sale', '1200.00'],
      ['Cafe', '-4.50'],
    ]) {
      const t = await sb.json<{ id: string }>([
        'tx',
        'create',
        '--account',
        acct,
        '--date',
        '2026-10-01',
        '--description',
        d,
        '--amount',
        a,
        '--json',
      ])
      ids.push(t.id)
    }
    summary = await sb.json(['reports', 'summary', ...RANGE, '--json'])
    cashFlow = await sb.json(['reports', 'cash-flow', ...RANGE, '--json'])
    await new Promise((r) => setTimeout(r, 5))
    asOf = new Date().toISOString()
    await new Promise((r) => setTimeout(r, 5))
    await sb.ok(['tx', 'update', ids[0], '--amount', '-950.00', '--json'])
    await sb.ok(['tx', 'update', ids[1], '--category', 'Sales', '--json'])
    await sb.ok(['tx', 'delete', ids[2], '--yes', '--json'])
    rows = sqlite((db) => db.prepare('SELECT * FROM audit_entries ORDER BY id').all() as Row[])
  }, 240_000)
  afterAll(() => sb.cleanup())

  it('is intact after the CLI own writes: exit 0', async () => {
    // three creations, update, update, the deleted one's creation entry and its delete entry
    expect(rows.map((r) => r.action)).toEqual(['rows_created', 'rows_created', 'rows_created', 'update', 'update', 'create', 'delete'])
    const r = await sb.run(['verify', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({
      intact: true,
      entries: 7,
      transactions: 2,
      head: { id: rows[6].id, hash: rows[6].hash },
      broken: null,
    })
    const plain = await sb.run(['verify'])
    expect(plain.code).toBe(0)
    expect(plain.stdout).toContain('intact: 7 entries')
    expect(plain.stdout).toContain('2 transactions as created')
  })

  it('reports --as-of the moment before the changes are the reports run then', async () => {
    expect(await sb.json(['reports', 'summary', ...RANGE, '--json'])).not.toEqual(summary)
    expect(await sb.json(['reports', 'summary', ...RANGE, '--as-of', asOf, '--json'])).toEqual(summary)
    expect(await sb.json(['reports', 'cash-flow', ...RANGE, '--as-of', asOf, '--json'])).toEqual(cashFlow)
    const bad = await sb.run(['reports', 'summary', '--as-of', 'yesterday'])
    expect(bad.code).toBe(6)
    expect(bad.stderr).toContain('--as-of')
  })

  it('an SQL UPDATE of one row: exit 13 naming it; put back: intact', async () => {
    const target = rows[4]
    sqlite((db) =>
      db.prepare('UPDATE audit_entries SET changes = ? WHERE id = ?').run('{"category":{"before":null,"after":"Loans"}}', target.id),
    )
    const r = await sb.run(['verify', '--json'])
    expect(r.code).toBe(13)
    expect(JSON.parse(r.stdout).broken).toMatchObject({ kind: 'changed', entry_id: target.id })
    expect(r.stderr).toContain(`audit entry #${target.id} was changed`)
    sqlite((db) => db.prepare('UPDATE audit_entries SET changes = ? WHERE id = ?').run(target.changes, target.id))
    expect((await sb.run(['verify'])).code).toBe(0)
  })

  it('an SQL DELETE of one row: exit 13 naming the gap; put back: intact', async () => {
    const target = rows[5]
    sqlite((db) => db.prepare('DELETE FROM audit_entries WHERE id = ?').run(target.id))
    const r = await sb.run(['verify'])
    expect(r.code).toBe(13)
    expect(r.stderr).toContain(`an audit entry before #${rows[6].id} was removed (between #${rows[4].id} and it)`)
    sqlite((db) =>
      db
        .prepare(
          'INSERT INTO audit_entries (id, company_id, transaction_id, actor, action, changes, created_at, prev_hash, hash) VALUES (?,?,?,?,?,?,?,?,?)',
        )
        .run(...Object.values(target)),
    )
    expect((await sb.run(['verify'])).code).toBe(0)
  })

  it('a transaction row inserted by SQL (an open month): exit 13 naming the row; taken out: intact', async () => {
    const id = '0b9e5a52-6a43-4f43-9d55-2f7b1b7d7c01'
    sqlite((db) => {
      const { seq: _seq, ...copy } = db.prepare('SELECT * FROM transactions ORDER BY seq LIMIT 1').get() as Record<string, unknown>
      const row = { ...copy, id: Buffer.from(id.replaceAll('-', ''), 'hex'), created_at: '2026-11-25T10:00:00.000Z', import_ref: null }
      const cols = Object.keys(row)
      db.prepare(`INSERT INTO transactions (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...Object.values(row))
    })
    const r = await sb.run(['verify', '--json'])
    expect(r.code).toBe(13)
    expect(JSON.parse(r.stdout).broken).toMatchObject({ kind: 'row_inserted', transaction_id: id, entry_id: null })
    expect(r.stderr).toContain(`transaction ${id} was inserted outside finctl`)
    const plain = await sb.run(['verify'])
    expect(plain.stdout).toContain(`broken row_inserted ${id}`)
    sqlite((db) => db.prepare('DELETE FROM transactions WHERE id = ?').run(Buffer.from(id.replaceAll('-', ''), 'hex')))
    expect((await sb.run(['verify'])).code).toBe(0)
  })

  it('a forged INSERT: exit 13 naming it', async () => {
    const last = rows[6]
    const id = sqlite(
      (db) =>
        db
          .prepare('INSERT INTO audit_entries (company_id, transaction_id, actor, action, changes, created_at) VALUES (?,?,?,?,?,?)')
          .run(last.company_id, last.transaction_id, last.actor, 'update', '{}', last.created_at).lastInsertRowid,
    )
    const r = await sb.run(['verify', '--json'])
    expect(r.code).toBe(13)
    expect(JSON.parse(r.stdout).broken).toMatchObject({ kind: 'inserted', entry_id: Number(id), after_id: last.id })
    expect(r.stderr).toContain(`audit entry #${id} was inserted`)
  })
  it('usage errors name the flag (exit 2); a month never closed is not found (exit 5)', async () => {
    const cases: Array<[string[], string]> = [
      [['verify', '--dir', sb.dir], '--dir and --accounts-map go with --close MONTH'],
      [['verify', '--close', '2026-13'], '--close must be a month written YYYY-MM, not "2026-13"'],
      [['verify', '--close', '2026-10', '--accounts-map', sb.path('missing.yaml')], 'missing.yaml'],
    ]
    for (const [args, message] of cases) {
      const r = await sb.run(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toContain(message)
    }
    const never = await sb.run(['verify', '--close', '2026-10'])
    expect(never.code, never.stderr).toBe(5)
    expect(never.stderr).toContain('2026-10')
  })
})

/**
 * Faults: `finctl serve` killed with SIGKILL in the middle of concurrent writes (every acknowledged
 * write survives, no torn row, integrity intact); two CLI processes writing to one SQLite file at
 * once (no "database is locked" reaches the user); a database that cannot be written or opened (a
 * clear error, a non-zero exit, no stack trace, no damage).
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bootstrapCompany } from '../../src/domain/accounts/companies.js'
import { openStore } from '../../src/store/open-store.js'
import { Sandbox, fastKey } from '../helpers/cli.js'
import { expectSqliteHealthy, send, serve, SOAK, type Served } from './lib.js'

const PASSWORD = 'correct horse battery'

async function api(s: Served, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  return send(
    fetch,
    s.url + path,
    {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    15_000,
  )
}

describe('(a) SIGKILL of finctl serve (SQLite) during concurrent writes', () => {
  let dir: string
  let db: string
  let email: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-kill-'))
    db = join(dir, 'finctl.db')
    email = `owner-${process.pid}@kill.test`
    const store = await openStore(db)
    await bootstrapCompany(store, { name: 'Kill Co', baseCurrency: 'USD', email, password: PASSWORD }, new Date())
    await store.close()
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('every acknowledged (201) write is there after a restart, batches are all or nothing, integrity ok', async () => {
    let server = await serve(db)
    const token = (await api(server, 'POST', '/auth/token', {}, { email, password: PASSWORD })).body.data.access_token as string
    const key = (
      await api(
        server,
        'POST',
        '/api-keys',
        { authorization: token },
        { name: 'kill', scopes: ['read', 'write', 'transactions'], rate_limit_per_minute: 1_000_000, rate_limit_per_day: 100_000_000 },
      )
    ).body.data.key as string
    const account = (
      await api(
        server,
        'POST',
        '/api-v1/bank-accounts',
        { 'x-api-key': key },
        { name: 'Kill', account_type: 'checking', currency_code: 'USD' },
      )
    ).body.data.id as string
    const H = { 'x-api-key': key }

    const acked = new Map<string, { description: string; amount: number }>()
    /** Batch label -> ids acknowledged (or null when the answer never came). */
    const batches = new Map<string, string[] | null>()
    const cycles = SOAK ? 5 : 2
    for (let cycle = 0; cycle < cycles; cycle++) {
      let stop = false
      const worker = async (w: number) => {
        for (let i = 0; !stop; i++) {
          try {
            if (i % 4 === 3) {
              const label = `b${cycle}-${w}-${i}`
              batches.set(label, null)
              const items = Array.from({ length: 10 }, (_, j) => ({
                bank_account_id: account,
                transaction_date: '2026-07-01',
                description: `${label}-${j}`,
                amount: `${j + 1}.25`,
              }))
              const r = await api(server, 'POST', '/api-v1/transactions/batch', H, { transactions: items })
              if (r.status === 201) {
                batches.set(
                  label,
                  r.body.data.created.map((t: { id: string }) => t.id),
                )
                for (const t of r.body.data.created) acked.set(t.id, { description: t.description, amount: t.amount })
              }
            } else {
              const description = `s${cycle}-${w}-${i}`
              const r = await api(server, 'POST', '/api-v1/transactions', H, {
                bank_account_id: account,
                transaction_date: '2026-07-02',
                description,
                amount: `-${i}.10`,
              })
              if (r.status === 201) acked.set(r.body.data.id, { description, amount: r.body.data.amount })
              else expect(r.status, r.text).toBeLessThan(500)
            }
          } catch {
            // The server died under this request: not acknowledged, may or may not be there.
            if (stop) return
          }
        }
      }
      const before = acked.size
      const running = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)))
      // Let writes pile up, then kill without warning while requests are in flight.
      const deadline = Date.now() + 60_000
      while (acked.size < before + 60 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      const killed = await server.stop('SIGKILL')
      expect(killed.signal).toBe('SIGKILL')
      stop = true
      await running
      expect(acked.size, 'too few writes were acknowledged before the kill').toBeGreaterThan(before + 20)
      // Restart on the same file: recovery must succeed.
      server = await serve(db)
    }

    // Every acknowledged write is present, with what was acknowledged.
    const seen = new Map<string, { description: string; amount: number }>()
    let cursor: string | null = null
    do {
      const q: string = `/api-v1/transactions?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
      const page = await api(server, 'GET', q, H)
      expect(page.status).toBe(200)
      for (const t of page.body.data) seen.set(t.id, { description: t.description, amount: t.amount })
      cursor = page.body.pagination.next_cursor
    } while (cursor)
    for (const [id, t] of acked) expect(seen.get(id), `acknowledged ${id} (${t.description}) is missing`).toEqual(t)
    // A batch is there whole or not at all; an acknowledged batch is there whole.
    for (const [label, ids] of batches) {
      const rows = [...seen.values()].filter((t) => t.description.startsWith(`${label}-`))
      expect([0, 10], `batch ${label} is torn`).toContain(rows.length)
      if (ids) expect(rows.length).toBe(10)
    }
    expect((await server.stop()).code).toBe(0)

    // No torn rows: complete columns, who created each transaction and how; integrity ok.
    expectSqliteHealthy(db)
    const raw = new Database(db, { readonly: true })
    try {
      const bad = raw
        .prepare(
          `SELECT t.id FROM transactions t WHERE t.description IS NULL OR t.amount IS NULL OR typeof(t.amount) <> 'integer'
             OR t.created_at IS NULL OR t.account_key <> (SELECT key FROM bank_accounts WHERE id = ?) OR t.created_by IS NULL OR t.created_via IS NULL`,
        )
        .all(account)
      expect(bad).toEqual([])
      const n = (raw.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n
      expect(n).toBe(seen.size)
      expect(n).toBeGreaterThanOrEqual(acked.size)
    } finally {
      raw.close()
    }
  })
})

describe('(b) two CLI processes writing to one embedded database at once', () => {
  let sb: Sandbox
  let account: string
  beforeAll(async () => {
    sb = new Sandbox('hardening-two-cli')
    await sb.ok(['init', '--no-input', '--company', 'Two CLIs'])
    await fastKey(sb)
    account = (
      await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Shared', '--type', 'checking', '--currency', 'USD', '--json'])
    ).id
  })
  afterAll(() => sb?.cleanup())

  it('2 x N concurrent `tx create`: every one succeeds, none reports a locked database, every row is there once', async () => {
    const perChain = SOAK ? 60 : 30
    const chain = async (c: number) => {
      const out: Array<{ code: number | null; stderr: string; id?: string }> = []
      for (let i = 0; i < perChain; i++) {
        const r = await sb.run(
          [
            'tx',
            'create',
            '--account',
            account,
            '--date',
            '2026-08-01',
            `--description=cli-${c}-${i}`,
            '--amount',
            `${c}.${String(i).padStart(2, '0')}`,
            '--json',
          ],
          { env: { FINCTL_DATABASE: sb.database } },
        )
        out.push({ code: r.code, stderr: r.stderr, id: r.code === 0 ? JSON.parse(r.stdout).id : undefined })
      }
      return out
    }
    const results = (await Promise.all([chain(1), chain(2)])).flat()
    for (const r of results) {
      expect(r.stderr).not.toMatch(/locked|SQLITE_BUSY|busy/i)
      expect(r.code, r.stderr).toBe(0)
    }
    const list = await sb.json<Array<{ id: string; description: string }>>(['tx', 'list', '--all', '--json'])
    const ours = list.filter((t) => t.description.startsWith('cli-'))
    expect(ours).toHaveLength(2 * perChain)
    expect(new Set(ours.map((t) => t.description)).size).toBe(2 * perChain)
    expect(new Set(ours.map((t) => t.id))).toEqual(new Set(results.map((r) => r.id)))
    expectSqliteHealthy(sb.database)
  }, 240_000)
})

/**
 * Make a file (and its folder) read-only even for root: `chattr +i` where it is available, modes
 * otherwise. Returns an undo, or undefined when neither works here.
 */
function makeReadOnly(paths: string[]): (() => void) | undefined {
  if (process.getuid?.() !== 0) {
    execFileSync('chmod', ['a-w', ...paths])
    return () => execFileSync('chmod', ['u+w', ...paths])
  }
  try {
    execFileSync('chattr', ['+i', ...paths], { stdio: 'ignore' })
    return () => execFileSync('chattr', ['-i', ...paths], { stdio: 'ignore' })
  } catch {
    return undefined
  }
}

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex')

describe('(c) a database that cannot be written or opened', () => {
  let sb: Sandbox
  let account: string
  beforeAll(async () => {
    sb = new Sandbox('hardening-readonly')
    await sb.ok(['init', '--no-input', '--company', 'Read Only'])
    await fastKey(sb)
    account = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'RO', '--type', 'checking', '--currency', 'USD', '--json']))
      .id
    await sb.ok(['tx', 'create', '--account', account, '--date', '2026-09-01', '--description', 'before read-only', '--amount', '5.00'])
  })
  afterAll(() => sb?.cleanup())

  const expectCleanFailure = (r: { code: number | null; stderr: string; stdout: string }, what: string) => {
    expect(r.code, `${what}: ${r.stderr}`).not.toBe(0)
    expect(r.code, `${what}: ${r.stderr}`).not.toBeNull()
    // `error: <message>`, or with --json the service's error object (docs/cli.md, Output and behaviour).
    const json = (() => {
      try {
        return JSON.parse(r.stderr.trim()) as { code?: string; message?: string }
      } catch {
        return undefined
      }
    })()
    if (json) expect(typeof json.code === 'string' && typeof json.message === 'string', what).toBe(true)
    else expect(r.stderr, what).toMatch(/^error: /m)
    expect(r.stderr, `${what} printed a stack trace`).not.toMatch(/\n\s+at |SqliteError|node_modules|dist\/chunks/)
    expect(r.stdout, what).toBe('')
  }

  it('a read-only database file: writes fail with a clear error and a non-zero exit, the file is unchanged', async () => {
    // A clean checkpoint first, so the file alone holds the data.
    const raw = new Database(sb.database)
    raw.pragma('wal_checkpoint(TRUNCATE)')
    raw.close()
    const undo = makeReadOnly([sb.database])
    // As root a file mode does not stop writes: chattr +i does (a file system without it fails here, visibly).
    if (!undo) throw new Error('cannot make the database read-only here: chattr +i (as root) or chmod a-w (otherwise) failed')
    const before = sha(sb.database)
    try {
      for (const args of [
        ['tx', 'create', '--account', account, '--date', '2026-09-02', '--description', 'must not be written', '--amount', '1.00'],
        ['accounts', 'create', '--name', 'Nope', '--type', 'cash', '--currency', 'USD'],
      ]) {
        const r = await sb.run(args)
        expectCleanFailure(r, args.join(' '))
        expect(r.stderr).toMatch(/read-only|readonly|cannot open|unable to open/i)
      }
      // Reading either works or fails cleanly.
      const list = await sb.run(['tx', 'list', '--json'])
      if (list.code === 0) expect(JSON.parse(list.stdout).map((t: { description: string }) => t.description)).toEqual(['before read-only'])
      else expectCleanFailure(list, 'tx list')
    } finally {
      undo()
    }
    expect(sha(sb.database)).toBe(before)
    expectSqliteHealthy(sb.database)
    // Writable again: everything works, and the refused write is not there.
    await sb.ok(['tx', 'create', '--account', account, '--date', '2026-09-03', '--description', 'after read-only', '--amount', '2.00'])
    const all = await sb.json<Array<{ description: string }>>(['tx', 'list', '--json'])
    expect(all.map((t) => t.description).sort()).toEqual(['after read-only', 'before read-only'])
  })

  it('a read-only database folder: commands and finctl serve fail with a clear error, no stack trace', async () => {
    const undo = makeReadOnly([sb.database, sb.configDir])
    // As root a file mode does not stop writes: chattr +i does (a file system without it fails here, visibly).
    if (!undo) throw new Error('cannot make the database read-only here: chattr +i (as root) or chmod a-w (otherwise) failed')
    const before = sha(sb.database)
    try {
      const r = await sb.run(['tx', 'create', '--account', account, '--date', '2026-09-04', '--description', 'nope', '--amount', '1.00'])
      expectCleanFailure(r, 'tx create in a read-only folder')
      const list = await sb.run(['tx', 'list', '--json'])
      if (list.code !== 0) expectCleanFailure(list, 'tx list in a read-only folder')
      // The server cannot keep its write-ahead log there: it refuses to start, and says so.
      const s = await sb.run(['serve', '--port', '0', '--database', sb.database], { timeoutMs: 60_000 })
      expectCleanFailure(s, 'serve in a read-only folder')
    } finally {
      undo()
    }
    expect(sha(sb.database)).toBe(before)
    expectSqliteHealthy(sb.database)
  })

  it('a database path that cannot exist, a folder, or a file that is not a database: a clear error, and nothing is damaged', async () => {
    const junkDir = join(sb.dir, 'junk')
    mkdirSync(junkDir, { recursive: true })
    const notADb = join(junkDir, 'notes.txt')
    writeFileSync(notADb, 'these are my notes, not a database\n'.repeat(50))
    const notesBefore = sha(notADb)
    const cases: Array<[string, string]> = [
      ['under a regular file', join(notADb, 'finctl.db')],
      ['a folder', junkDir],
      ['a file that is not a database', notADb],
      ['under /proc', '/proc/finctl-hardening/finctl.db'],
    ]
    for (const [what, database] of cases) {
      const r = await sb.run(['tx', 'list', '--json'], { env: { FINCTL_DATABASE: database } })
      expectCleanFailure(r, `tx list on ${what}`)
      expect(r.stderr, what).toContain('database')
    }
    expect(sha(notADb)).toBe(notesBefore)
    expect(existsSync(join(notADb, 'finctl.db'))).toBe(false)
    // finctl serve refuses to start on it, cleanly.
    const s = await sb.run(['serve', '--port', '0', '--database', notADb], { timeoutMs: 60_000 })
    expect(s.code).not.toBe(0)
    expect(s.stderr).toMatch(/error/i)
    expect(s.stderr).not.toMatch(/\n\s+at /)
    expect(sha(notADb)).toBe(notesBefore)
  })
})

/**
 * End-to-end: `finctl tx import` as a user runs it, on real bank files (csv/ of the bank-file
 * corpus, test/helpers/bank-files.ts; those tests are skipped when it is missing), with the built
 * CLI. Exit codes, the summary, saved mappings, the rejects file, and the promise that matters
 * most: kill -9 at any moment and running the same command again leaves every row present exactly
 * once, on the embedded target and through `finctl serve`. Each case here runs the import's thread;
 * what the command refuses before it starts is tested in process (test/commands/tx/import.test.ts).
 */
import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'
import { BIN, Sandbox, fastKey, spawnServe, tsv, type ServeProcess } from '../helpers/cli.js'
import { KEPT } from '../../src/store/sqlite/bulk-load.js'

const CSV = bankFile('csv')

/** A deterministic file of `n` rows, with runs of identical rows (the same coffee twice a day). */
function bigFile(path: string, n: number): void {
  const lines = ['Booking date;Text;Amount']
  for (let i = 0; i < n; i++) {
    const day = String((i % 28) + 1).padStart(2, '0')
    const month = String(((i >> 5) % 12) + 1).padStart(2, '0')
    const same = i % 7 === 0 ? 'Coffee' : `Shop ${i}`
    lines.push(`${day}.${month}.2025;${same};-${(i % 900) + 1},${String(i % 100).padStart(2, '0')}`)
  }
  writeFileSync(path, `${lines.join('\n')}\n`)
}

describe('tx import end to end', () => {
  let sb: Sandbox
  let usd: string
  let server: ServeProcess | undefined

  const count = (account: string) => {
    const db = new Database(sb.database, { readonly: true, fileMustExist: true })
    try {
      const r = db
        .prepare(
          'SELECT count(*) AS n, count(DISTINCT import_ref) AS refs FROM transactions t JOIN bank_accounts a ON a.key = t.account_key WHERE a.id = ?',
        )
        .get(account) as { n: number; refs: number }
      return r
    } finally {
      db.close()
    }
  }
  const newAccount = async (currency = 'USD') =>
    (await sb.json(['accounts', 'create', '--name', `A${Math.random()}`, '--type', 'checking', '--currency', currency, '--json']))
      .id as string

  beforeAll(async () => {
    sb = new Sandbox('import')
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    // The init key allows 60 requests a minute: imports would wait out the limit (unit-tested).
    await fastKey(sb)
    usd = await newAccount()
  })
  afterAll(async () => {
    await server?.stop()
    sb?.cleanup()
  })

  it.skipIf(!HAS_BANK_FILES)('imports a real file, prints the summary, and a second run creates nothing and says so', async () => {
    const file = join(CSV, 'us-schwab-checking-quoted-dollar-withdrawal-deposit.csv')
    const first = await sb.run(['tx', 'import', file, '--account', usd, '--json'])
    expect(first.code, first.stderr).toBe(0)
    const s = JSON.parse(first.stdout)
    expect(s).toMatchObject({
      read: 4,
      created: 4,
      already_imported: 0,
      rejected: 0,
      amount_total: -215.27,
      created_total: -215.27,
      currency: 'USD',
    })
    expect(first.stderr).toContain('delimiter ","')
    const again = await sb.run(['tx', 'import', file, '--account', usd])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('nothing new: every row of this file was imported before')
    expect(again.stdout).toMatch(/created\t0/)
    expect(again.stdout).toMatch(/already imported\t4/)
  })

  it.skipIf(!HAS_BANK_FILES)('--save-mapping keeps the flags a file needs, --mapping NAME reuses them', async () => {
    const chf = await newAccount('CHF')
    const file = join(CSV, 'ch-ubs-fr-semicolon-debit-credit-apostrophe-thousands.csv')
    const missing = await sb.run(['tx', 'import', file, '--account', chf, '--mapping', 'ubs'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('no saved mapping "ubs"')
    const save = await sb.run([
      'tx',
      'import',
      file,
      '--account',
      chf,
      '--map',
      'description=Description 1',
      '--set',
      'exchange_rate=1.12',
      '--save-mapping',
      'ubs',
      '--dry-run',
    ])
    expect(save.code, save.stderr).toBe(0)
    expect(save.stderr).toContain('mapping saved as "ubs"')
    expect(count(chf).n).toBe(0)
    const use = await sb.json(['tx', 'import', file, '--account', chf, '--mapping', 'ubs', '--json'])
    expect(use).toMatchObject({ created: 3, amount_total: 30 })
    const mappings = JSON.parse(readFileSync(join(sb.configDir, 'mappings.json'), 'utf8'))
    expect(mappings.mappings.ubs.map).toEqual([['description', 'Description 1']])
  })

  it('rejected rows: exit 8, listed with their line numbers, written to --rejects, the rest imported', async () => {
    const acct = await newAccount()
    const file = join(sb.dir, 'mixed.csv')
    writeFileSync(file, 'Date,Description,Amount\n2026-01-02,Paper,-5.00\n2026-01-03,Broken,12.3.4\n2026-01-04,Pens,-2.50\n')
    const rejects = join(sb.dir, 'rejects.csv')
    const r = await sb.run(['tx', 'import', file, '--account', acct, '--rejects', rejects])
    expect(r.code).toBe(8)
    expect(r.stderr).toMatch(/line 3: amount/)
    expect(readFileSync(rejects, 'utf8')).toMatch(/^Date,Description,Amount,line,reason\r\n2026-01-03,Broken,12\.3\.4,3,/)
    expect(count(acct).n).toBe(2)
    const atomic = await sb.run(['tx', 'import', file, '--account', await newAccount(), '--atomic'])
    expect(atomic.code).toBe(6)
    expect(atomic.stderr).toContain('nothing was imported')
    // Totals keep the currency's decimals, also when nothing was created.
    expect(tsv(atomic.stdout)).toContainEqual(['created total', '0.00 USD'])
  })

  it('thousands of rejected rows: --json lists every one, a dry run shows every one, and no spill file is left', async () => {
    const acct = await newAccount()
    const file = join(sb.dir, 'mostly-bad.csv')
    const n = 2500
    writeFileSync(
      file,
      `${['Date,Description,Amount', '2026-01-02,Paper,-5.00', ...Array.from({ length: n }, (_, i) => `2026-01-03,Broken ${i},n/a`)].join('\n')}\n`,
    )
    const tmp = join(sb.dir, 'tmp')
    mkdirSync(tmp)
    const r = await sb.run(['tx', 'import', file, '--account', acct, '--json'], { env: { TMPDIR: tmp } })
    expect(r.code, r.stderr).toBe(8)
    const s = JSON.parse(r.stdout)
    expect(s).toMatchObject({ read: n + 1, created: 1, rejected: n })
    expect(s.rejects.map((x: { line: number }) => x.line)).toEqual(Array.from({ length: n }, (_, i) => i + 3))
    expect(s).not.toHaveProperty('rejects_spill')
    const dry = await sb.run(['tx', 'import', file, '--account', acct, '--dry-run'], { env: { TMPDIR: tmp } })
    expect(dry.code, dry.stderr).toBe(8)
    expect(dry.stderr.match(/^line \d+: amount/gm)).toHaveLength(n)
    expect(dry.stderr).toContain(`line ${n + 2}: amount`)
    expect(readdirSync(tmp)).toEqual([])
    // A rejects file that cannot be written fails the import, and the spill goes too: this file is one
    // 16 KiB read, so every row is rejected before the failed write is heard of, when the file closes.
    const small = join(sb.dir, 'one-read.csv')
    writeFileSync(
      small,
      `${['Date,Description,Amount', '2026-01-02,Paper,-5.00', ...Array.from({ length: 1050 }, () => '2026-01-03,B,x')].join('\n')}\n`,
    )
    expect(statSync(small).size).toBeLessThan(16 * 1024)
    for (const f of [file, small]) {
      const full = await sb.run(['tx', 'import', f, '--account', acct, '--rejects', '/dev/full'], { env: { TMPDIR: tmp } })
      expect(full.code, f).toBe(1)
      expect(full.stderr).toMatch(/^error: cannot write the rejects file \/dev\/full: ENOSPC/m)
      expect(readdirSync(tmp), f).toEqual([])
    }
  })

  it.skipIf(!HAS_BANK_FILES)('a --rejects path it cannot write is a clear error, after the rows are read', async () => {
    const acct = await newAccount('EUR')
    // Every row of this file is rejected (ragged, no --map): the write fails on a full disk.
    const full = await sb.run([
      'tx',
      'import',
      join(CSV, 'lt-danske-cp1257-crlf-multiline-quoted.csv'),
      '--account',
      acct,
      '--rejects',
      '/dev/full',
    ])
    expect(full.code).toBe(1)
    expect(full.stderr).toMatch(/^error: cannot write the rejects file \/dev\/full: ENOSPC/m)
    expect(full.stderr).not.toMatch(/internal error|\n\s+at /)
  })

  it.skipIf(!HAS_BANK_FILES)('an ambiguous file is refused before anything is written, naming the flag', async () => {
    const acct = await newAccount('EUR')
    const r = await sb.run(['tx', 'import', join(CSV, 'fr-style-metadata-header-footer-debit-credit-decimal-comma.csv'), '--account', acct])
    expect(r.code).toBe(6)
    expect(r.stderr).toMatch(/^error: .*--date-format/m)
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(count(acct).n).toBe(0)
  })

  /**
   * Are the secondary indexes of transactions there (all of them, or none: set aside), does a bulk
   * load hold a lease on them (src/store/sqlite/bulk-load.ts), and is the file whole?
   */
  const secondaryIndexes = () => {
    const db = new Database(sb.database, { readonly: true, fileMustExist: true })
    try {
      const names = (
        db
          .prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'transactions' AND sql NOT LIKE 'CREATE UNIQUE %'`)
          .all() as Array<{ name: string }>
      ).map((r) => r.name)
      const lease = !!db.prepare(`SELECT 1 FROM settings WHERE key = 'deferred_indexes'`).get()
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      // Set aside: all but those a load costs next to nothing (KEPT in src/store/sqlite/bulk-load.ts), and the
      // unique (account, import_ref) index with them; or all there.
      const there = names.includes('transactions_amount')
      if (there) expect(names.length).toBe(ALL_SECONDARY)
      else expect(names.sort()).toEqual([...KEPT].sort())
      const refIndex = !!db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'transactions_import_ref'`).get()
      expect(refIndex).toBe(there)
      return { index: there, lease }
    } finally {
      db.close()
    }
  }
  /** The secondary indexes of transactions in this version. */
  const ALL_SECONDARY = 9
  // These files are bulk loads: the secondary indexes are set aside while they are imported.
  const BULK = { FINCTL_BULK_LOAD_MIN_ROWS: '1000', FINCTL_BULK_LOAD_IDLE_MS: '600000' }

  /** Start an import, kill -9 it once some rows are in, run it again: exactly once. */
  async function killAndResume(profileArgs: string[], account: string, file: string, rows: number) {
    const args = [BIN, ...profileArgs, 'tx', 'import', file, '--account', account, '--batch-size', '250', '--concurrency', '2', '--json']
    const child = spawn(process.execPath, args, { cwd: sb.dir, env: sb.env(BULK), stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)))
    let seen = 0
    for (let i = 0; i < 600 && child.exitCode === null; i++) {
      seen = count(account).n
      if (seen >= 1000) break
      await new Promise((r) => setTimeout(r, 25))
    }
    child.kill('SIGKILL')
    await exited
    // A server finishes the requests it had in flight when its client died: let them settle.
    await new Promise((r) => setTimeout(r, 1000))
    const between = count(account).n
    expect(between, `the import finished before it could be killed:\n${err}`).toBeLessThan(rows)
    expect(between, err).toBeGreaterThan(0)
    // Killed in the middle of a bulk load: the index is still set aside, under a current lease.
    expect(secondaryIndexes()).toEqual({ index: false, lease: true })
    const resumed = await sb.json([...profileArgs, 'tx', 'import', file, '--account', account, '--json'], { timeoutMs: 120_000, env: BULK })
    expect(resumed.created + resumed.already_imported).toBe(rows)
    expect(resumed.already_imported).toBe(between)
    expect(count(account)).toEqual({ n: rows, refs: rows })
    const third = await sb.json([...profileArgs, 'tx', 'import', file, '--account', account, '--json'], { timeoutMs: 120_000, env: BULK })
    expect({ created: third.created, already: third.already_imported }).toEqual({ created: 0, already: rows })
  }

  it('kill -9 mid-import on the embedded target, then the same command: every row exactly once, and the secondary indexes are back', async () => {
    const file = join(sb.dir, 'big-embedded.csv')
    bigFile(file, 12_000)
    await killAndResume([], await newAccount(), file, 12_000)
    // Each import's service builds it again as it closes (the third run, all duplicates, set it aside too).
    expect(secondaryIndexes()).toEqual({ index: true, lease: false })
  }, 360_000)

  it('kill -9 mid-import against finctl serve, then the same command: every row exactly once, and the secondary indexes are back when it ends', async () => {
    server = await spawnServe(['--database', sb.database], { cwd: sb.dir, env: sb.env(BULK), stopTimeoutMs: 15_000 })
    const key = sb.profiles().profiles.local.api_key!
    await sb.ok(['profile', 'add', 'remote', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
    const file = join(sb.dir, 'big-remote.csv')
    bigFile(file, 12_000)
    await killAndResume(['--profile', 'remote'], await newAccount(), file, 12_000)
    // Each import ends its load with its last batch (bulk-load-end): the server built the indexes again
    // before it answered it, though its quiet time is ten minutes here.
    expect(secondaryIndexes()).toEqual({ index: true, lease: false })
    expect((await server.stop()).code).toBe(0)
    server = undefined
    expect(secondaryIndexes()).toEqual({ index: true, lease: false })
  }, 360_000)
})

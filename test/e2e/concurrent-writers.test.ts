/**
 * End-to-end: several finctl processes writing one SQLite file at once, as two terminals would.
 * Two `tx import`s into one account (each a bulk load), the same file twice, an import beside
 * `tx update`, `tx bulk-update` and `reports`, and `finctl serve` beside the embedded CLI: every
 * command exits 0, and every row is there exactly once (count, sum, the account's balance).
 */
import Database from 'better-sqlite3'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toMinor } from '../../src/kernel/money.js'
import { Sandbox, fastKey, spawnServe, type CliResult } from '../helpers/cli.js'

/** Imports of this many rows are bulk loads here (their indexes set aside), as 10,000 would be by default. */
const BULK = { FINCTL_BULK_LOAD_MIN_ROWS: '1000' }
const ROWS = 6000

/** A bank file of `n` rows named `tag N`; its amounts' sum in cents. */
function bankFile(path: string, n: number, tag: string): number {
  const lines = ['Booking date;Text;Amount']
  let cents = 0
  for (let i = 0; i < n; i++) {
    const units = (i % 900) + 1
    const fraction = i % 100
    cents -= units * 100 + fraction
    const day = String((i % 28) + 1).padStart(2, '0')
    const month = String(((i >> 5) % 12) + 1).padStart(2, '0')
    lines.push(`${day}.${month}.2025;${tag} ${i};-${units},${String(fraction).padStart(2, '0')}`)
  }
  writeFileSync(path, `${lines.join('\n')}\n`)
  return cents
}

describe('several writers on one SQLite file', () => {
  let sb: Sandbox

  const stored = (account: string) => {
    const db = new Database(sb.database, { readonly: true, fileMustExist: true })
    try {
      return db
        .prepare(
          `SELECT count(*) AS n, count(DISTINCT import_ref) AS refs, coalesce(sum(amount), 0) AS sum
           FROM transactions t JOIN bank_accounts a ON a.key = t.account_key WHERE a.id = ?`,
        )
        .get(account) as { n: number; refs: number; sum: number }
    } finally {
      db.close()
    }
  }
  const balance = async (account: string) => {
    const a = await sb.json(['accounts', 'get', account, '--json'])
    return toMinor(String(a.current_balance), 'USD') - toMinor(String(a.opening_balance), 'USD')
  }
  const newAccount = async () =>
    (await sb.json(['accounts', 'create', '--name', `W${Math.random()}`, '--type', 'checking', '--currency', 'USD', '--json'])).id as string
  const expectOk = (r: CliResult, what: string) => {
    expect(r.code, `${what}:\n${r.stderr}`).toBe(0)
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /)
  }
  const importJson = (r: CliResult) => JSON.parse(r.stdout) as { created: number; already_imported: number; elapsed_ms: number }

  beforeAll(async () => {
    sb = new Sandbox('writers')
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    await fastKey(sb)
  })
  afterAll(() => sb?.cleanup())

  it('two tx imports into one account at once, each a bulk load: both exit 0, every row once', async () => {
    const account = await newAccount()
    const a = join(sb.dir, 'a.csv')
    const b = join(sb.dir, 'b.csv')
    const sum = bankFile(a, ROWS, 'A') + bankFile(b, ROWS, 'B')
    const started = performance.now()
    const [ra, rb] = await Promise.all(
      [a, b].map((f) => sb.run(['tx', 'import', f, '--account', account, '--json'], { env: BULK, timeoutMs: 180_000 })),
    )
    const seconds = (performance.now() - started) / 1000
    expectOk(ra, 'first import')
    expectOk(rb, 'second import')
    expect(importJson(ra).created + importJson(rb).created).toBe(2 * ROWS)
    expect(stored(account)).toEqual({ n: 2 * ROWS, refs: 2 * ROWS, sum })
    expect(await balance(account)).toBe(sum)
    process.stderr.write(`two imports of ${ROWS} rows at once: ${seconds.toFixed(1)} s\n`)
  }, 480_000)

  it("the same file imported twice at once: every row once, the second run finds the first run's rows", async () => {
    const account = await newAccount()
    const file = join(sb.dir, 'same.csv')
    const sum = bankFile(file, ROWS, 'S')
    const runs = await Promise.all(
      [0, 1].map(() => sb.run(['tx', 'import', file, '--account', account, '--json'], { env: BULK, timeoutMs: 180_000 })),
    )
    for (const r of runs) expectOk(r, 'import')
    const [x, y] = runs.map(importJson)
    expect(x.created + y.created).toBe(ROWS)
    expect(x.already_imported + y.already_imported).toBe(ROWS)
    expect(stored(account)).toEqual({ n: ROWS, refs: ROWS, sum })
    expect(await balance(account)).toBe(sum)
  }, 480_000)

  it('an import beside tx update, tx bulk-update and reports: all exit 0, every row once, every change kept', async () => {
    const account = await newAccount()
    // Rows to change while the import runs.
    const seed = join(sb.dir, 'seed.csv')
    const seeded = bankFile(seed, 50, 'Seed')
    expectOk(await sb.run(['tx', 'import', seed, '--account', account]), 'seed import')
    const ids = (await sb.json(['tx', 'list', '--account', account, '--all', '--json'])).map((t: { id: string }) => t.id) as string[]
    const file = join(sb.dir, 'beside.csv')
    const sum = bankFile(file, ROWS, 'Beside')

    const importing = sb.run(['tx', 'import', file, '--account', account, '--json'], { env: BULK, timeoutMs: 180_000 })
    let done = false
    void importing.finally(() => (done = true))
    const others: Array<[string, CliResult]> = []
    for (let round = 0; round < 3 || !done; round++) {
      const id = ids[round % ids.length]
      const results = await Promise.all([
        sb.run(['tx', 'update', id, '--category', `Round ${round}`, '--json']),
        sb.run(['tx', 'bulk-update', '--ids', ids.slice(0, 20).join(','), '--set', `merchant_name=M${round}`, '--yes', '--json']),
        sb.run(['reports', 'summary', '--json']),
      ])
      others.push(...results.map((r, i): [string, CliResult] => [['tx update', 'tx bulk-update', 'reports summary'][i], r]))
      if (round > 40) break
    }
    const imported = await importing
    expectOk(imported, 'import')
    for (const [what, r] of others) expectOk(r, what)
    expect(importJson(imported).created).toBe(ROWS)
    expect(stored(account)).toEqual({ n: ROWS + 50, refs: ROWS + 50, sum: sum + seeded })
    expect(await balance(account)).toBe(sum + seeded)
    const changed = (await sb.json(['tx', 'list', '--account', account, '--search', 'Seed', '--all', '--json'])) as Array<{
      merchant_name: string
    }>
    const last = others.filter(([w]) => w === 'tx bulk-update').length - 1
    expect(changed.filter((t) => t.merchant_name === `M${last}`)).toHaveLength(20)
    process.stderr.write(`an import beside ${others.length} other commands\n`)
  }, 480_000)

  it('finctl serve and the embedded CLI on one file: an import through each at once, every row once', async () => {
    const server = await spawnServe(['--database', sb.database], { cwd: sb.dir, env: sb.env(BULK), stopTimeoutMs: 30_000 })
    try {
      const key = sb.profiles().profiles.local.api_key!
      await sb.ok(['profile', 'add', 'served', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
      const account = await newAccount()
      const a = join(sb.dir, 'embedded.csv')
      const b = join(sb.dir, 'served.csv')
      const sum = bankFile(a, ROWS, 'Here') + bankFile(b, ROWS, 'There')
      const [ra, rb] = await Promise.all([
        sb.run(['tx', 'import', a, '--account', account, '--json'], { env: BULK, timeoutMs: 180_000 }),
        sb.run(['--profile', 'served', 'tx', 'import', b, '--account', account, '--json'], { env: BULK, timeoutMs: 180_000 }),
      ])
      expectOk(ra, 'embedded import')
      expectOk(rb, 'import through finctl serve')
      expect(importJson(ra).created + importJson(rb).created).toBe(2 * ROWS)
      expect(stored(account)).toEqual({ n: 2 * ROWS, refs: 2 * ROWS, sum })
      expect(await balance(account)).toBe(sum)
      expect(server.stderr()).not.toMatch(/"status":5\d\d/)
    } finally {
      expect((await server.stop()).code).toBe(0)
    }
  }, 480_000)
})

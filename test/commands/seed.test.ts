/**
 * `finctl seed` in process (test/helpers/in-process-cli.ts; moved from test/e2e/seed.test.ts,
 * which keeps the run through `finctl serve`) on the shipped example: the first run creates, the
 * second finds everything again, a changed value is updated, a broken file is refused before any
 * write (exit 6), --env-out and --dry-run, a missing file (exit 2).
 */
import Database from 'better-sqlite3'
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FULL_KEY, ROOT } from '../helpers/cli.js'
import { InProcessSandbox, fastKey } from '../helpers/in-process-cli.js'

const EXAMPLES = resolve(ROOT, 'examples')
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('finctl seed, in process', () => {
  let sb: InProcessSandbox
  let seedFile: string
  const env = { COMPANY_CURRENCY: 'USD' }

  const counts = () => {
    const db = new Database(sb.database, { readonly: true, fileMustExist: true })
    try {
      const n = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
      return { accounts: n('bank_accounts'), transactions: n('transactions'), statements: n('bank_statements'), keys: n('api_keys') }
    } finally {
      db.close()
    }
  }
  const statuses = (report: { steps: Array<{ step: string; status: string }> }) =>
    Object.fromEntries(report.steps.map((s) => [s.step, s.status]))
  /** The example, copied with its files into the sandbox and changed by `edit`. */
  const variant = (name: string, edit: (seed: any) => void) => {
    const seed = JSON.parse(readFileSync(join(EXAMPLES, 'seed.json'), 'utf8'))
    edit(seed)
    const path = join(sb.dir, name)
    writeFileSync(path, JSON.stringify(seed, null, 2))
    return path
  }

  beforeAll(async () => {
    sb = new InProcessSandbox('seed')
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    // The init key allows 60 requests a minute; these runs make more.
    await fastKey(sb)
    for (const f of ['seed.json', 'seed-transactions.csv', 'seed-statement.csv']) copyFileSync(join(EXAMPLES, f), join(sb.dir, f))
    seedFile = join(sb.dir, 'seed.json')
  })
  afterAll(() => sb?.cleanup())

  it('--dry-run on a fresh company plans every step and writes nothing', async () => {
    const before = counts()
    const r = await sb.run(['seed', seedFile, '--dry-run', '--env-out', join(sb.dir, 'dry.env'), '--json'], { env })
    expect(r.code, r.stderr).toBe(0)
    const plan = JSON.parse(r.stdout)
    expect(plan.dry_run).toBe(true)
    expect(Object.values(statuses(plan))).toEqual(Array(7).fill('would create'))
    expect(counts()).toEqual(before)
    expect(() => statSync(join(sb.dir, 'dry.env'))).toThrow()
  })

  it('the first run creates everything; --env-out holds the ids and the new key, mode 0600', async () => {
    const before = counts()
    const envOut = join(sb.dir, 'seed.env')
    const r = await sb.run(['seed', seedFile, '--env-out', envOut, '--json'], { env })
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(Object.values(statuses(report))).toEqual(Array(7).fill('created'))
    expect(counts()).toEqual({
      accounts: before.accounts + 2,
      transactions: before.transactions + 2 + 25 + 6 + 3,
      statements: before.statements + 1,
      keys: before.keys + 1,
    })

    expect(statSync(envOut).mode & 0o777).toBe(0o600)
    const lines = Object.fromEntries(
      readFileSync(envOut, 'utf8')
        .split('\n')
        .filter((l) => /^[A-Z]/.test(l))
        .map((l) => l.split('=') as [string, string]),
    )
    expect(Object.keys(lines)).toEqual([
      'ACCOUNTS_OPERATING_ID',
      'ACCOUNTS_RESERVE_ID',
      'TRANSACTIONS_PAYROLL_IDS',
      'TRANSACTIONS_CARD_SPEND_IDS',
      'STATEMENTS_RESERVE_MARCH_ID',
      'KEYS_CI_ID',
      'KEYS_CI_KEY',
    ])
    expect(lines.ACCOUNTS_OPERATING_ID).toMatch(UUID)
    expect(lines.TRANSACTIONS_CARD_SPEND_IDS.split(',')).toHaveLength(25)
    expect(sb.remember(lines.KEYS_CI_KEY)).toMatch(FULL_KEY)
    expect(report.env).toEqual(lines)
    // The key works, with the scopes the seed gave it.
    const me = await sb.json(['keys', 'show', '--json'], { env: { FINCTL_API_KEY: lines.KEYS_CI_KEY } })
    expect(me).toMatchObject({ name: 'ci-readonly', scopes: ['read'] })
    const acct = await sb.json(['accounts', 'get', lines.ACCOUNTS_OPERATING_ID, '--json'])
    expect(acct).toMatchObject({ name: 'Operating', institution_name: 'First Example Bank', opening_balance: 25000 })
  })

  it('a second run creates nothing, reports every step as exists, and keeps the key line of --env-out (with --overwrite)', async () => {
    const before = counts()
    const envOut = join(sb.dir, 'seed.env')
    const first = readFileSync(envOut, 'utf8')
    // The file exists: replacing it takes --overwrite, asked before any step runs.
    const refused = await sb.run(['seed', seedFile, '--env-out', envOut], { env })
    expect([refused.code, refused.stderr]).toEqual([
      2,
      `error: --env-out: ${envOut} already exists: give a new path, or --overwrite to replace it\n`,
    ])
    const r = await sb.run(['seed', seedFile, '--env-out', envOut, '--overwrite'], { env })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.split('\n')[0]).toBe('STEP\tKIND\tSTATUS\tID\tDETAIL')
    const rows = r.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'))
    expect(rows.map((c) => c[2])).toEqual(Array(7).fill('exists'))
    expect(counts()).toEqual(before)
    expect(r.stderr).toContain('KEYS_CI_KEY: kept from the previous')
    const strip = (t: string) =>
      t
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .join('\n')
    expect(strip(readFileSync(envOut, 'utf8'))).toBe(strip(first))

    // Without the previous file the key's value is unknown: said so, not invented.
    const fresh = join(sb.dir, 'fresh.env')
    const again = await sb.run(['seed', seedFile, '--env-out', fresh], { env })
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('KEYS_CI_KEY: the API key existed before this run')
    expect(readFileSync(fresh, 'utf8')).toMatch(/^# KEYS_CI_KEY is not known/m)
    expect(readFileSync(fresh, 'utf8')).not.toMatch(/^KEYS_CI_KEY=/m)

    const dry = await sb.json(['seed', seedFile, '--dry-run', '--json'], { env })
    expect(Object.values(statuses(dry))).toEqual(Array(7).fill('exists'))
  })

  it('a changed value updates that object and says so', async () => {
    const changed = variant('changed.json', (s) => {
      s.steps[0].institution_name = 'Second Example Bank'
      s.steps[2].items[1].amount = '-8350.00'
    })
    copyFileSync(join(EXAMPLES, 'seed-transactions.csv'), join(sb.dir, 'seed-transactions.csv'))
    const before = counts()
    const dry = await sb.json(['seed', changed, '--dry-run', '--json'], { env })
    expect(statuses(dry)).toMatchObject({ operating: 'would update', payroll: 'would create or update', card_spend: 'exists' })
    const r = await sb.run(['seed', changed, '--json'], { env })
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(statuses(report)).toEqual({
      operating: 'updated',
      reserve: 'exists',
      payroll: 'updated',
      card_spend: 'exists',
      bank_csv: 'exists',
      reserve_march: 'exists',
      ci: 'exists',
    })
    expect(report.steps[2].counts).toEqual({ created: 0, updated: 1, exists: 1, failed: 0 })
    expect(counts()).toEqual(before)
    const payroll = await sb.json(['tx', 'get', report.env.TRANSACTIONS_PAYROLL_IDS.split(',')[1], '--json'])
    expect(payroll).toMatchObject({ description: 'January payroll', amount: -8350 })
    expect(await sb.json(['accounts', 'get', report.env.ACCOUNTS_OPERATING_ID, '--json'])).toMatchObject({
      institution_name: 'Second Example Bank',
    })

    // What the service cannot change is a failed step (exit 8), listed; the other steps still run.
    const fixed = variant('fixed.json', (s) => {
      s.steps[1].currency_code = 'EUR'
    })
    const f = await sb.run(['seed', fixed], { env })
    expect(f.code).toBe(8)
    expect(f.stderr).toMatch(/error: step "reserve" \(account\): .*currency_code is USD, the seed says EUR/)
    expect(f.stderr).toMatch(/error: step "reserve_march" \(statement\): not run: it needs accounts\.reserve, which failed/)
    expect(f.stdout).toMatch(/^card_spend\ttransactions\texists\t/m)
  })

  it('a broken reference or an unset variable fails validation before any write (exit 6)', async () => {
    const before = counts()
    const broken = variant('broken.json', (s) => {
      s.steps.unshift({ account: 'extra', account_type: 'cash', currency_code: 'USD' })
      s.steps[3].bank_account_id = '${accounts.operatin.id}'
    })
    const r = await sb.run(['seed', broken], { env })
    expect(r.code).toBe(6)
    expect(r.stderr).toMatch(/^error: .*the seed file is not valid \(1 problem\); nothing was written/m)
    expect(r.stderr).toMatch(/steps\[3\] \(transactions "payroll"\) bank_account_id: .*no accounts step "operatin" before this one/)
    const unset = await sb.run(['seed', seedFile], { env: { COMPANY_CURRENCY: undefined } })
    expect(unset.code).toBe(6)
    expect(unset.stderr).toMatch(/steps\[0\] \(account "operating"\) currency_code: .*COMPANY_CURRENCY is not set/)
    expect(counts()).toEqual(before)
    const usage = await sb.run(['seed', join(sb.dir, 'nope.json')])
    expect(usage.code).toBe(2)
  })

  it('a generated range around 0 never makes a 0.00 row, which the service refuses', async () => {
    const account = { account: 'wide', name: 'Wide', account_type: 'checking', currency_code: 'USD' }
    const generate = { count: 5000, seed: 7, from: '2026-01-01', to: '2026-06-30', amount: { min: '-500.00', max: '500.00' } }
    const path = join(sb.dir, 'wide.json')
    writeFileSync(
      path,
      JSON.stringify({
        steps: [
          account,
          { transactions: 'spread', bank_account_id: '${accounts.wide.id}', generate: { ...generate, merchants: ['Shop'] } },
        ],
      }),
    )
    const r = await sb.run(['seed', path, '--json'], { env })
    expect(r.code, r.stderr).toBe(0)
    expect(statuses(JSON.parse(r.stdout))).toEqual({ wide: 'created', spread: 'created' })
    const db = new Database(sb.database, { readonly: true, fileMustExist: true })
    try {
      const rows = db.prepare("SELECT count(*) AS n, sum(amount = 0) AS zero FROM transactions WHERE import_ref LIKE 'seed.spread.%'").get()
      expect(rows).toEqual({ n: 5000, zero: 0 })
    } finally {
      db.close()
    }
    const again = await sb.run(['seed', path, '--json'], { env })
    expect(again.code, again.stderr).toBe(0)
    expect(statuses(JSON.parse(again.stdout))).toEqual({ wide: 'exists', spread: 'exists' })
  })

  it('--env-out must not be a file a step reads, with or without --overwrite', async () => {
    const csv = join(sb.dir, 'seed-transactions.csv')
    const text = readFileSync(csv, 'utf8')
    for (const overwrite of [[], ['--overwrite']]) {
      const r = await sb.run(['seed', seedFile, '--env-out', csv, ...overwrite], { env })
      expect([r.code, r.stderr]).toEqual([2, 'error: --env-out must not be the file of step "bank_csv": it would be overwritten\n'])
    }
    expect(readFileSync(csv, 'utf8')).toBe(text)
  })

  it('each transactions step is a seed batch: imports list shows it, imports revert takes its rows back, a new run makes them again', async () => {
    const path = join(sb.dir, 'batches.json')
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        steps: [
          { account: 'batched', name: 'Batched', account_type: 'checking', currency_code: 'USD' },
          {
            transactions: 'lunches',
            bank_account_id: '${accounts.batched.id}',
            items: [
              { transaction_date: '2026-02-02', description: 'Lunch one', amount: '-12.50' },
              { transaction_date: '2026-02-03', description: 'Lunch two', amount: '-9.75' },
              { transaction_date: '2026-02-04', description: 'Lunch three', amount: '-11.00' },
            ],
          },
        ],
      }),
    )
    const first = await sb.run(['seed', path, '--json'], { env })
    expect(first.code, first.stderr).toBe(0)
    const account = JSON.parse(first.stdout).env.ACCOUNTS_BATCHED_ID as string
    type Batch = { id: string; kind: string; state: string; file_name: string; counts: { created: number; existing: number } }
    const listed = await sb.json<Batch[]>(['imports', 'list', '--account', account, '--kind', 'seed', '--json'])
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({
      kind: 'seed',
      state: 'completed',
      file_name: 'batches.json: lunches',
      counts: { created: 3, existing: 0 },
    })
    const rows = () => sb.json<Array<{ description: string }>>(['tx', 'list', '--account', account, '--json'])
    expect((await rows()).map((t) => t.description).sort()).toEqual(['Lunch one', 'Lunch three', 'Lunch two'])

    const reverted = await sb.json<{ deleted: number; batch: { state: string } }>(['imports', 'revert', listed[0].id, '--yes', '--json'])
    expect(reverted).toMatchObject({ deleted: 3, batch: { state: 'reverted' } })
    expect(await rows()).toEqual([])
    expect((await sb.run(['verify'])).code).toBe(0)

    // The refs the revert freed: the next run creates the rows again, as a batch of its own.
    const again = await sb.run(['seed', path, '--json'], { env })
    expect(again.code, again.stderr).toBe(0)
    expect(statuses(JSON.parse(again.stdout))).toEqual({ batched: 'exists', lunches: 'created' })
    expect(await rows()).toHaveLength(3)
    const after = await sb.json<Batch[]>(['imports', 'list', '--account', account, '--json'])
    expect(after.map((b) => [b.kind, b.state, b.counts.created])).toEqual([
      ['seed', 'completed', 3],
      ['seed', 'reverted', 3],
    ])
  })
})

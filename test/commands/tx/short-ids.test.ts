/**
 * Ids people can type and money written one way, in process (moved from
 * test/e2e, which it needed nothing of): a transaction by a unique suffix or prefix of 6+ hex
 * digits, an ambiguous part (exit 2, the candidates listed), too few digits (exit 2), none (exit 5,
 * not found); an account by its name; JSON keeps full ids; amounts grouped by --locale / LANG in
 * the delete question, plain in csv and JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('short ids and names', () => {
  let sb: InProcessSandbox
  let ids: string[]

  beforeAll(async () => {
    sb = new InProcessSandbox('short-ids')
    await sb.ok(['init', '--demo', '--password-stdin', '--no-input'], { input: 'password-for-short-ids\n' })
    ids = (await sb.json<Array<{ id: string }>>(['tx', 'list', '--json'])).map((t) => t.id)
  })
  afterAll(() => sb?.cleanup())

  it('takes a unique suffix (what tables show) or the whole id', async () => {
    const t = await sb.json<{ id: string }>(['tx', 'get', ids[0].slice(-8), '--json'])
    expect(t.id).toBe(ids[0])
    const six = await sb.json<{ id: string }>(['tx', 'get', ids[1].slice(-6), '--json'])
    expect(six.id).toBe(ids[1])
  })

  it('an ambiguous prefix: exit 2 listing the candidates; too few digits: exit 2; none: not found', async () => {
    // The demo's ids were made together: UUIDv7s share their first digits (the time).
    const r = await sb.run(['tx', 'get', ids[0].slice(0, 8)])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/matches \d+ transactions; give more of the id/)
    for (const id of ids.slice(0, 3)) expect(r.stderr).toContain(id)
    const short = await sb.run(['tx', 'get', 'abc12'])
    expect(short.code).toBe(2)
    expect(short.stderr).toMatch(/too short|6 or more/)
    const none = await sb.run(['tx', 'get', 'ffffffffff'])
    expect(none.code).toBe(5)
  })

  it('an account by its name, anywhere an account is taken; JSON keeps full ids', async () => {
    const rows = await sb.json<Array<{ id: string; bank_account_id: string }>>(['tx', 'list', '--account', 'operating account', '--json'])
    expect(rows.map((t) => t.id).sort()).toEqual([...ids].sort())
    const acct = await sb.json<{ id: string; name: string }>(['accounts', 'get', 'Operating account', '--json'])
    expect(acct.id).toBe(rows[0].bank_account_id)
    const bySuffix = await sb.json<{ id: string }>(['accounts', 'get', acct.id.slice(-8), '--json'])
    expect(bySuffix.id).toBe(acct.id)
  })

  it('a statement by its short id, uploaded to an account named by its name', async () => {
    const up = await sb.json<{ id: string }>([
      'statements',
      'upload',
      `${ROOT}/examples/seed-statement.csv`,
      '--account',
      'Operating account',
      '--json',
    ])
    const got = await sb.json<{ id: string }>(['statements', 'get', up.id.slice(-8), '--json'])
    expect(got.id).toBe(up.id)
    const rows = await sb.json<unknown[]>(['statements', 'transactions', up.id.slice(-6), '--json'])
    expect(rows.length).toBeGreaterThan(0)
  })

  it('the delete question shows the date, amount (grouped by --locale) and description', async () => {
    const t = await sb.json<{ id: string; transaction_date: string; description: string; amount: number }>(['tx', 'get', ids[0], '--json'])
    const r = await sb.run(['--locale', 'de-DE', 'tx', 'delete', ids[0].slice(-8), '--no-input'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(t.transaction_date)
    expect(r.stderr).toContain(t.description)
    expect(r.stderr).toMatch(/-1\.500,00 USD/)
    const en = await sb.run(['tx', 'delete', ids[0].slice(-8), '--no-input'], { env: { LANG: 'en_US.UTF-8', LC_ALL: undefined } })
    expect(en.stderr).toMatch(/-1,500\.00 USD/)
  })

  it('csv and JSON stay plain, whatever the locale', async () => {
    const csv = await sb.ok(['--locale', 'de-DE', 'tx', 'list', '--output', 'csv'])
    expect(csv.stdout).toMatch(/,-1500\.00,USD/)
    expect(csv.stdout).toContain(ids[0])
    const bad = await sb.run(['--locale', 'xx_not-a-locale!', 'tx', 'list'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--locale')
  })
})

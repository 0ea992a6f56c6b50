/**
 * In process, the case: in the demo company's USD account, `tx create --amount -120 --currency EUR
 * --exchange-rate 1.05` moves `accounts get`, `accounts list` and `reports summary` alike, by
 * -126.00 USD (it moved the balance by -120.00 before, while the summary said -126.00); and what a
 * balance leaves out is said. The same figures through `finctl serve`:
 * test/commands/accounts/balances-served.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import { balanceViews, eurOnTheDemoAccount } from '../../helpers/balance-views.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('a EUR transaction on the demo USD account, in process', () => {
  let sb: InProcessSandbox
  let account: string
  let before: number
  const today = new Date().toISOString().slice(0, 10)
  const from = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10)
  const views = (profile: string[]) => balanceViews(sb, account, profile)

  beforeAll(async () => {
    sb = new InProcessSandbox('balances')
    ;({ account, before } = await eurOnTheDemoAccount(sb))
  })
  afterAll(() => sb?.cleanup())

  it('accounts get, accounts list and reports summary all move by -126.00 USD', async () => {
    expect(await views([])).toEqual({ get: before - 12600, list: before - 12600, summary: before - 12600 })
    // The people's views say the same.
    const got = tsv((await sb.ok(['accounts', 'get', account])).stdout)
    const after = before - 12600
    const want = `${after < 0 ? '-' : ''}${Math.trunc(Math.abs(after) / 100)}.${String(Math.abs(after) % 100).padStart(2, '0')} USD`
    expect(Object.fromEntries(got.slice(1))).toMatchObject({ current_balance: want })
    const listed = tsv((await sb.ok(['accounts', 'list'])).stdout)
    expect(listed[1][listed[0].indexOf('BALANCE')]).toBe(want)
  })

  it('a balance that leaves out a transaction with no rate into its currency says so, in every view, even with --quiet', async () => {
    const eur = (
      await sb.json([
        'accounts',
        'create',
        '--name',
        'Euros',
        '--type',
        'checking',
        '--currency',
        'EUR',
        '--opening-balance',
        '100',
        '--opening-rate',
        '1.1',
        '--json',
      ])
    ).id
    await sb.ok([
      'tx',
      'create',
      '--account',
      eur,
      '--date',
      today,
      '--description',
      'Euro row',
      '--amount',
      '-10',
      '--exchange-rate',
      '1.1',
    ])
    await sb.ok([
      'tx',
      'create',
      '--account',
      eur,
      '--date',
      today,
      '--description',
      'London',
      '--amount',
      '-1234.5',
      '--currency',
      'GBP',
      '--exchange-rate',
      '1.25',
    ])
    const note =
      'note: the balance of "Euros" leaves out 1 transaction in GBP (-1,234.50 GBP): they have no exchange rate into EUR, the account\'s currency'
    const got = await sb.ok(['accounts', 'get', eur, '--quiet'])
    expect(got.stderr).toContain(note)
    expect(Object.fromEntries(tsv(got.stdout).slice(1))).toMatchObject({
      current_balance: '90.00 EUR',
      unconverted_transactions: '1 in GBP (-1234.50 GBP)',
    })
    const json = await sb.run(['accounts', 'get', eur, '--json'])
    expect(JSON.parse(json.stdout)).toMatchObject({
      current_balance: 90,
      unconverted_transactions: [{ currency_code: 'GBP', count: 1, amount: -1234.5 }],
    })
    expect(json.stderr).toContain(note)
    expect((await sb.ok(['accounts', 'list'])).stderr).toContain(note)
    const summary = await sb.ok(['reports', 'summary', '--from', from, '--to', today])
    expect(summary.stderr).toContain(note)
    const rows = tsv(summary.stdout)
    // The account's balance line carries the account's currency, not the report's.
    expect(rows.find((r) => r[1] === 'Euros (EUR)')).toEqual(['account balance', 'Euros (EUR)', 'EUR', '90.00', ''])
  })
})

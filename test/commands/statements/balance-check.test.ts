/**
 * A statement whose balances do not add up: `statements upload` names the difference,
 * expected against computed closing balance in the account's currency, and exits 6; its lines are in.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

const mt940 = (closing: string) =>
  [
    ':20:STARTUMS',
    ':25:NL91ABNA0417164300',
    ':28C:00012/001',
    ':60F:C260102EUR12500,00',
    ':61:2601050105D1250,00NTRFNONREF//2601050001',
    ':86:HUUR KANTOOR JANUARI 2026',
    ':61:2601060106C1318,40NTRFNONREF//2601060002',
    ':86:FACTUUR RE-2025-118',
    `:62F:C260106EUR${closing}`,
    '-',
    '',
  ].join('\r\n')

describe('statements upload, balance check, in process', () => {
  let sb: InProcessSandbox
  const account = () => sb.newAccount({ currency: 'EUR' })

  beforeAll(async () => {
    sb = new InProcessSandbox('balance-check')
    await sb.ok(['init', '--no-input', '--currency', 'EUR'])
  })
  afterAll(() => sb?.cleanup())

  it('a mismatch exits 6 naming the closing balances and their difference; the lines stay', async () => {
    const file = sb.path('off.sta')
    writeFileSync(file, mt940('12600,00'))
    const acct = await account()
    const r = await sb.run(['statements', 'upload', file, '--account', acct])
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toContain(
      "balance check mismatch: the file's closing balance is 12,600.00 EUR, its opening balance 12,500.00 EUR and its lines (68.40 EUR) make 12,568.40 EUR: a difference of 31.60 EUR",
    )
    expect(r.stderr).toMatch(/its 2 lines are imported/)
    expect((await sb.json<unknown[]>(['tx', 'list', '--account', acct, '--json'])).length).toBe(2)
    const j = await sb.run(['statements', 'upload', file, '--account', await account(), '--json'])
    expect(j.code).toBe(6)
    expect(JSON.parse(j.stderr.trim().split('\n').at(-1)!)).toMatchObject({ code: 'balance_mismatch' })
  })

  it('balances that add up exit 0', async () => {
    const file = sb.path('ok.sta')
    writeFileSync(file, mt940('12568,40'))
    const r = await sb.run(['statements', 'upload', file, '--account', await account()])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('balance check ok')
  })

  it("a CSV's running balance checked on every row is said as a fact, not a warning", async () => {
    const file = sb.path('running.csv')
    const rows = [
      ['2026-01-05', 'Rent', '-1250.00', '11250.00'],
      ['2026-01-06', 'Invoice RE-118', '1318.40', '12568.40'],
      ['2026-01-09', 'Telephone', '-64.90', '12503.50'],
      ['2026-01-12', 'Invoice RE-119', '980.00', '13483.50'],
      ['2026-01-15', 'Office supplies', '-120.35', '13363.15'],
      ['2026-01-20', 'Bank fee', '-9.50', '13353.65'],
    ]
    writeFileSync(file, `Date,Description,Amount,Balance\n${rows.map((r) => r.join(',')).join('\n')}\n`)
    const r = await sb.run(['statements', 'upload', file, '--account', await account()])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/^balance checked on 6 of 6 rows \(Balance\)$/m)
    expect(r.stderr).not.toContain('warning: balance checked')
  })
})

/**
 * The CLI in process (test/helpers/in-process-cli.ts): bank CSVs read by their own evidence, embedded and towards
 * `finctl serve`: a running balance tells money out from money in and is checked on every row
 * (exit 0 with "balance checked"; a row that breaks it refuses the file, exit 6, nothing written);
 * a column of kroner is the currency whatever its header says (a USD account refuses the file);
 * --map keeps a preamble's header and currency; statement uploads take the same evidence and an
 * OFX transaction after a stray </BANKTRANLIST>. Fixtures: test/fixtures/csv-evidence (its README).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stopServeAndCleanup, type ServeProcess } from '../../helpers/cli.js'
import { BOTH_TARGETS, type InProcessSandbox, servedSandbox } from '../../helpers/in-process-cli.js'

const fixture = (name: string) => join(import.meta.dirname, '../../fixtures/csv-evidence', name)

interface Summary {
  created: number
  rejected: number
  amount_total: number
  balance_checked?: { rows: number; of: number; column: string }
}

describe('bank CSVs read by their own evidence, through the CLI', () => {
  let sb: InProcessSandbox
  let server: ServeProcess | undefined

  beforeAll(async () => {
    ;({ sb, server } = await servedSandbox('csv-evidence', 'USD'))
  })
  afterAll(() => stopServeAndCleanup(server, sb))

  describe.each(BOTH_TARGETS)('%s', (target, via) => {
    const run = (args: string[]) => sb.run([...via, ...args])
    const account = async (currency: string, type = 'checking') =>
      (
        await sb.json([
          ...via,
          'accounts',
          'create',
          '--name',
          `E${Math.random()}`,
          '--type',
          type,
          '--currency',
          currency,
          '--opening-balance-date',
          '2020-01-01',
          '--json',
        ])
      ).id as string
    const stored = async (acct: string) =>
      (await sb.json<Array<{ amount: number }>>([...via, 'tx', 'list', '--account', acct, '--all', '--json'])).map((t) => t.amount)

    it('a header-less file of money out, money in and a balance: the balance tells them apart and checks every row', async () => {
      const cad = await account('CAD')
      // The company is in USD: a row in CAD carries its rate.
      const rate = ['--set', 'exchange_rate=0.73']
      const r = await run([
        'tx',
        'import',
        fixture('ca-td-chequing-no-header-withdrawal-deposit-balance.csv'),
        '--account',
        cad,
        ...rate,
        '--json',
      ])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain(
        'money out <- column 3, money in <- column 4: column 5 is a running balance that chains on all 6 rows (the balance after each row, the oldest row first)',
      )
      expect(JSON.parse(r.stdout) as Summary).toMatchObject({
        created: 6,
        rejected: 0,
        amount_total: 1840.3,
        balance_checked: { rows: 6, of: 6, column: 'column 5' },
      })
      const table = await run([
        'tx',
        'import',
        fixture('ca-td-chequing-no-header-withdrawal-deposit-balance.csv'),
        '--account',
        cad,
        ...rate,
      ])
      expect(table.code, table.stderr).toBe(0)
      expect(table.stdout).toMatch(/balance checked\s+on 6 of 6 rows \(column 5\)/)
      expect(table.stderr).toContain('nothing new')
      // On a credit card, the balance is what is owed: the charges are money out all the same.
      const card = await account('CAD', 'credit_card')
      const v = await run([
        'tx',
        'import',
        fixture('ca-td-visa-no-header-charges-payments-balance-owed.csv'),
        '--account',
        card,
        ...rate,
        '--json',
      ])
      expect(v.code, v.stderr).toBe(0)
      expect(JSON.parse(v.stdout)).toMatchObject({ created: 5, amount_total: 173.93 })
    })

    it('a row the balance does not follow: exit 6 naming the line, nothing written; --no-balance-check imports it', async () => {
      const cad = await account('CAD')
      const file = join(sb.dir, `broken-${target}.csv`)
      writeFileSync(
        file,
        '03/02/2026,Coffee shop,4.85,,2495.15\n03/03/2026,Payroll Acme,,2150.00,4645.15\n03/05/2026,Rent March,300.00,,4345.15\n03/09/2026,Hydro One,112.40,,4232.75\n03/12/2026,GST credit,,124.50,4375.25\n03/16/2026,Account fee,16.95,,4358.30\n',
      )
      const r = await run(['tx', 'import', file, '--account', cad, '--set', 'exchange_rate=0.73'])
      expect(r.code).toBe(6)
      expect(r.stderr).toMatch(
        /error: column 5 is a running balance of money out <- column 3, money in <- column 4 on 4 of 5 pairs of rows, but breaks \(row 5/,
      )
      expect(r.stderr).toContain('--no-balance-check')
      expect(await stored(cad)).toEqual([])
      const forced = await run(['tx', 'import', file, '--account', cad, '--set', 'exchange_rate=0.73', '--no-balance-check', '--json'])
      expect(forced.code, forced.stderr).toBe(0)
      expect(JSON.parse(forced.stdout)).toMatchObject({ created: 6 })
    })

    it('a "Valuta" column of NOK: a USD account refuses the file whole (exit 6), a NOK account takes it in kroner', async () => {
      const usd = await account('USD')
      const r = await run(['tx', 'import', fixture('no-valuta-column-of-currency-codes-nok.csv'), '--account', usd])
      expect(r.code).toBe(6)
      expect(r.stderr).toMatch(/error: the file is in NOK \(its column "Valuta"\) but bank account "E[\d.]+" is in USD/)
      expect(await stored(usd)).toEqual([])
      const preview = await run([
        'statements',
        'upload',
        fixture('no-valuta-column-of-currency-codes-nok.csv'),
        '--account',
        usd,
        '--preview',
      ])
      expect(preview.code).toBe(6)
      expect(preview.stderr).toContain('NOK')
      const nok = await account('NOK')
      const ok = await run([
        'tx',
        'import',
        fixture('no-valuta-column-of-currency-codes-nok.csv'),
        '--account',
        nok,
        '--set',
        'exchange_rate=0.1',
        '--json',
      ])
      expect(ok.code, ok.stderr).toBe(0)
      expect(JSON.parse(ok.stdout)).toMatchObject({ created: 6, amount_total: 22388.05 })
    })

    it('--map on a file with a preamble keeps its header on line 5 and its currency: EUR into USD is refused', async () => {
      const usd = await account('USD')
      const file = fixture('de-preamble-four-lines-betrag-in-eur.csv')
      const byNumber = await run(['tx', 'import', file, '--account', usd, '--map', 'amount=5'])
      expect(byNumber.code).toBe(6)
      expect(byNumber.stderr).toContain('the file is in EUR (the header "Betrag in EUR")')
      const eur = await account('EUR')
      const byName = await run([
        'tx',
        'import',
        file,
        '--account',
        eur,
        '--map',
        'description=Verwendungszweck',
        '--set',
        'exchange_rate=1.1',
        '--json',
      ])
      expect(byName.code, byName.stderr).toBe(0)
      expect(JSON.parse(byName.stdout)).toMatchObject({ created: 7, rejected: 0, amount_total: 2445.9 })
    })

    it('a statement upload of the same CSV: balances from its balance column, checked', async () => {
      const cad = await account('CAD')
      const r = await run([
        'statements',
        'upload',
        fixture('ca-td-chequing-no-header-withdrawal-deposit-balance.csv'),
        '--account',
        cad,
        '--exchange-rate',
        '0.7',
        '--json',
      ])
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({ line_count: 6, opening_balance: 2500, closing_balance: 4340.3, balance_check: 'ok' })
    })

    // [file, the account's currency, the company's rate (USD) or none, rows, sum]
    it.each<[string, string, string | undefined, number, number]>([
      ['nl-ing-no-header-first-row-longer.csv', 'EUR', '1.1', 3, -123.05],
      ['cn-amount-with-code-balance-currency-column.csv', 'CNY', '0.14', 5, 6031.32],
      ['cn-jie-dai-indicator-online-balance.csv', 'CNY', '0.14', 5, 458.31],
      ['tw-out-in-balance-whole-amounts.csv', 'TWD', '0.031', 5, 42447],
      ['jp-out-in-balance-yen.csv', 'JPY', '0.0067', 5, 210002],
      ['kr-out-in-zero-other-side-balance-won.csv', 'KRW', '0.00072', 5, 2017350],
      ['ch-empty-amount-details-beside-debit-credit-chf.csv', 'CHF', '1.12', 5, 3990.6],
      ['in-value-dat-cut-header-withdrawal-deposit.csv', 'INR', '0.012', 5, 77551.9],
      ['indicator-cr-credit-blank-debit.csv', 'USD', undefined, 5, 2055.5],
      ['us-no-header-parentheses-dollar-no-leading-digit.csv', 'USD', undefined, 5, 1860.38],
      ['tab-after-each-quoted-amount.csv', 'USD', undefined, 4, 1860.15],
      ['card-billing-amount-beside-original-amount.csv', 'USD', undefined, 5, 233.4],
      ['gb-header-over-two-lines-debits-credits-balance.csv', 'GBP', '1.27', 5, 2911.35],
      ['ofx-timestamps-in-date-column.csv', 'USD', undefined, 3, 416.8],
      ['it-month-abbreviation-dot-after-year-time.csv', 'EUR', '1.1', 4, 2191.9],
    ])('%s: imported whole into an account in %s, exit 0, its count and sum', async (name, currency, rate, created, total) => {
      const acct = await account(currency)
      const r = await run(['tx', 'import', fixture(name), '--account', acct, ...(rate ? ['--set', `exchange_rate=${rate}`] : []), '--json'])
      expect(r.code, `${name}: ${r.stderr}`).toBe(0)
      expect(JSON.parse(r.stdout), name).toMatchObject({ created, rejected: 0, amount_total: total })
    })

    it('an OFX transaction after a stray </BANKTRANLIST> is one of the statement: 4 lines, exit 0', async () => {
      const usd = await account('USD')
      const r = await run([
        'statements',
        'upload',
        join(import.meta.dirname, '../../fixtures/bank-files/ofx-stmttrn-after-banktranlist.ofx'),
        '--account',
        usd,
        '--json',
      ])
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({ line_count: 4 })
      expect((await stored(usd)).sort((a, b) => a - b)).toEqual([-48.3, -19.99, -12, 250])
    })
  })
})

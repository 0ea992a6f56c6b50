/**
 * The CLI in process (test/helpers/in-process-cli.ts), embedded and towards `finctl serve`, on the classes of bank CSV
 * that were read wrong, each with the exit code a user sees and what was written: a header-less
 * file lands whole (exit 0); a file in another currency, or holding two accounts' rows, is refused
 * before a row is written (exit 6) and the flags that make it right work; rows of 0 are created and
 * named; a bank's layout is named in the plan. Fixtures: test/fixtures/csv-layouts (its README).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stopServeAndCleanup, type ServeProcess } from '../../helpers/cli.js'
import { BOTH_TARGETS, type InProcessSandbox, servedSandbox } from '../../helpers/in-process-cli.js'

const LAYOUTS = join(import.meta.dirname, '../../fixtures/csv-layouts')
const fixture = (name: string) => join(LAYOUTS, name)

interface Summary {
  created: number
  rejected: number
  skipped_lines: number
  amount_total: number
  zero_amounts?: { rows: number; lines: number[] }
}

describe('the classes of bank CSV through the CLI', () => {
  let sb: InProcessSandbox
  let server: ServeProcess | undefined

  beforeAll(async () => {
    ;({ sb, server } = await servedSandbox('csv-classes', 'EUR'))
  })
  afterAll(() => stopServeAndCleanup(server, sb))

  describe.each(BOTH_TARGETS)('%s', (_target, target) => {
    const run = (args: string[]) => sb.run([...target, ...args])
    const account = async (currency = 'EUR', ...more: string[]) =>
      (
        await sb.json([
          ...target,
          'accounts',
          'create',
          '--name',
          `C${Math.random()}`,
          '--type',
          'checking',
          '--currency',
          currency,
          '--json',
          ...more,
        ])
      ).id as string
    const stored = async (acct: string) =>
      (await sb.json<Array<{ amount: number; description: string }>>([...target, 'tx', 'list', '--account', acct, '--all', '--json']))
        .length

    it('1. a header-less easybank file: every line imported, exit 0, the plan says so', async () => {
      const acct = await account()
      const r = await run(['tx', 'import', fixture('at-easybank-no-header-latin1.csv'), '--account', acct, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain('read as the easybank (AT) layout (recognised by its first line)')
      expect(JSON.parse(r.stdout)).toMatchObject({ created: 5, rejected: 0, amount_total: 986.63 })
      expect(await stored(acct)).toBe(5)
    })

    it('2. a file in EUR into a USD account: exit 6, both currencies named, nothing written; --set currency_code=EUR imports it', async () => {
      const usd = await account('USD')
      const file = join(sb.dir, `betrag-in-eur-${_target}.csv`)
      writeFileSync(file, 'Buchungstag;Text;Betrag in EUR\n13.03.2024;Shop;-1,50\n14.03.2024;Gehalt;100,00\n')
      const r = await run(['tx', 'import', file, '--account', usd])
      expect(r.code).toBe(6)
      expect(r.stderr).toMatch(
        /^error: the file is in EUR \(the header "Betrag in EUR"\) but bank account "C[\d.]+" is in USD: .*--set currency_code=EUR/m,
      )
      expect(await stored(usd)).toBe(0)
      const kept = await run(['tx', 'import', file, '--account', usd, '--set', 'currency_code=EUR', '--json'])
      expect(kept.code, kept.stderr).toBe(0)
      expect(JSON.parse(kept.stdout)).toMatchObject({ created: 2 })
    })

    it('3. rows of 0: created as 0.00 and named; a 0,00 ABSCHLUSS is skipped with why', async () => {
      const acct = await account()
      const r = await run(['tx', 'import', fixture('gb-revolut-zero-card-hold.csv'), '--account', acct, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout) as Summary).toMatchObject({ created: 5, zero_amounts: { rows: 1, lines: [4] } })
      const spk = await account()
      const s = await run(['tx', 'import', fixture('de-sparkasse-csv-camt-zero-abschluss.csv'), '--account', spk])
      expect(s.code, s.stderr).toBe(0)
      expect(s.stderr).toContain('line 6 skipped: an amount of 0 on a closing or balance line, not a movement')
      expect(await stored(spk)).toBe(4)
    })

    it('4-8. descriptions from the next text column, a D/C column by its values, Cyrillic headers in windows-1251, a ; file of decimal commas, month names', async () => {
      // Its own number: another account of the company ends in 6789 too (the ING test's).
      const knab = await account('EUR', '--account-number', 'NL12KNAB0123456789')
      const k = await run(['tx', 'import', fixture('nl-knab-creditdebet-empty-omschrijving.csv'), '--account', knab, '--json'])
      expect(k.code, k.stderr).toBe(0)
      expect(JSON.parse(k.stdout)).toMatchObject({ created: 6, rejected: 0, amount_total: 1664.6 })
      const texts = (await sb.json<Array<{ description: string }>>([...target, 'tx', 'list', '--account', knab, '--all', '--json'])).map(
        (t) => t.description,
      )
      expect(texts).toEqual(expect.arrayContaining(['Albert Heijn 1403', 'Geldautomaat', 'Salaris augustus 2021']))
      const flag = join(sb.dir, `flag-${_target}.csv`)
      writeFileSync(
        flag,
        'Datum;Bedrag;Richting X;Omschrijving\n13-03-2024;12,95;D;Winkel\n14-03-2024;1850,00;C;Salaris\n15-03-2024;4,50;D;Koffie\n',
      )
      const f = await run(['tx', 'import', flag, '--account', await account(), '--json'])
      expect(f.code, f.stderr).toBe(0)
      expect(JSON.parse(f.stdout)).toMatchObject({ created: 3, amount_total: 1832.55 })
      const rub = await account('RUB')
      const alfa = await run([
        'tx',
        'import',
        fixture('ru-alfabank-cp1251-income-expense-columns-short-years.csv'),
        '--account',
        rub,
        '--set',
        'exchange_rate=0.01',
        '--json',
      ])
      expect(alfa.code, alfa.stderr).toBe(0)
      expect(alfa.stderr).toContain('read as the Alfa-Bank (RU) layout')
      expect(JSON.parse(alfa.stdout)).toMatchObject({ created: 6, amount_total: 79516.4 })
      const ragged = await run([
        'tx',
        'import',
        fixture('de-semicolon-decimal-comma-ragged-rows.csv'),
        '--account',
        await account(),
        '--json',
      ])
      expect(ragged.code, ragged.stderr).toBe(0)
      expect(ragged.stderr).toContain('delimiter ";"')
      expect(JSON.parse(ragged.stdout)).toMatchObject({ created: 5, amount_total: 1186.22 })
      const named = join(sb.dir, `named-${_target}.csv`)
      writeFileSync(named, 'Date,Description,Amount\n05-Jan-2024,Coffee,-3.50\n06-Feb-2024,Salary,2500.00\n')
      const n = await run(['tx', 'import', named, '--account', await account(), '--json'])
      expect(n.code, n.stderr).toBe(0)
      expect(n.stderr).toContain('dates DD-MMM-YYYY')
      expect(JSON.parse(n.stdout)).toMatchObject({ created: 2, amount_total: 2496.5 })
      // Ten CLI processes: 15-18 s quiet, past 30 s under a loaded run's contention; 90 s bounds a hang.
    }, 180_000)

    it("10. a row before the account's opening date is rejected with its line (exit 8)", async () => {
      const acct = await account('EUR', '--opening-balance', '25000', '--opening-balance-date', '2016-03-01')
      const file = join(sb.dir, `before-opening-${_target}.csv`)
      writeFileSync(file, 'Date,Description,Amount\n2013-05-01,Old fee,-10.00\n2016-03-02,Coffee,-3.50\n')
      const r = await run(['tx', 'import', file, '--account', acct])
      expect(r.code).toBe(8)
      expect(r.stderr).toMatch(/^line 2: .*2013-05-01 is before the opening date 2016-03-01/m)
      expect(await stored(acct)).toBe(1)
    })

    it('9. two accounts in one file: exit 6 naming both; --account-number imports one', async () => {
      const acct = await account('EUR', '--account-number', 'NL69INGB0123456789')
      const r = await run(['tx', 'import', fixture('nl-ing-two-own-accounts.csv'), '--account', acct])
      expect(r.code).toBe(6)
      expect(r.stderr).toContain('the file holds the rows of 2 accounts (NL69INGB0123456789: 3 rows, NL91INGB0002445588: 2 rows')
      expect(await stored(acct)).toBe(0)
      const one = await run([
        'tx',
        'import',
        fixture('nl-ing-two-own-accounts.csv'),
        '--account',
        acct,
        '--account-number',
        '6789',
        '--json',
      ])
      expect(one.code, one.stderr).toBe(0)
      expect(JSON.parse(one.stdout)).toMatchObject({ created: 3, amount_total: 1576.83 })
    })
  })
})

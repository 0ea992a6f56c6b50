/**
 * Each amount is read by its own row's currency (JPY 0 decimals, BHD 3, CLF 4),
 * not the account's, and a currency column is read, never dropped (Lithuanian "Valiuta", LTL).
 */
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { planImport, type CsvMapping } from '../../src/import/plan.js'
import { RowMapper } from '../../src/import/map-rows.js'
import { readRecords } from '../../src/import/read-rows.js'
import { mapHeader } from '../../src/import/mapping.js'
import { currencyExponent, isCurrency, withdrawnIn } from '../../src/kernel/currencies.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'

const FIXTURES = join(import.meta.dirname, '../fixtures/row-currency')

async function convert(path: string, o: CsvMapping & { currency?: string } = {}) {
  const plan = await planImport(path, o)
  const conv = new RowMapper(plan, { accountId: 'acct', currency: o.currency ?? 'EUR' })
  const ok: Array<{ line: number; currency?: string; amount: string | number; minor: number }> = []
  const bad: Array<{ line: number; reason: string }> = []
  for await (const rec of readRecords(path, plan.layout)) {
    const r = conv.map(rec)
    if (!r) continue
    if (r.ok) ok.push({ line: r.line, currency: r.request.currency_code, amount: r.request.amount, minor: r.minor })
    else bad.push({ line: r.line, reason: r.reason })
  }
  return { ok, bad, plan }
}

describe('historic ISO 4217 codes', () => {
  it('knows the currencies the euro replaced and older codes, with their exponents', () => {
    for (const [code, exp, year] of [
      ['LTL', 2, 2015],
      ['DEM', 2, 2002],
      ['FRF', 2, 2002],
      ['ITL', 0, 2002],
      ['ESP', 0, 2002],
      ['HRK', 2, 2023],
      ['TRL', 0, 2005],
    ] as const) {
      expect(isCurrency(code), code).toBe(true)
      expect(currencyExponent(code), code).toBe(exp)
      expect(withdrawnIn(code), code).toBe(year)
    }
    expect(withdrawnIn('EUR')).toBeUndefined()
    // ANG is listed withdrawn (2025) and keeps its active exponent
    expect(currencyExponent('ANG')).toBe(2)
  })
})

describe('each amount by its own currency', () => {
  it('reads BHD with 3 decimals, JPY with none, CLF with 4 in a EUR account file', async () => {
    const r = await convert(join(FIXTURES, 'amounts-by-each-rows-currency-bhd-jpy-clf.csv'))
    expect(r.bad).toEqual([])
    expect(r.ok.map(({ currency, amount, minor }) => ({ currency, amount, minor }))).toEqual([
      { currency: 'BHD', amount: '-1.234', minor: -1234 },
      { currency: 'JPY', amount: '-15000', minor: -15000 },
      { currency: 'CLF', amount: '-12.3456', minor: -123456 },
      { currency: 'EUR', amount: '-1250.50', minor: -125050 },
      { currency: 'LTL', amount: '-14.34', minor: -1434 },
    ])
  })

  it("rejects a row whose amount has more decimals than its own currency's, or an unknown code, naming it", async () => {
    const r = await convert(join(FIXTURES, 'row-currency-precision-and-unknown-code-rejects.csv'))
    expect(r.bad).toEqual([
      { line: 2, reason: 'amount this currency has no minor unit: give a whole amount' },
      { line: 3, reason: 'amount at most 3 decimal places for this currency' },
      { line: 4, reason: 'currency "XYZ" is not an ISO 4217 currency code' },
    ])
    expect(r.ok).toEqual([{ line: 5, currency: 'BHD', amount: '-1.235', minor: -1235 }])
  })

  it('a JPY account reads a EUR row with cents: the row decides, not the account', async () => {
    const r = await convert(join(FIXTURES, 'amounts-by-each-rows-currency-bhd-jpy-clf.csv'), { currency: 'JPY' })
    expect(r.ok.find((x) => x.currency === 'EUR')?.minor).toBe(-125050)
  })
})

describe('a currency column is read', () => {
  it('maps Valiuta (Lithuanian), Waluta (Polish), Valuuta (Estonian), but not German Valuta (the value date)', () => {
    expect(mapHeader(['Data', 'Suma', 'Valiuta', 'Aprasymas']).currency_code).toBe(2)
    expect(mapHeader(['Data', 'Kwota', 'Waluta', 'Opis']).currency_code).toBe(2)
    expect(mapHeader(['Kuupaev', 'Summa', 'Valuuta']).currency_code).toBe(2)
    expect(mapHeader(['Buchungstag', 'Valuta', 'Betrag']).currency_code).toBeUndefined()
  })

  it('a hand-made file with a Valiuta column: LTL and EUR rows each keep their currency', async () => {
    const r = await convert(join(FIXTURES, 'valiuta-header-lithuanian-currency-column.csv'), { map: [['description', 'Aprasymas']] })
    expect(r.bad).toEqual([])
    expect(r.ok.map((x) => [x.currency, x.amount])).toEqual([
      ['LTL', '-12.50'],
      ['EUR', '-3.60'],
    ])
  })

  it.skipIf(!HAS_BANK_FILES)("Swedbank's Valiuta column: every row is LTL, not the EUR account's currency", async () => {
    const r = await convert(bankFile('csv/lt-swedbank-dk-indicator-unescaped-quotes.csv'), {
      where: [['2', '20']],
      map: [['description', 'Paaiškinimai']],
    })
    expect(r.bad).toEqual([])
    expect(r.ok.length).toBe(5)
    expect(new Set(r.ok.map((x) => x.currency))).toEqual(new Set(['LTL']))
  })
})

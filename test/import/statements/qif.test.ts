/**
 * QIF: every file of qif/ in the bank-file corpus (test/helpers/bank-files.ts) against SOURCES.md,
 * plus hand-made files for date orders (ambiguous, apostrophe years), accounts, splits and errors.
 */
import { describe, expect, it } from 'vitest'
import { parseStatement } from '../../../src/import/statements/index.js'
import { parseQif } from '../../../src/import/statements/qif.js'
import { StatementParseError } from '../../../src/import/statements/types.js'
import { bytes, dateRange, fixture, HAS_BANK_FILES, latin1, lines, sum } from './fixtures.js'

// QIF names no currency: the bank account's is given, as statement upload does.
const qif = (name: string) => parseStatement(fixture(`qif/${name}`), { fileName: name, defaultCurrency: 'USD' })

describe.skipIf(!HAS_BANK_FILES)('QIF fixtures (SOURCES.md)', () => {
  it('bank-mdy-short-year-thousands-comma.qif: unpadded M/D/YY, thousands comma, not in date order', () => {
    const r = qif('bank-mdy-short-year-thousands-comma.qif')
    expect(r.format).toBe('qif')
    expect(r.statements).toHaveLength(1)
    const txs = r.statements[0].transactions
    expect(txs).toHaveLength(5)
    expect(sum(txs)).toBe(-189609) // -1896.09 (OCA: balance_end_real -1896.09)
    expect(dateRange(txs)).toEqual(['2013-03-03', '2013-08-15'])
    expect(txs.filter((t) => t.date === '2013-03-03')).toHaveLength(2)
    expect(txs[0]).toMatchObject({ date: '2013-08-12', amountMinor: -100000 }) // 8/12/13, T-1,000.00
    expect(txs.every((t) => t.payee && !t.memo)).toBe(true) // P lines only
    expect(r.warnings).toEqual([])
  })

  it('cash-dmy-splits-no-account-header.qif: DD/MM/YYYY, splits do not make lines', () => {
    const r = qif('cash-dmy-splits-no-account-header.qif')
    expect(r.statements).toHaveLength(1)
    const [s] = r.statements
    expect(s.accountHint).toBeUndefined() // no !Account header
    expect(s.transactions.map((t) => t.amountMinor)).toEqual([-650, 3100, -4800]) // the split -31.00/-17.00 stays T-48.00
    expect(sum(s.transactions)).toBe(-2350)
    expect(dateRange(s.transactions)).toEqual(['2013-10-11', '2013-10-23'])
    expect(s.transactions.map((t) => t.category)).toEqual(['food:lunch', '[My Cc]', undefined])
  })

  it('multi-account-categories-splits-investment.qif: only the cash section, investment skipped with a warning', () => {
    const r = qif('multi-account-categories-splits-investment.qif')
    // SOURCES.md also announces a second !Type:Cash block repeating the same 3 lines (a duplicate
    // trap, 6 lines / -47.00). The file (blob 45a95ca4, 534 bytes) has only one !Type:Cash block:
    // what it holds is the 3 cash lines, sum -23.50, which is what is asserted.
    expect(r.statements).toHaveLength(1)
    const [cash] = r.statements
    expect(cash.accountHint).toBe('My Cash')
    expect(cash.transactions.map((t) => t.amountMinor)).toEqual([-650, 3100, -4800])
    expect(sum(cash.transactions)).toBe(-2350)
    expect(dateRange(cash.transactions)).toEqual(['2013-10-11', '2013-10-23'])
    // !Type:Invst (T 1000.00 / 100.00, 1993) is not imported, and says so.
    expect(lines(r.statements).some((t) => t.date.startsWith('1993') || t.amountMinor === 100000 || t.amountMinor === 10000)).toBe(false)
    expect(r.warnings.some((w) => /Invst/.test(w) && /investment/.test(w))).toBe(true)
    // !Type:Memorized (T-50.00, T-25.00) and the category and class lists make no lines either.
    expect(lines(r.statements).some((t) => t.amountMinor === -5000 || t.amountMinor === -2500)).toBe(false)
  })
})

const file = (...records: string[]) => `!Type:Bank\n${records.map((r) => `${r}\n^\n`).join('')}`

describe('QIF hand-made cases', () => {
  it('refuses to guess when every date is ambiguous, naming the flag', () => {
    const src = bytes(file('D01/02/2020\nT-1.00', 'D03/04/2020\nT-2.00'))
    expect(() => parseQif(src, { defaultCurrency: 'EUR' })).toThrow(StatementParseError)
    expect(() => parseQif(src, { defaultCurrency: 'EUR' })).toThrow(/give --date-format DD\/MM\/YYYY or MM\/DD\/YYYY/)
    expect(parseQif(src, { defaultCurrency: 'EUR', dateOrder: 'DMY' }).statements[0].transactions.map((t) => t.date)).toEqual(['2020-02-01', '2020-04-03'])
    expect(parseQif(src, { defaultCurrency: 'EUR', dateOrder: 'MDY' }).statements[0].transactions.map((t) => t.date)).toEqual(['2020-01-02', '2020-03-04'])
  })

  it('decides the order over all the dates of the file (one day over 12 settles it)', () => {
    const r = parseQif(bytes(file('D1/2/2020\nT-1.00', 'D3/4/2020\nT-2.00', 'D5/25/2020\nT-3.00')), { defaultCurrency: 'EUR' })
    expect(r.statements[0].transactions.map((t) => t.date)).toEqual(['2020-01-02', '2020-03-04', '2020-05-25'])
    const dmy = parseQif(bytes(file('D1/2/2020\nT-1.00', 'D25/5/2020\nT-3.00')), { defaultCurrency: 'EUR' })
    expect(dmy.statements[0].transactions.map((t) => t.date)).toEqual(['2020-02-01', '2020-05-25'])
  })

  it("reads Quicken's apostrophe years: 1/ 5'98 and 1/5'02", () => {
    const r = parseQif(bytes(file("D1/ 5'98\nT-1.00", "D1/5'02\nT-2.00", "D12/25'02\nT-3.00")), { defaultCurrency: 'EUR' })
    expect(r.statements[0].transactions.map((t) => t.date)).toEqual(['1998-01-05', '2002-01-05', '2002-12-25'])
  })

  it('reads thousands separators and a decimal comma', () => {
    const point = parseQif(bytes(file('D25/12/2020\nT-1,234,567.89', 'D26/12/2020\nT12.5')), { defaultCurrency: 'EUR' })
    expect(point.statements[0].transactions.map((t) => t.amountMinor)).toEqual([-123456789, 1250])
    const comma = parseQif(bytes(file('D25.12.2020\nT-1.234,56', 'D26.12.2020\nT7,5')), { defaultCurrency: 'EUR' })
    expect(comma.statements[0].transactions.map((t) => t.amountMinor)).toEqual([-123456, 750])
  })

  it('makes one statement per !Account', () => {
    const src = `!Account\nNChecking\nTBank\n^\n${file('D25/12/2020\nT-1.00\nPShop\nMnote')}!Account\nNVisa\nTCCard\n^\n!Type:CCard\nD26/12/2020\nT-2.00\n^\n`
    const r = parseQif(bytes(src), { defaultCurrency: 'EUR' })
    expect(r.statements.map((s) => [s.accountHint, s.transactions.length])).toEqual([
      ['Checking', 1],
      ['Visa', 1],
    ])
    expect(r.statements[0].transactions[0]).toMatchObject({ payee: 'Shop', memo: 'note', amountMinor: -100, currency: 'EUR' })
  })

  it("reads Quicken's first Opening Balance record as the opening balance, not a line", () => {
    const src = `!Account\nNChecking\nTBank\n^\n${file('D1/1/2020\nT1,000.00\nPOpening Balance\nL[Checking]', 'D1/15/2020\nT-10.00\nPShop')}`
    const [s] = parseQif(bytes(src), { defaultCurrency: 'USD' }).statements
    expect(s.openingBalance).toBe(100000)
    expect(s.transactions.map((t) => t.amountMinor)).toEqual([-1000])
  })

  it('skips a record with a bad amount or date, with its line number', () => {
    const r = parseQif(bytes(file('D25/12/2020\nT-1.00', 'D26/12/2020\nTabc', 'D32/12/2020\nT-3.00')), { defaultCurrency: 'EUR' })
    expect(r.statements[0].transactions).toHaveLength(1)
    expect(r.warnings).toHaveLength(2)
    expect(r.warnings[0]).toMatch(/^line 5: .*abc/)
    expect(r.warnings[1]).toMatch(/^line 8: .*32\/12\/2020/)
  })

  it('reads Windows-1252 payees', () => {
    const r = parseQif(latin1(file('D25/12/2020\nT-1.00\nPCaf\u00e9 \u0080')), { defaultCurrency: 'EUR' })
    expect(r.statements[0].transactions[0].payee).toBe('Café €')
  })

  it('needs the account currency, and refuses a file with no bank section', () => {
    expect(() => parseQif(bytes(file('D25/12/2020\nT-1.00')), {})).toThrow(/currency/)
    expect(() => parseQif(bytes('!Type:Invst\nD25/12/2020\nNBuy\nT100.00\n^\n'), { defaultCurrency: 'EUR' })).toThrow(/no bank, card or cash section/)
    expect(() => parseQif(bytes('D25/12/2020\nT-1.00\n^\n'), { defaultCurrency: 'EUR' })).toThrow(StatementParseError)
  })
})

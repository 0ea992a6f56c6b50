/**
 * What banks actually send, on the hand-made files of test/fixtures/bank-files
 * named after their quirk: each quirk read by a written rule with a warning naming the line, and
 * each transaction line a parser cannot read listed as unreadable (with its line), never dropped
 * among the warnings. QIF dates follow CSV's rule: given, decided by the file, or refused.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseStatement } from '../../../src/import/statements/index.js'
import { parseMt940 } from '../../../src/import/statements/mt940.js'
import { parseQif } from '../../../src/import/statements/qif.js'
import { StatementParseError } from '../../../src/import/statements/types.js'
import { bytes, reconciles, sum } from './fixtures.js'

const FIXTURES = join(import.meta.dirname, '../../fixtures/bank-files')
const handMade = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)))
const parse = (name: string, o: { dateFormat?: string } = {}) =>
  parseStatement(handMade(name), { fileName: name, defaultCurrency: 'EUR', ...o })

describe('MT940 quirks', () => {
  it('an impossible value date (30 February) is the month last day, warned with its line; the line is kept', () => {
    const r = parse('mt940-value-date-30-february.sta')
    const [s] = r.statements
    expect(s.transactions).toEqual([expect.objectContaining({ date: '2024-03-01', valueDate: '2024-02-29', amountMinor: -12550, line: 5 })])
    expect(reconciles(s)).toBe(true)
    expect(s.unreadable).toBeUndefined()
    expect(r.warnings).toEqual(["line 5: :61: date 240230: February has no day 30 in 2024: read as 2024-02-29, the month's last day"])
  })

  it('an impossible day without an entry date makes the booking date the month last day too', () => {
    const src = ':20:X\n:25:DE89370400440532013000\n:60F:C230401EUR10,00\n:61:230431D1,00NTRFNONREF\n:62F:C230430EUR9,00\n-\n'
    const r = parseMt940(bytes(src), {})
    expect(r.statements[0].transactions[0]).toMatchObject({ date: '2023-04-30', valueDate: '2023-04-30', amountMinor: -100 })
    expect(r.warnings).toEqual(["line 4: :61: date 230431: April has no day 31 in 2023: read as 2023-04-30, the month's last day"])
    // Month 13 is no date by any rule: the line is unreadable.
    const bad = parseMt940(bytes(src.replace('230431', '231301')), {})
    expect(bad.statements[0].unreadable).toEqual([{ line: 4, reason: expect.stringMatching(/does not read as an MT940 statement line/) }])
  })

  it('a last statement without :62F: costs nothing of the complete one before it: its lines are read, its balance not checked', () => {
    const r = parse('mt940-last-statement-without-closing-balance.sta')
    const [first, last] = r.statements
    expect(first.transactions.map((t) => t.amountMinor)).toEqual([-2000, 12000])
    expect(reconciles(first)).toBe(true)
    expect(last.transactions.map((t) => t.amountMinor)).toEqual([-4510])
    expect(last.openingBalance).toBe(60000)
    expect(last.closingBalance).toBeUndefined()
    expect(r.warnings).toEqual([
      'line 11: the statement has no closing balance (:62F:/:62M:; the file may be cut short): its 1 line is read, its balance not checked',
    ])
  })

  it('a file with no :62F: at all: every statement read, each said to be unchecked', () => {
    const r = parse('mt940-no-closing-balance-at-all.sta')
    expect(r.statements.map((s) => s.transactions.length)).toEqual([2, 1])
    expect(sum(r.statements.flatMap((s) => s.transactions))).toBe(-500)
    expect(r.statements.every((s) => s.closingBalance === undefined)).toBe(true)
    expect(r.warnings).toHaveLength(2)
    expect(r.warnings[0]).toMatch(/^line 1: .*no closing balance.*its 2 lines are read/)
    expect(r.warnings[1]).toMatch(/^line 10: .*no closing balance.*its 1 line is read/)
  })

  it(':62M:/:60M: without a currency code take the statement currency, warned; the pages still reconcile', () => {
    // The bank account is in EUR: the balances take the statement's PLN, not the account's currency.
    const r = parse('mt940-intermediate-balances-without-currency.sta')
    expect(r.statements.map((s) => [s.currency, s.openingBalance, s.closingBalance])).toEqual([
      ['PLN', 100000, 90000],
      ['PLN', 90000, 95000],
    ])
    expect(r.statements.every(reconciles)).toBe(true)
    expect(r.warnings).toEqual([
      "line 7: :62M: the balance names no currency: read in PLN, the statement's currency",
      "line 12: :60M: the balance names no currency: read in PLN, the statement's currency",
    ])
  })

  it('a balance without a currency in a file that names none takes the bank account currency, and fails without one', () => {
    const src = ':20:X\n:25:1\n:60F:C240101100,00\n:61:240102D1,00NTRFNONREF\n:62F:C24010299,00\n-\n'
    const r = parseMt940(bytes(src), { defaultCurrency: 'CHF' })
    expect(r.statements[0]).toMatchObject({ currency: 'CHF', openingBalance: 10000, closingBalance: 9900 })
    expect(() => parseMt940(bytes(src), {})).toThrow(/names no currency/)
  })

  it('an unreadable :61: line is unreadable, with its line, and the others are read', () => {
    const r = parse('mt940-unreadable-61-line.sta')
    expect(r.statements[0].transactions.map((t) => t.amountMinor)).toEqual([-1000, 2000])
    expect(r.statements[0].unreadable).toEqual([
      { line: 7, reason: ':61: "24060X0604D5,00NTRFNONREF//B0604001" does not read as an MT940 statement line' },
    ])
    expect(r.warnings).toEqual([])
  })
})

describe('unreadable transaction lines of the other formats', () => {
  it('OFX: a <STMTTRN> whose DTPOSTED is no date', () => {
    const r = parse('ofx-unreadable-transaction.ofx')
    expect(r.statements[0].transactions.map((t) => t.externalId)).toEqual(['T701', 'T705'])
    expect(r.statements[0].unreadable).toEqual([{ line: 22, reason: '<STMTTRN>: DTPOSTED "2024-07-0X" is not a date' }])
  })

  it('CAMT.053: an entry whose CdtDbtInd is neither CRDT nor DBIT; a pending entry is no transaction yet, only a warning', () => {
    const r = parse('camt053-unreadable-entry.xml')
    expect(r.statements[0].transactions.map((t) => t.externalId)).toEqual(['E1'])
    expect(r.statements[0].unreadable).toEqual([{ line: 15, reason: '<Ntry>: CdtDbtInd "DEBIT" is neither CRDT nor DBIT' }])
    expect(r.warnings).toEqual(['line 20: entry skipped, its status is PDNG (not booked)'])
  })

  it('QIF: a record whose amount is no number', () => {
    const r = parse('qif-unreadable-amount.qif')
    expect(r.statements[0].transactions.map((t) => t.amountMinor)).toEqual([-1500, 30000])
    expect(r.statements[0].unreadable).toEqual([{ line: 6, reason: expect.stringMatching(/^record: amount .*1O\.00/) }])
  })
})

describe('QIF quirks and dates', () => {
  it('skips # comment lines and blank lines before the first header, with a warning', () => {
    const r = parse('qif-comment-lines-before-header.qif')
    expect(r.format).toBe('qif')
    expect(r.statements[0].transactions.map((t) => [t.date, t.amountMinor])).toEqual([
      ['2024-03-15', -4200],
      ['2024-03-18', 125000],
    ])
    expect(r.warnings[0]).toBe('lines 1-2: 2 comment lines (#) before the first header, skipped')
  })

  it('is detected as QIF by its content after the comment lines, whatever its name', () => {
    expect(parseStatement(handMade('qif-comment-lines-before-header.qif'), { fileName: 'export.txt', defaultCurrency: 'EUR' }).format).toBe(
      'qif',
    )
  })

  it('refuses dates that read as DD/MM/YY and as YY/MM/DD (13/08/12), naming both flags', () => {
    expect(() => parse('qif-year-first-short-dates.qif')).toThrow(StatementParseError)
    expect(() => parse('qif-year-first-short-dates.qif')).toThrow(
      'the QIF dates are ambiguous: they read as DD/MM/YY or YY/MM/DD, different dates: give --date-format DD/MM/YY or --date-format YY/MM/DD',
    )
  })

  it('applies --date-format YY/MM/DD: all 5 records, 13/08/12 is 2013-08-12', () => {
    const r = parse('qif-year-first-short-dates.qif', { dateFormat: 'YY/MM/DD' })
    expect(r.statements[0].transactions.map((t) => t.date)).toEqual(['2013-08-12', '2013-08-19', '2013-09-02', '2013-09-10', '2013-10-01'])
    expect(r.statements[0].unreadable).toBeUndefined()
    const dmy = parse('qif-year-first-short-dates.qif', { dateFormat: 'DD/MM/YY' })
    expect(dmy.statements[0].transactions[0].date).toBe('2012-08-13')
  })

  it('a date that does not fit the given format makes its record unreadable, naming the format', () => {
    const src = '!Type:Bank\nD2024-01-05\nT-1.00\n^\nD05/01/2024\nT-2.00\n^\n'
    const r = parseQif(bytes(src), { defaultCurrency: 'EUR', dateFormat: 'YYYY-MM-DD' })
    expect(r.statements[0].unreadable).toEqual([{ line: 5, reason: 'record: date "05/01/2024" does not read as YYYY-MM-DD' }])
  })

  it('decided by the evidence of the file, and the choice is said with the date that decides it', () => {
    const src = '!Type:Bank\nD01/02/12\nT-1.00\n^\nD13/08/99\nT-2.00\n^\n'
    const r = parseQif(bytes(src), { defaultCurrency: 'EUR' })
    // 13/08/99 can only be DD/MM/YY (month 13; a day 99): so 01/02/12 is 1 February 2012.
    expect(r.statements[0].transactions.map((t) => t.date)).toEqual(['2012-02-01', '1999-08-13'])
    expect(r.warnings).toEqual([
      'dates read as DD/MM/YY: "13/08/99" on line 5 is no MM/DD/YY date, "13/08/99" on line 5 is no YY/MM/DD date (give --date-format to say otherwise)',
    ])
  })

  it('takes a decimal comma when told, where the amounts alone cannot say', () => {
    const src = '!Type:Bank\nD2024-01-05\nT-1,500\n^\n'
    expect(parseQif(bytes(src), { defaultCurrency: 'EUR', decimalComma: true }).statements[0].transactions[0].amountMinor).toBe(-150)
    expect(parseQif(bytes(src), { defaultCurrency: 'EUR' }).statements[0].transactions[0].amountMinor).toBe(-150000)
  })
})

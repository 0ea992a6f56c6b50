/**
 * MT940: every file of mt940/ in the bank-file corpus (test/helpers/bank-files.ts) against
 * SOURCES.md, plus hand-made statements for reversal marks, the SWIFT envelope, split pages,
 * encodings and truncation.
 */
import { describe, expect, it } from 'vitest'
import { parseStatement } from '../../../src/import/statements/index.js'
import { parseMt940 } from '../../../src/import/statements/mt940.js'
import { bytes, dateRange, fixture, HAS_BANK_FILES, latin1, lines, reconciles, sum } from './fixtures.js'

const mt940 = (name: string) => parseStatement(fixture(`mt940/${name}`), { fileName: name })

describe.skipIf(!HAS_BANK_FILES)('MT940 fixtures (SOURCES.md)', () => {
  it('nl-abnamro-two-statements-swift-header.sta: bank header lines, :28:/:28C:, :60M:/:62M:', () => {
    const r = mt940('nl-abnamro-two-statements-swift-header.sta')
    expect(r.format).toBe('mt940')
    expect(r.statements.map((s) => s.transactions.length)).toEqual([8, 2])
    const txs = lines(r.statements)
    expect(txs.every((t) => t.amountMinor < 0)).toBe(true) // all debits
    expect(sum(txs)).toBe(-34593) // -345.93
    expect(dateRange(txs, 'valueDate')).toEqual(['2011-05-21', '2011-05-24'])
    expect(txs.map((t) => t.amountMinor)).toEqual(expect.arrayContaining([-900, -10700, -1180])) // "9,", "107,", "11,8"
    expect(r.statements.every((s) => s.currency === 'EUR')).toBe(true)
    expect(r.statements.map(reconciles)).toEqual([false, false]) // do not reconcile in the source
  })

  it('nl-ing-legacy-86-multiline.sta: multi-line :86:, soft hyphens, statement-level :86: after :62F:', () => {
    const r = mt940('nl-ing-legacy-86-multiline.sta')
    expect(r.statements).toHaveLength(1)
    const [s] = r.statements
    expect(s.transactions.map((t) => t.amountMinor)).toEqual([-2503, -303, -111, -2000, -110, 368, 100])
    expect(sum(s.transactions)).toBe(-4559)
    expect(dateRange(s.transactions)).toEqual(['2010-07-22', '2010-07-23'])
    expect([s.openingBalance, s.closingBalance]).toEqual([0, 347])
    expect(reconciles(s)).toBe(false)
    // The summary :86: after :62F: belongs to the statement, not to the last line.
    expect(s.transactions[6].memo).not.toMatch(/D000004C000002/)
    // UTF-8 soft hyphens decode as U+00AD, not as "Â­".
    expect(s.transactions.some((t) => t.memo?.includes('\u00ad'))).toBe(true)
    expect(s.transactions.some((t) => t.memo?.includes('Â'))).toBe(false)
  })

  it('nl-rabobank-zero-padded-amounts-4-statements.sta: 4 statements, one empty, zero-padded amounts', () => {
    const r = mt940('nl-rabobank-zero-padded-amounts-4-statements.sta')
    expect(r.statements).toHaveLength(4)
    expect(r.statements.filter((s) => s.transactions.length === 0)).toHaveLength(1)
    const txs = lines(r.statements)
    expect(txs).toHaveLength(5)
    expect(txs.every((t) => t.amountMinor < 0)).toBe(true)
    expect(txs[0].amountMinor).toBe(-121328) // 000000001213,28
    expect(sum(txs)).toBe(-158909) // -1589.09
    expect(dateRange(txs, 'valueDate')).toEqual(['2011-05-27', '2012-08-29'])
    expect(r.statements.map(reconciles)).toEqual([false, true, false, true]) // 2 and 4 reconcile
    // The account's currency suffix (1291.99.348EUR) is not part of the account.
    expect(r.statements[0].accountHint?.endsWith('EUR')).toBe(false)
  })

  it('de-sepa-86-structured-subfields.sta: ?20-?34 subfields, CR/DR are C/D + funds code, debit opening', () => {
    const r = mt940('de-sepa-86-structured-subfields.sta')
    expect(r.statements).toHaveLength(2)
    const [one, two] = r.statements
    const txs = lines(r.statements)
    expect(txs).toHaveLength(11)
    expect(sum(txs)).toBe(-214332339) // -2143323.39
    expect(dateRange(txs, 'valueDate')).toEqual(['2007-09-04', '2007-09-07'])
    expect(sum(one.transactions)).toBe(35859391)
    expect([one.openingBalance, one.closingBalance]).toEqual([76665649, 112525040])
    expect(reconciles(one)).toBe(true)
    expect(sum(two.transactions)).toBe(-250191730)
    expect(two.openingBalance).toBeLessThan(0) // :60F:D...
    expect(reconciles(two)).toBe(false)
    expect(two.openingBalance! + sum(two.transactions) - two.closingBalance!).toBe(-30008) // off by 300.08
    expect(two.transactions.map((t) => t.amountMinor)).toContain(1500000) // "15000,"
    // ?32/?33 give the name; ?20-?29 the purpose, joined across line breaks.
    expect(one.transactions[0].payee).toBe('KARL KAUFMANN')
    expect(one.transactions[1].memo).toContain('Strukturierter Verwendungszweck')
  })

  it('pl-mbank-soh-etx-control-chars.sta: SOH/ETX bytes, IBAN, :61: second line, :64:', () => {
    const r = mt940('pl-mbank-soh-etx-control-chars.sta')
    expect(r.statements).toHaveLength(1)
    const [s] = r.statements
    expect(s.currency).toBe('PLN')
    expect(s.accountHint).toMatch(/^PL\d{26}$/)
    expect(s.transactions.map((t) => t.amountMinor)).toEqual([1, 1, 1])
    expect(sum(s.transactions)).toBe(3)
    expect(new Set(s.transactions.map((t) => t.date))).toEqual(new Set(['2017-01-19']))
    expect([s.openingBalance, s.closingBalance]).toEqual([40, 43])
    expect(reconciles(s)).toBe(true)
    expect(new Set(s.transactions.map((t) => t.externalId)).size).toBe(3) // //MB... bank references
  })
})

const statement = (body: string, close = ':62F:C240131EUR100,00') =>
  `:20:REF1\n:25:DE89370400440532013000\n:28C:1/1\n:60F:C240101EUR100,00\n${body}\n${close}\n-\n`

describe('MT940 hand-made cases', () => {
  it('reads RC as money out and RD as money in (reversals), C/D as they are', () => {
    const r = parseMt940(
      bytes(statement(':61:2401050105RC10,00NTRFNONREF\n:61:240106RD2,5NTRFNONREF\n:61:240107C1,NTRFNONREF\n:61:240108D0,01NTRFNONREF')),
      {},
    )
    expect(r.statements[0].transactions.map((t) => t.amountMinor)).toEqual([-1000, 250, 100, -1])
  })

  it('unwraps the SWIFT envelope {1:}{2:}{4: ... -}', () => {
    const src = `{1:F01BANKDEFFAXXX0000000000}{2:O9401200240131BANKDEFFAXXX00000000002401311200N}{3:{108:ABC}}{4:\n${statement(':61:240105D12,34NTRFREF1//B1').replace(/-\n$/, '-}')}{5:{CHK:123456789ABC}}`
    const r = parseStatement(bytes(src), {})
    expect(r.format).toBe('mt940')
    expect(r.statements[0].transactions[0]).toMatchObject({ amountMinor: -1234, externalId: 'B1', date: '2024-01-05' })
  })

  it('returns each :28C: page of one account as its own statement', () => {
    const page1 = `:20:A\n:25:X/1\n:28C:7/1\n:60F:C240101EUR10,00\n:61:240101C5,00NTRFNONREF\n:62M:C240101EUR15,00\n-\n`
    const page2 = `:20:A\n:25:X/1\n:28C:7/2\n:60M:C240101EUR15,00\n:61:240101D1,00NTRFNONREF\n:62F:C240101EUR14,00\n-\n`
    const r = parseMt940(bytes(page1 + page2), {})
    expect(r.statements.map((s) => [s.openingBalance, s.closingBalance, s.transactions.length])).toEqual([
      [1000, 1500, 1],
      [1500, 1400, 1],
    ])
  })

  it.skipIf(!HAS_BANK_FILES)('reads a file cut before its :62F: with its lines, no closing balance and a warning', () => {
    const full = new TextDecoder().decode(fixture('mt940/pl-mbank-soh-etx-control-chars.sta'))
    const cut = parseMt940(bytes(full.slice(0, full.indexOf(':62F:'))), {})
    const whole = parseMt940(fixture('mt940/pl-mbank-soh-etx-control-chars.sta'), {})
    expect(cut.statements[0].transactions).toEqual(whole.statements[0].transactions)
    expect(cut.statements[0].closingBalance).toBeUndefined()
    expect(cut.warnings).toEqual([expect.stringMatching(/^line \d+: the statement has no closing balance .*balance not checked/)])
  })

  it('keeps a :86: continuation line that starts with a dash', () => {
    const r = parseMt940(bytes(statement(':61:240105D1,00NTRFNONREF\n:86:INVOICE 12\n-PAID IN FULL\n:61:240106D2,00NTRFNONREF')), {})
    expect(r.statements[0].transactions.map((t) => t.memo)).toEqual(['INVOICE 12 -PAID IN FULL', undefined])
  })

  it('reads Windows-1252 text', () => {
    const r = parseMt940(latin1(statement(':61:240105D1,00NTRFNONREF\n:86:Caf\u00e9 \u0080 5')), {})
    expect(r.statements[0].transactions[0].memo).toBe('Café € 5')
  })

  it('lists a statement line it cannot read as unreadable, with its line', () => {
    const r = parseMt940(bytes(statement(':61:240105D1,00NTRFNONREF\n:61:24010XD1,00NTRF')), {})
    expect(r.statements[0].transactions).toHaveLength(1)
    expect(r.statements[0].unreadable).toEqual([{ line: 6, reason: expect.stringMatching(/^:61: "24010XD1,00NTRF"/) }])
    expect(r.warnings).toEqual([])
  })
})

/**
 * OFX/QFX statements: every file of ofx/ in the bank-file corpus (test/helpers/bank-files.ts)
 * against the figures of SOURCES.md, plus small hand-made files for truncation, time zones,
 * encodings and bad amounts.
 */
import { describe, expect, it } from 'vitest'
import { parseStatement } from '../../../src/import/statements/index.js'
import { parseOfx } from '../../../src/import/statements/ofx.js'
import { StatementParseError } from '../../../src/import/statements/types.js'
import { bytes, dateRange, fixture, HAS_BANK_FILES, latin1, sum } from './fixtures.js'

const ofx = (name: string) => parseStatement(fixture(`ofx/${name}`), { fileName: name })

describe.skipIf(!HAS_BANK_FILES)('OFX fixtures (SOURCES.md)', () => {
  it('us-checking-sgml-v102-indented.ofx: SGML 1.02, tab-indented, unclosed leaves', () => {
    const r = ofx('us-checking-sgml-v102-indented.ofx')
    expect(r.format).toBe('ofx')
    expect(r.statements).toHaveLength(1)
    const [s] = r.statements
    expect(s.currency).toBe('USD')
    expect(s.transactions.map((t) => t.amountMinor)).toEqual([1, -3451, -2500]) // +0.01, -34.51, -25.00
    expect(sum(s.transactions)).toBe(-5950) // -59.50
    expect(dateRange(s.transactions)).toEqual(['2011-03-31', '2011-04-07'])
    expect(s.transactions.map((t) => t.externalId)).toEqual(['0000486', '0000487', '0000488'])
    expect(s.closingBalance).toBe(10099) // LEDGERBAL 100.99 (not AVAILBAL 75.99)
    expect(s.accountHint).toContain('1452687~7') // ACCTID with "~"
    // NAME is cut at 32 characters, MEMO holds the full text.
    const first = s.transactions[0]
    expect(first.payee).toHaveLength(32)
    expect(first.memo?.startsWith(first.payee ?? '?')).toBe(true)
    expect((first.memo ?? '').length).toBeGreaterThan(32)
  })

  it('ca-checking-sgml-v102-unclosed-tz.ofx: one STMTTRN per line, [-5:EST] dates', () => {
    const [s] = ofx('ca-checking-sgml-v102-unclosed-tz.ofx').statements
    expect(s.currency).toBe('CAD')
    expect(s.transactions).toHaveLength(3)
    expect(sum(s.transactions)).toBe(-34527) // -345.27
    expect(dateRange(s.transactions)).toEqual(['2009-04-01', '2009-04-03'])
    expect(s.closingBalance).toBe(38234) // LEDGERBAL 382.34 (AVAILBAL 682.34 is not the ledger)
    expect(s.transactions.some((t) => t.payee?.includes("Joe's"))).toBe(true)
  })

  it('au-suncorp-xml-v200-crlf-cdata.ofx: XML 2.00, CRLF, CDATA with trailing spaces', () => {
    const r = ofx('au-suncorp-xml-v200-crlf-cdata.ofx')
    expect(r.statements).toHaveLength(1)
    const [s] = r.statements
    expect(s.currency).toBe('AUD')
    expect(s.transactions).toHaveLength(1)
    const [t] = s.transactions
    expect(t.amountMinor).toBe(-1685)
    expect(t.date).toBe('2013-12-15')
    expect(t.payee).toMatch(/^EFTPOS WDL HANDYWAY ALDI STORE$/) // CDATA, trailing spaces trimmed
    expect(t.memo).toMatch(/^EFTPOS WDL HANDYWAY ALDI STORE .*GEELONG WEST VICAU$/)
    expect(s.closingBalance).toBe(123412)
  })

  it('au-anz-creditcard-xml-header-sgml-body.ofx: XML header on an SGML body (not well-formed XML)', () => {
    const r = ofx('au-anz-creditcard-xml-header-sgml-body.ofx')
    const [s] = r.statements
    expect(r.statements).toHaveLength(1)
    expect(s.currency).toBe('AUD')
    expect(s.transactions).toHaveLength(1)
    expect(s.transactions[0]).toMatchObject({ amountMinor: -550, date: '2017-05-08' })
    expect(s.transactions[0].payee).toBeUndefined() // MEMO but no NAME
    expect(s.transactions[0].memo).toBeTruthy()
    expect(s.closingBalance).toBe(-12345) // LEDGERBAL -123.45, while AVAILBAL is +123.45
  })

  it('us-checking-xml-v211.ofx: four BANKTRANLISTs in one STMTRS, then an empty credit-card statement', () => {
    const r = ofx('us-checking-xml-v211.ofx')
    expect(r.statements).toHaveLength(2)
    const [checking, card] = r.statements
    expect(checking.transactions).toHaveLength(4)
    expect(sum(checking.transactions)).toBe(-36000) // -360 USD, integer amounts such as "-80"
    expect(new Set(checking.transactions.map((t) => t.date))).toEqual(new Set(['2013-08-24']))
    expect(checking.closingBalance).toBe(215656)
    // OCA asserts balance_start 2516.56: closing - lines, which reconciles.
    expect(checking.closingBalance! - sum(checking.transactions)).toBe(251656)
    expect(card.transactions).toHaveLength(0)
    expect(card.closingBalance).toBe(-56200)
    expect(card.accountHint).not.toBe(checking.accountHint)
  })

  it('us-amex-creditcard-sgml-v102-single-line.ofx as QFX: one line, dotted proprietary tags', () => {
    const r = parseStatement(fixture('ofx/us-amex-creditcard-sgml-v102-single-line.ofx'), { fileName: 'amex.qfx' })
    expect(r.format).toBe('qfx')
    const [s] = r.statements
    expect(s.transactions).toHaveLength(12)
    expect(s.transactions.every((t) => t.amountMinor < 0)).toBe(true) // 12 DEBITs
    expect(sum(s.transactions)).toBe(-35282) // -352.82
    expect(dateRange(s.transactions)).toEqual(['2013-12-01', '2013-12-16']) // [-7:MST]: the local date
    expect(s.closingBalance).toBe(-235638)
    const amounts = s.transactions.map((t) => t.amountMinor)
    expect(amounts).toEqual(expect.arrayContaining([-4240, -1300, -700])) // "-42.4", "-13", "-7"
    // DTSTART = DTEND = 20140112 does not cover the lines: the period is widened to cover them.
    expect(s.periodStart).toBe('2013-12-01')
    expect(s.periodEnd).toBe('2014-01-12')
  })
})

const header = (charset = '1252') =>
  `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:${charset}\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n`

function sgml(
  transactions: string,
  tail = '</BANKTRANLIST><LEDGERBAL><BALAMT>10.00<DTASOF>20240131</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
) {
  return (
    `${header()}<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STMTRS><CURDEF>EUR` +
    `<BANKACCTFROM><BANKID>12 345<ACCTID>00-1234.5<ACCTTYPE>CHECKING</BANKACCTFROM>` +
    `<BANKTRANLIST><DTSTART>20240101<DTEND>20240131\n${transactions}\n${tail}`
  )
}

const trn = (posted: string, amount: string, fitid: string, name = 'SHOP') =>
  `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>${posted}<TRNAMT>${amount}<FITID>${fitid}<NAME>${name}</STMTTRN>`

describe('OFX hand-made cases', () => {
  it('takes the local date of a [-5:EST] time, even late in the evening', () => {
    const r = parseOfx(bytes(sgml(trn('20240105120000.000[-5:EST]', '-1.00', 'A') + trn('20240105233000.000[-5:EST]', '-2.00', 'B'))), {})
    expect(r.statements[0].transactions.map((t) => t.date)).toEqual(['2024-01-05', '2024-01-05'])
  })

  it('normalises BANKID/ACCTID into the account hint', () => {
    const r = parseOfx(bytes(sgml(trn('20240105', '-1.00', 'A'))), {})
    expect(r.statements[0].accountHint).toBe('12345/0012345')
  })

  it('throws StatementParseError on a file cut inside the transaction list', () => {
    const full = sgml(trn('20240105', '-1.00', 'A') + trn('20240106', '-2.00', 'B'))
    const cut = full.slice(0, full.indexOf('<FITID>B'))
    expect(() => parseOfx(bytes(cut), {})).toThrow(StatementParseError)
    expect(() => parseOfx(bytes(cut), {})).toThrow(/truncated/)
  })

  it.skipIf(!HAS_BANK_FILES)('throws on a real XML file cut mid-way (no </OFX>, list not closed)', () => {
    const file = fixture('ofx/au-suncorp-xml-v200-crlf-cdata.ofx')
    const cut = file.subarray(0, Buffer.from(file).indexOf('</STMTTRN>'))
    expect(() => parseOfx(cut, {})).toThrow(StatementParseError)
  })

  it('reads every line when a bank leaves </STMTTRN> out', () => {
    const open = (t: string) => t.replace('</STMTTRN>', '')
    const r = parseOfx(bytes(sgml(open(trn('20240105', '-1.00', 'A')) + open(trn('20240106', '-2.00', 'B')))), {})
    expect(r.statements[0].transactions.map((t) => [t.externalId, t.amountMinor])).toEqual([
      ['A', -100],
      ['B', -200],
    ])
  })

  it('reads CHARSET:1252 text as Windows-1252 (é, €)', () => {
    const r = parseOfx(latin1(sgml(trn('20240105', '-3.50', 'A', 'CAF\u00c9 \u0080 CR\u00c8ME'))), {})
    expect(r.statements[0].transactions[0].payee).toBe('CAFÉ € CRÈME')
  })

  it('reads UTF-8 bytes as UTF-8 even under a CHARSET:1252 header, with a warning', () => {
    const r = parseOfx(bytes(sgml(trn('20240105', '-3.50', 'A', 'CAFÉ'))), {})
    expect(r.statements[0].transactions[0].payee).toBe('CAFÉ')
    expect(r.warnings.join()).toMatch(/UTF-8/)
  })

  it('lists a line with a malformed amount as unreadable, naming its line', () => {
    const r = parseOfx(bytes(sgml(`${trn('20240105', '-1.00', 'A')}\n${trn('20240106', '12.3.4', 'B')}`)), {})
    expect(r.statements[0].transactions.map((t) => t.externalId)).toEqual(['A'])
    expect(r.statements[0].unreadable).toEqual([{ line: 13, reason: expect.stringMatching(/12\.3\.4/) }])
    expect(r.warnings).toEqual([])
  })

  it("reads transactions after a stray </BANKTRANLIST> as the statement's own, and says where they were", () => {
    const tail = `</BANKTRANLIST>\n${trn('20240107', '-3.00', 'C')}${trn('20240108', '-4.00', 'D')}</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`
    const r = parseOfx(bytes(sgml(trn('20240105', '-1.00', 'A'), tail)), {})
    expect(r.statements[0].transactions.map((t) => [t.externalId, t.amountMinor])).toEqual([
      ['A', -100],
      ['C', -300],
      ['D', -400],
    ])
    expect(r.warnings).toEqual(['line 14: 2 <STMTTRN> outside a <BANKTRANLIST>, read as transactions of the statement'])
  })

  it('reads a decimal comma and entities', () => {
    const r = parseOfx(bytes(sgml(trn('20240105', '-1234,5', 'A', 'A &amp; B'))), {})
    expect(r.statements[0].transactions[0]).toMatchObject({ amountMinor: -123450, payee: 'A & B' })
  })

  it('refuses a file with no statement, and one with no OFX element', () => {
    expect(() => parseOfx(bytes(`${header()}<OFX><SIGNONMSGSRSV1></SIGNONMSGSRSV1></OFX>`), {})).toThrow(/no bank or credit-card statement/)
    expect(() => parseOfx(bytes('hello'), {})).toThrow(StatementParseError)
  })
})

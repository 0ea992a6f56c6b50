/**
 * CAMT.053: every file of camt053/ in the bank-file corpus (test/helpers/bank-files.ts) against
 * SOURCES.md, plus hand-made messages for namespaces, reversals, encodings and truncation.
 */
import { describe, expect, it } from 'vitest'
import { parseCamt053 } from '../../../src/import/statements/camt.js'
import { parseStatement } from '../../../src/import/statements/index.js'
import { StatementParseError } from '../../../src/import/statements/types.js'
import { bytes, fixture, HAS_BANK_FILES, latin1, lines, reconciles, sum } from './fixtures.js'

const camt = (name: string) => parseStatement(fixture(`camt053/${name}`), { fileName: name })

describe.skipIf(!HAS_BANK_FILES)('CAMT.053 fixtures (SOURCES.md)', () => {
  it('nl-abnamro-style-v02-batch-reversal-no-xmldecl.xml: batch split, reversal, no XML declaration', () => {
    const r = camt('nl-abnamro-style-v02-batch-reversal-no-xmldecl.xml')
    expect(r.format).toBe('camt053')
    expect(r.statements).toHaveLength(1)
    const [s] = r.statements
    expect(s.accountHint).toBe('NL77ABNA0574908765')
    expect(s.currency).toBe('EUR')
    // OCA's golden file: 4 lines with the batch split; the DBIT entry with RvslInd=true stays money out.
    expect(s.transactions.map((t) => t.amountMinor)).toEqual([-75425, -56405, -10000, 140531])
    expect(sum(s.transactions)).toBe(-1299) // entry-level sum -12.99
    expect(new Set(s.transactions.map((t) => t.date))).toEqual(new Set(['2014-01-05']))
    expect(s.transactions.every((t) => t.externalId === undefined)).toBe(true) // no AcctSvcrRef, no NtryRef
    expect(s.openingBalance).toBe(1556827)
    expect(s.closingBalance).toBe(1512112)
    expect(reconciles(s)).toBe(false) // the source data is inconsistent (Δ -447.15)
  })

  it('ch-v04-one-entry-two-txdtls.xml: one entry, two TxDtls with their own amounts, two lines', () => {
    const r = camt('ch-v04-one-entry-two-txdtls.xml')
    const [s] = r.statements
    expect(s.accountHint).toBe('CH1111000000123456789')
    expect(s.currency).toBe('CHF')
    expect(s.transactions.map((t) => t.amountMinor)).toEqual([218700, 129600])
    expect(sum(s.transactions)).toBe(348300)
    // OCA's golden file dates both lines with the booking date; the value date is kept apart.
    expect(s.transactions.map((t) => [t.date, t.valueDate])).toEqual([
      ['2017-03-22', '2017-03-23'],
      ['2017-03-22', '2017-03-23'],
    ])
    // Both TxDtls carry AcctSvcrRef 123456CHCAFEBABE: the lines must not share an id.
    const ids = s.transactions.map((t) => t.externalId)
    expect(new Set(ids).size).toBe(2)
    expect(ids).not.toContain('123456CHCAFEBABE')
    expect(ids.every((id) => id?.startsWith('20170323001234567891234567891234'))).toBe(true)
    expect(s.openingBalance).toBe(7596015)
    expect(s.closingBalance).toBe(7944315)
    expect(reconciles(s)).toBe(true)
    expect(s.transactions[0].memo).toContain('É') // UTF-8 text
  })

  it('v02-two-statements-one-file.xml: two <Stmt> for one IBAN, each reconciles', () => {
    const r = camt('v02-two-statements-one-file.xml')
    expect(r.statements).toHaveLength(2)
    const [one, two] = r.statements
    expect(one.accountHint).toBe('NL26VAYB8060476890')
    expect(two.accountHint).toBe('NL26VAYB8060476890')
    expect([one.openingBalance, sum(one.transactions), one.closingBalance]).toEqual([1815, 885, 2700])
    expect([two.openingBalance, sum(two.transactions), two.closingBalance]).toEqual([2700, -700, 2000])
    expect(reconciles(one)).toBe(true)
    expect(reconciles(two)).toBe(true)
    expect(sum(lines(r.statements))).toBe(185)
    expect(lines(r.statements).map((t) => [t.date, t.valueDate])).toEqual([
      ['2014-12-31', '2015-01-02'],
      ['2014-12-31', '2015-01-02'],
    ])
  })

  it('v08-namespace-minimal.xml: camt.053.001.08, Othr/Id account, DtTm booking date with offset', () => {
    const r = camt('v08-namespace-minimal.xml')
    expect(r.statements).toHaveLength(1)
    const [s] = r.statements
    expect(s.accountHint).toBeTruthy() // Acct/Id/Othr/Id, no <IBAN>
    expect(s.currency).toBe('EUR')
    expect(s.transactions).toHaveLength(1)
    expect(s.transactions[0]).toMatchObject({
      amountMinor: 885,
      date: '2014-12-31', // 2014-12-31T13:15:00+01:00: the date as written
      valueDate: '2015-01-02',
      externalId: 'AAAASESS-FP-CN_98765/01',
    })
    // The balance lines are nonsense test data (SOURCES.md): not asserted.
  })
})

function message(entries: string, opts: { ns?: string; prefix?: string; decl?: string } = {}) {
  const p = opts.prefix ? `${opts.prefix}:` : ''
  const xmlns = opts.ns === undefined ? '' : ` xmlns${opts.prefix ? `:${opts.prefix}` : ''}="urn:iso:std:iso:20022:tech:xsd:${opts.ns}"`
  const body =
    `<Stmt><Id>S1</Id><Acct><Id><IBAN>DE89 3704 0044 0532 0130 00</IBAN></Id><Ccy>EUR</Ccy></Acct>` +
    `<Bal><Tp><CdOrPrtry><Cd>PRCD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">100.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Dt><Dt>2024-01-01</Dt></Dt></Bal>` +
    `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">50.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-01-02</Dt></Dt></Bal>` +
    `${entries}</Stmt>`
  const xml = `${opts.decl ?? ''}<${p}Document${xmlns}><${p}BkToCstmrStmt>${body.replace(/<(\/?)(\w+)/g, `<$1${p}$2`)}</${p}BkToCstmrStmt></${p}Document>`
  return xml
}

const entry = (amt: string, ind: string, extra = '') =>
  `<Ntry><NtryRef>R${amt}</NtryRef><Amt Ccy="EUR">${amt}</Amt><CdtDbtInd>${ind}</CdtDbtInd>${extra}<Sts>BOOK</Sts><BookgDt><Dt>2024-01-02</Dt></BookgDt><ValDt><DtTm>2024-01-03T10:00:00</DtTm></ValDt></Ntry>`

describe('CAMT.053 hand-made cases', () => {
  it('reads any camt.053.001.NN namespace, a prefixed one, or none', () => {
    for (const opts of [{ ns: 'camt.053.001.06' }, { ns: 'camt.053.001.03', prefix: 'ns2' }, {}]) {
      const r = parseCamt053(bytes(message(entry('150.00', 'CRDT'), opts)), {})
      const [s] = r.statements
      expect(s).toMatchObject({ accountHint: 'DE89370400440532013000', openingBalance: -10000, closingBalance: 5000 })
      expect(reconciles(s)).toBe(true)
      expect(s.transactions[0]).toMatchObject({ amountMinor: 15000, date: '2024-01-02', valueDate: '2024-01-03', externalId: 'R150.00' })
    }
  })

  it('signs a reversal by its CdtDbtInd: CRDT + RvslInd is money in, DBIT + RvslInd money out', () => {
    const r = parseCamt053(
      bytes(message(entry('20.00', 'CRDT', '<RvslInd>true</RvslInd>') + entry('5.00', 'DBIT', '<RvslInd>true</RvslInd>'))),
      {},
    )
    expect(r.statements[0].transactions.map((t) => t.amountMinor)).toEqual([2000, -500])
  })

  it('refuses an element of more than 64 attributes, and one nested over 100 deep, as StatementParseError', () => {
    const attrs = (n: number) => Array.from({ length: n }, (_, i) => ` a${i}="x=y"`).join('')
    const ok = parseCamt053(bytes(message(entry('1.00', 'CRDT', `<AddtlNtryInf${attrs(64)}>x</AddtlNtryInf>`))), {})
    expect(ok.statements[0].transactions).toHaveLength(1)
    // An "=" inside a value, a comment or CDATA is no attribute.
    const quiet = `<!-- ${'='.repeat(100)} --><AddtlNtryInf><![CDATA[${'='.repeat(100)}]]></AddtlNtryInf>`
    expect(parseCamt053(bytes(message(entry('1.00', 'CRDT', quiet))), {}).statements[0].transactions).toHaveLength(1)
    const many = message(entry('1.00', 'CRDT', `\n<AddtlNtryInf${attrs(65)}>x</AddtlNtryInf>`))
    expect(() => parseCamt053(bytes(many), {})).toThrow(
      new StatementParseError('an element has more than 64 attributes: this is no CAMT message', 2),
    )
    const deep = message(entry('1.00', 'CRDT', `${'<X>'.repeat(101)}${'</X>'.repeat(101)}`))
    expect(() => parseCamt053(bytes(deep), {})).toThrow(new StatementParseError('the XML cannot be read: Maximum nested tags exceeded'))
  })

  it('refuses another camt message', () => {
    expect(() => parseCamt053(bytes(message('', { ns: 'camt.052.001.02' })), {})).toThrow(/camt\.052/)
  })

  it.skipIf(!HAS_BANK_FILES)('throws StatementParseError on a file cut mid-way, with the line', () => {
    const file = fixture('camt053/ch-v04-one-entry-two-txdtls.xml')
    const cut = file.subarray(0, Math.floor(file.length / 2))
    expect(() => parseCamt053(cut, {})).toThrow(StatementParseError)
    expect(() => parseCamt053(cut, {})).toThrow(/not well-formed.*truncated/)
  })

  it('decodes by the XML declaration (ISO-8859-1)', () => {
    const xml = message(entry('1.00', 'CRDT', '<AddtlNtryInf>Caf\u00e9</AddtlNtryInf>'), {
      decl: '<?xml version="1.0" encoding="ISO-8859-1"?>',
    })
    const r = parseCamt053(latin1(xml), {})
    expect(r.statements[0].transactions[0].memo).toBe('Café')
  })

  it('lists an entry with a malformed amount as unreadable, with its line, apart from the warnings', () => {
    const r = parseCamt053(bytes(message(entry('1.00', 'CRDT') + entry('1,5x', 'CRDT'))), {})
    expect(r.statements[0].transactions).toHaveLength(1)
    expect(r.warnings).toEqual([])
    expect(r.statements[0].unreadable).toHaveLength(1)
    expect(r.statements[0].unreadable?.[0].line).toEqual(expect.any(Number))
    expect(r.statements[0].unreadable?.[0].reason).toMatch(/1,5x/)
  })
})

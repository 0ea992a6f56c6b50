/**
 * Generated hostile statement files, one family per way a parser can be made slow or hungry: deep
 * nesting, many distinct tags, one huge line, many tiny records. `make(n)` builds a file of about
 * n units; the growth tests parse it at n and at 4n, and docs/parser-limits.md records the times.
 */
import type { StatementFormat } from '../../../src/import/statements/types.js'

export interface Hostile {
  /** Format and family, e.g. "ofx-sgml: deep distinct aggregates". */
  name: string
  format: StatementFormat | 'csv'
  /** Units at 1x: a size the parser takes a few tens of milliseconds over when linear. */
  n: number
  make(n: number): string
}

const range = (n: number, f: (i: number) => string) => {
  const parts: string[] = new Array(n)
  for (let i = 0; i < n; i++) parts[i] = f(i)
  return parts.join('')
}

/** A run of words (spaces between), n characters long. */
const words = (n: number) => 'lorem ipsum '.repeat(Math.ceil(n / 12)).slice(0, n)

// ---- OFX -------------------------------------------------------------------------------------

const SGML_HEADER = 'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nENCODING:USASCII\nCHARSET:1252\n\n'
const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n<?OFX OFXHEADER="200" VERSION="200"?>\n'

const sgmlTrn = (i: number, extra = '') =>
  `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1.${String(i % 100).padStart(2, '0')}<FITID>${i}<NAME>shop ${i}${extra}</STMTTRN>\n`
const xmlTrn = (i: number) =>
  `<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20240105</DTPOSTED><TRNAMT>-1.00</TRNAMT><FITID>${i}</FITID><NAME>shop</NAME></STMTTRN>\n`

/** An SGML statement whose STMTRS holds `inside` before one ordinary transaction. */
const sgml = (inside: string, trns = sgmlTrn(0)) =>
  `${SGML_HEADER}<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR<BANKACCTFROM><BANKID>1<ACCTID>2</BANKACCTFROM>\n${inside}\n` +
  `<BANKTRANLIST><DTSTART>20240101<DTEND>20240131\n${trns}</BANKTRANLIST><LEDGERBAL><BALAMT>0<DTASOF>20240131</LEDGERBAL>` +
  '</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n'

const xml = (inside: string, trns = xmlTrn(0)) =>
  `${XML_HEADER}<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR</CURDEF><BANKACCTFROM><BANKID>1</BANKID><ACCTID>2</ACCTID></BANKACCTFROM>\n` +
  `${inside}\n<BANKTRANLIST><DTSTART>20240101</DTSTART><DTEND>20240131</DTEND>\n${trns}</BANKTRANLIST>` +
  '<LEDGERBAL><BALAMT>0</BALAMT><DTASOF>20240131</DTASOF></LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n'

const OFX: Hostile[] = [
  // The issue's file: 20,000 distinct nested tags, 149 KB.
  { name: 'ofx-sgml: deep distinct aggregates', format: 'ofx', n: 20_000, make: (n) => sgml(range(n, (i) => `<A${i}>\n`)) },
  {
    name: 'ofx-sgml: transactions inside deep aggregates',
    format: 'ofx',
    n: 20_000,
    make: (n) => sgml('', `${range(n, (i) => `<A${i}>`)}${sgmlTrn(1)}`),
  },
  {
    name: 'ofx-sgml: many distinct leaf tags',
    format: 'ofx',
    n: 20_000,
    make: (n) =>
      sgml(
        '',
        sgmlTrn(
          0,
          range(n, (i) => `<L${i}>x\n`),
        ),
      ),
  },
  {
    name: 'ofx-sgml: stray closing tags under a deep stack',
    format: 'ofx',
    n: 10_000,
    make: (n) => sgml(range(n, (i) => `<A${i}>`) + range(n, (i) => `</Z${i}>`)),
  },
  { name: 'ofx-sgml: one huge line (a memo)', format: 'ofx', n: 250_000, make: (n) => sgml('', sgmlTrn(0, `<MEMO>${words(n)}`)) },
  {
    name: 'ofx-sgml: one huge line of entities',
    format: 'ofx',
    n: 25_000,
    make: (n) => sgml('', sgmlTrn(0, `<MEMO>${'&amp;&#65;'.repeat(n)}`)),
  },
  {
    name: 'ofx-sgml: many tiny records',
    format: 'ofx',
    n: 2_500,
    make: (n) =>
      sgml(
        '',
        range(n, (i) => sgmlTrn(i)),
      ),
  },
  {
    name: 'ofx-sgml: many tiny records on one line',
    format: 'ofx',
    n: 2_500,
    make: (n) =>
      sgml(
        '',
        range(n, (i) => sgmlTrn(i).trim()),
      ),
  },
  {
    name: 'ofx-xml: deep distinct elements',
    format: 'ofx',
    n: 20_000,
    make: (n) => xml(`${range(n, (i) => `<A${i}>`)}x${range(n, (i) => `</A${n - 1 - i}>`)}`),
  },
  { name: 'ofx-xml: many tiny records', format: 'ofx', n: 2_500, make: (n) => xml('', range(n, xmlTrn)) },
  { name: 'ofx-xml: many comments', format: 'ofx', n: 50_000, make: (n) => xml(range(n, (i) => `<!-- ${i} -->`)) },
]

// ---- CAMT.053 --------------------------------------------------------------------------------

const camtEntry = (i: number, inside = '') =>
  `<Ntry><Amt Ccy="EUR">1.${String(i % 100).padStart(2, '0')}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>` +
  `<BookgDt><Dt>2024-01-05</Dt></BookgDt><AcctSvcrRef>R${i}</AcctSvcrRef>${inside}</Ntry>\n`

const camt = (entries: string) =>
  '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>' +
  '<GrpHdr><MsgId>M</MsgId><CreDtTm>2024-01-31T00:00:00</CreDtTm></GrpHdr><Stmt><Id>S</Id>' +
  '<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\n' +
  `${entries}</Stmt></BkToCstmrStmt></Document>\n`

const CAMT: Hostile[] = [
  {
    name: 'camt053: deep nesting',
    format: 'camt053',
    n: 20_000,
    make: (n) => camt(camtEntry(0, `<AddtlNtryInf>${'<X>'.repeat(n)}x${'</X>'.repeat(n)}</AddtlNtryInf>`)),
  },
  {
    name: 'camt053: deep distinct elements',
    format: 'camt053',
    n: 20_000,
    make: (n) => camt(camtEntry(0, `${range(n, (i) => `<A${i}>`)}x${range(n, (i) => `</A${n - 1 - i}>`)}`)),
  },
  {
    name: 'camt053: many distinct tags',
    format: 'camt053',
    n: 5_000,
    make: (n) =>
      camt(
        camtEntry(
          0,
          range(n, (i) => `<T${i}>x</T${i}>`),
        ),
      ),
  },
  {
    name: 'camt053: one huge line (remittance text)',
    format: 'camt053',
    n: 250_000,
    make: (n) => camt(camtEntry(0, `<NtryDtls><TxDtls><RmtInf><Ustrd>${words(n)}</Ustrd></RmtInf></TxDtls></NtryDtls>`)),
  },
  { name: 'camt053: many tiny records', format: 'camt053', n: 1_000, make: (n) => camt(range(n, (i) => camtEntry(i))) },
  {
    name: 'camt053: many attributes',
    format: 'camt053',
    n: 5_000,
    make: (n) => camt(camtEntry(0, `<AddtlNtryInf ${range(n, (i) => `a${i}="x" `)}>x</AddtlNtryInf>`)),
  },
]

// ---- MT940 -----------------------------------------------------------------------------------

const mt940 = (body: string) => `:20:REF\n:25:DE89370400440532013000\n:28C:1/1\n:60F:C240101EUR0,00\n${body}:62F:C240131EUR0,00\n-\n`
const line61 = (i: number) => `:61:2401050105C1,${String(i % 100).padStart(2, '0')}NTRFREF${i}//B${i}\n`

const MT940: Hostile[] = [
  { name: 'mt940: many tiny records', format: 'mt940', n: 4_000, make: (n) => mt940(range(n, (i) => `${line61(i)}:86:shop ${i}\n`)) },
  {
    name: 'mt940: many :86: fields after one line',
    format: 'mt940',
    n: 20_000,
    make: (n) => mt940(line61(0) + range(n, (i) => `:86:part ${i}\n`)),
  },
  {
    name: 'mt940: many distinct tags',
    format: 'mt940',
    n: 50_000,
    make: (n) => mt940(line61(0) + range(n, (i) => `:${String(i % 100).padStart(2, '0')}${String.fromCharCode(65 + (i % 26))}:x\n`)),
  },
  { name: 'mt940: one huge line (:86:)', format: 'mt940', n: 500_000, make: (n) => mt940(`${line61(0)}:86:${words(n)}\n`) },
  {
    name: 'mt940: one huge line of subfields',
    format: 'mt940',
    n: 100_000,
    make: (n) => mt940(`${line61(0)}:86:166${range(n, (i) => `?${String(20 + (i % 10))}ab`)}\n`),
  },
  { name: 'mt940: one huge line of spaces', format: 'mt940', n: 1_000_000, make: (n) => mt940(`${line61(0)}:86:a${' '.repeat(n)}b\n`) },
  { name: 'mt940: a huge :61: amount', format: 'mt940', n: 1_000_000, make: (n) => mt940(`:61:2401050105C${'1'.repeat(n)}\u2028\n`) },
  { name: 'mt940: many statements', format: 'mt940', n: 1_500, make: (n) => range(n, (i) => mt940(line61(i))) },
  {
    name: 'mt940: deep envelope blocks',
    format: 'mt940',
    n: 200_000,
    make: (n) => `{1:F01BANK}{2:O940}{4:\n${mt940(line61(0))}${'{1:{x}'.repeat(n)}\n-}`,
  },
]

// ---- QIF -------------------------------------------------------------------------------------

const qif = (body: string) => `!Type:Bank\n${body}`
const qifRecord = (i: number) => `D01/${String((i % 28) + 1).padStart(2, '0')}/2024\nT-1.00\nPshop ${i}\n^\n`

const QIF: Hostile[] = [
  { name: 'qif: many tiny records', format: 'qif', n: 5_000, make: (n) => qif(range(n, qifRecord)) },
  { name: 'qif: many sections', format: 'qif', n: 3_000, make: (n) => range(n, (i) => qif(qifRecord(i))) },
  { name: 'qif: many accounts', format: 'qif', n: 2_000, make: (n) => range(n, (i) => `!Account\nNacct ${i}\n^\n${qif(qifRecord(i))}`) },
  {
    name: 'qif: one record of many splits',
    format: 'qif',
    n: 20_000,
    make: (n) => qif(`D01/15/2024\nT-1.00\n${range(n, (i) => `Scat${i}\nEm${i}\n$-0.01\n`)}^\n`),
  },
  { name: 'qif: one huge line (a memo)', format: 'qif', n: 500_000, make: (n) => qif(`D01/15/2024\nT-1.00\nM${words(n)}\n^\n`) },
  { name: 'qif: one huge line of spaces', format: 'qif', n: 1_000_000, make: (n) => qif(`D01/15/2024\nT-1.00\nMa${' '.repeat(n)}b\n^\n`) },
  { name: 'qif: a huge date', format: 'qif', n: 1_000_000, make: (n) => qif(`D01/15/20${'2'.repeat(n)}\nT-1.00\n^\n${qifRecord(0)}`) },
  { name: 'qif: a huge amount', format: 'qif', n: 1_000_000, make: (n) => qif(`D01/15/2024\nT-1${'0'.repeat(n)}x\n^\n${qifRecord(0)}`) },
]

// ---- CSV -------------------------------------------------------------------------------------

const CSV: Hostile[] = [
  { name: 'csv: one huge field', format: 'csv', n: 250_000, make: (n) => `Date,Amount,Description\n2024-01-05,-1.00,${words(n)}\n` },
  {
    name: 'csv: one huge line of fields',
    format: 'csv',
    n: 100_000,
    make: (n) => `Date,Amount,Description\n2024-01-05,-1.00,${'x,'.repeat(n)}\n`,
  },
  { name: 'csv: an unclosed quote', format: 'csv', n: 500_000, make: (n) => `Date,Amount,Description\n2024-01-05,-1.00,"${words(n)}\n` },
  {
    name: 'csv: many tiny records',
    format: 'csv',
    n: 4_000,
    make: (n) => `Date,Amount,Description\n${range(n, (i) => `2024-01-05,-1.00,s${i}\n`)}`,
  },
]

export const HOSTILE: Hostile[] = [...OFX, ...CAMT, ...MT940, ...QIF, ...CSV]

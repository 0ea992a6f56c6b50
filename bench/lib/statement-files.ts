/**
 * Deterministic (seeded) bank statement files for the `statements` section: the same `n` lines
 * written as an ISO 20022 CAMT.053 (camt.053.001.02, one <Stmt>, opening and closing balances that
 * add up) and as an OFX 1.02 SGML file (one STMTRS, n STMTTRN, LEDGERBAL = the closing balance).
 *
 * The shapes follow the real files of ../shared/fixtures/bank-files (camt053/v02-two-statements-
 * one-file.xml, ofx/us-checking-sgml-v102-indented.ofx): booked entries with booking and value
 * dates, the bank's reference (AcctSvcrRef / FITID, unique), a bank transaction code, the
 * counterparty's name and unstructured remittance text. A CAMT entry is written on one line,
 * without indentation: 50,000 pretty-printed entries (1-2 KB each, as banks write them) would be
 * far over the 20 MiB a statement upload accepts; as written, 50,000 entries are about 18 MiB.
 */
import { createWriteStream, statSync, type WriteStream } from 'node:fs'
import { CATEGORIES, centsToDecimal, prng } from './txdata.js'

export interface StatementLineSpec {
  /** Booking date, YYYY-MM-DD (in order over the statement's year). */
  date: string
  /** Value date: the booking date or one to two days later. */
  valueDate: string
  /** Signed minor units (cents): positive = money in. */
  amountMinor: number
  /** The bank's own id of the line. */
  ref: string
  payee: string
  memo: string
}

export interface StatementSet {
  n: number
  currency: string
  lines: StatementLineSpec[]
  openingMinor: number
  closingMinor: number
  sumMinor: number
  periodStart: string
  periodEnd: string
}

export const STATEMENT_YEAR = 2024
const DAY_MS = 86_400_000

/** `n` statement lines over one year: 85% card and transfer debits, 15% credits (sales, refunds). */
export function generateStatementLines(n: number, seed = 53_053, currency = 'USD'): StatementSet {
  const rand = prng(seed)
  const start = Date.UTC(STATEMENT_YEAR, 0, 1)
  const days = 366
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  const lines: StatementLineSpec[] = []
  let sum = 0
  const debits = CATEGORIES.filter((c) => c.max < 0)
  const credits = CATEGORIES.filter((c) => c.min > 0)
  for (let i = 0; i < n; i++) {
    const day = Math.floor((i * days) / n)
    const booked = start + day * DAY_MS
    const credit = rand() < 0.15
    const pool = credit ? credits : debits
    const c = pool[Math.floor(rand() * pool.length)]
    // Everyday amounts: debits 1.00-2,500.00, credits 10.00-14,000.00, 2% of each ten times larger
    // (money in and out about even over the year).
    const big = rand() < 0.02
    const cents = credit
      ? 1_000 + Math.floor(rand() * (big ? 14_000_000 : 1_400_000))
      : 100 + Math.floor(rand() * (big ? 2_500_000 : 250_000))
    const amountMinor = credit ? cents : -cents
    sum += amountMinor
    const merchant = c.merchants[Math.floor(rand() * c.merchants.length)]
    const lag = rand() < 0.7 ? 0 : rand() < 0.5 ? 1 : 2
    const date = iso(booked)
    const seq = String(i + 1).padStart(7, '0')
    lines.push({
      date,
      valueDate: iso(booked + lag * DAY_MS),
      amountMinor,
      ref: `B${seq}`,
      payee: merchant,
      memo: credit ? `${c.name} ${seq}` : `${merchant.toUpperCase()} INV ${(Math.floor(rand() * 900_000) + 100_000).toString()}`,
    })
  }
  const openingMinor = 250_000_00
  return {
    n,
    currency,
    lines,
    openingMinor,
    closingMinor: openingMinor + sum,
    sumMinor: sum,
    periodStart: `${STATEMENT_YEAR}-01-01`,
    periodEnd: `${STATEMENT_YEAR}-12-31`,
  }
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const abs = (minor: number) => centsToDecimal(Math.abs(minor))
const ind = (minor: number) => (minor < 0 ? 'DBIT' : 'CRDT')

/** Buffered writes of many small strings to a file. */
async function writeLines(path: string, chunks: Iterable<string>): Promise<number> {
  const out: WriteStream = createWriteStream(path)
  let buf: string[] = []
  let size = 0
  const drain = () => new Promise<void>((r) => out.once('drain', () => r()))
  for (const c of chunks) {
    buf.push(c)
    size += c.length
    if (size >= 1 << 20) {
      if (!out.write(buf.join(''))) await drain()
      buf = []
      size = 0
    }
  }
  if (buf.length) out.write(buf.join(''))
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())))
  return statSync(path).size
}

function balance(code: 'OPBD' | 'CLBD', minor: number, currency: string, date: string): string {
  return (
    `      <Bal>\n        <Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp>\n` +
    `        <Amt Ccy="${currency}">${abs(minor)}</Amt>\n        <CdtDbtInd>${ind(minor)}</CdtDbtInd>\n` +
    `        <Dt><Dt>${date}</Dt></Dt>\n      </Bal>\n`
  )
}

function* camtChunks(s: StatementSet): Generator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n'
  yield '<Document xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">\n'
  yield '  <BkToCstmrStmt>\n'
  yield `    <GrpHdr>\n      <MsgId>FINCTLBENCH${s.n}</MsgId>\n      <CreDtTm>${STATEMENT_YEAR + 1}-01-01T06:00:00+00:00</CreDtTm>\n    </GrpHdr>\n`
  yield '    <Stmt>\n'
  yield `      <Id>STMT${STATEMENT_YEAR}0001</Id>\n      <ElctrncSeqNb>1</ElctrncSeqNb>\n      <CreDtTm>${STATEMENT_YEAR + 1}-01-01T06:00:00+00:00</CreDtTm>\n`
  yield `      <FrToDt>\n        <FrDtTm>${s.periodStart}T00:00:00+00:00</FrDtTm>\n        <ToDtTm>${s.periodEnd}T23:59:59+00:00</ToDtTm>\n      </FrToDt>\n`
  yield `      <Acct>\n        <Id>\n          <IBAN>DE89370400440532013000</IBAN>\n        </Id>\n        <Ccy>${s.currency}</Ccy>\n      </Acct>\n`
  yield balance('OPBD', s.openingMinor, s.currency, `${STATEMENT_YEAR - 1}-12-31`)
  yield balance('CLBD', s.closingMinor, s.currency, s.periodEnd)
  for (const l of s.lines) {
    const credit = l.amountMinor >= 0
    const party = credit ? `<Dbtr><Nm>${xmlEscape(l.payee)}</Nm></Dbtr>` : `<Cdtr><Nm>${xmlEscape(l.payee)}</Nm></Cdtr>`
    yield `<Ntry><Amt Ccy="${s.currency}">${abs(l.amountMinor)}</Amt><CdtDbtInd>${ind(l.amountMinor)}</CdtDbtInd><Sts>BOOK</Sts>` +
      `<BookgDt><Dt>${l.date}</Dt></BookgDt><ValDt><Dt>${l.valueDate}</Dt></ValDt><AcctSvcrRef>${l.ref}</AcctSvcrRef>` +
      `<BkTxCd><Prtry><Cd>${credit ? 'NTRF' : 'NCHG'}</Cd></Prtry></BkTxCd>` +
      `<NtryDtls><TxDtls><RltdPties>${party}</RltdPties><RmtInf><Ustrd>${xmlEscape(l.memo)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>\n`
  }
  yield '    </Stmt>\n  </BkToCstmrStmt>\n</Document>\n'
}

const ofxDate = (d: string) => `${d.replace(/-/g, '')}120000.000`

function* ofxChunks(s: StatementSet): Generator<string> {
  yield 'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n'
  yield '<OFX>\n\t<SIGNONMSGSRSV1>\n\t\t<SONRS>\n\t\t\t<STATUS>\n\t\t\t\t<CODE>0\n\t\t\t\t<SEVERITY>INFO\n\t\t\t</STATUS>\n'
  yield `\t\t\t<DTSERVER>${STATEMENT_YEAR + 1}0101060000.000\n\t\t\t<LANGUAGE>ENG\n\t\t</SONRS>\n\t</SIGNONMSGSRSV1>\n`
  yield '\t<BANKMSGSRSV1>\n\t\t<STMTTRNRS>\n\t\t\t<TRNUID>0\n\t\t\t<STATUS>\n\t\t\t\t<CODE>0\n\t\t\t\t<SEVERITY>INFO\n\t\t\t</STATUS>\n'
  yield `\t\t\t<STMTRS>\n\t\t\t\t<CURDEF>${s.currency}\n\t\t\t\t<BANKACCTFROM>\n\t\t\t\t\t<BANKID>121000248\n\t\t\t\t\t<ACCTID>4401532013\n\t\t\t\t\t<ACCTTYPE>CHECKING\n\t\t\t\t</BANKACCTFROM>\n`
  yield `\t\t\t\t<BANKTRANLIST>\n\t\t\t\t\t<DTSTART>${ofxDate(s.periodStart)}\n\t\t\t\t\t<DTEND>${ofxDate(s.periodEnd)}\n`
  for (const l of s.lines) {
    yield `\t\t\t\t\t<STMTTRN>\n\t\t\t\t\t\t<TRNTYPE>${l.amountMinor < 0 ? 'DEBIT' : 'CREDIT'}\n\t\t\t\t\t\t<DTPOSTED>${ofxDate(l.date)}\n` +
      (l.valueDate !== l.date ? `\t\t\t\t\t\t<DTAVAIL>${ofxDate(l.valueDate)}\n` : '') +
      `\t\t\t\t\t\t<TRNAMT>${centsToDecimal(l.amountMinor)}\n\t\t\t\t\t\t<FITID>${l.ref}\n` +
      `\t\t\t\t\t\t<NAME>${xmlEscape(l.payee.slice(0, 32))}\n\t\t\t\t\t\t<MEMO>${xmlEscape(l.memo)}\n\t\t\t\t\t</STMTTRN>\n`
  }
  yield '\t\t\t\t</BANKTRANLIST>\n'
  yield `\t\t\t\t<LEDGERBAL>\n\t\t\t\t\t<BALAMT>${centsToDecimal(s.closingMinor)}\n\t\t\t\t\t<DTASOF>${ofxDate(s.periodEnd)}\n\t\t\t\t</LEDGERBAL>\n`
  yield '\t\t\t</STMTRS>\n\t\t</STMTTRNRS>\n\t</BANKMSGSRSV1>\n</OFX>\n'
}

/** Write the CAMT.053 file; returns its size in bytes. */
export function writeCamt053(path: string, s: StatementSet): Promise<number> {
  return writeLines(path, camtChunks(s))
}

/** Write the OFX (1.02 SGML) file; returns its size in bytes. */
export function writeOfx(path: string, s: StatementSet): Promise<number> {
  return writeLines(path, ofxChunks(s))
}

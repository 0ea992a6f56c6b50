/**
 * OFX 1.x (SGML), OFX 2.x (XML) and QFX: bank (STMTRS) and credit-card (CCSTMTRS) statements.
 * One ParsedStatement per STMTRS/CCSTMTRS, whatever the number of accounts or statement lists.
 */
import {
  clean,
  compact,
  coverPeriod,
  decimalToMinor,
  decodeBytes,
  hasExtension,
  head,
  leadingDate,
  normaliseAccount,
  statementCurrency,
  unreadable,
} from './common.js'
import { find, findAll, type OfxNode, parseOfxTree, textOf } from './ofx-tree.js'
import {
  type ImportedTransaction,
  type ParseOptions,
  type ParseResult,
  type ParsedStatement,
  type StatementFormat,
  type StatementParser,
  StatementParseError,
} from './types.js'

/**
 * White space within a line: `^\s*` under the m flag would cross line breaks and scan every blank
 * line again from each line start (quadratic in a file of empty lines).
 */
const SP = '[^\\S\\n\\r\\u2028\\u2029]*'
const OFXHEADER = new RegExp(`^${SP}OFXHEADER${SP}:`, 'im')
const ENCODING = new RegExp(`^${SP}ENCODING${SP}:${SP}(\\S+)`, 'im')
const CHARSET = new RegExp(`^${SP}CHARSET${SP}:${SP}(\\S+)`, 'im')

export function looksLikeOfx(text: string): boolean {
  return OFXHEADER.test(text) || /<\?OFX\s/i.test(text) || /<OFX>/i.test(text)
}

/** The encoding the OFX header names: ENCODING:UTF-8 wins, else CHARSET (1252 -> windows-1252), else `<?xml encoding>`. */
export function declaredOfxEncoding(headText: string): string | undefined {
  const xml = /<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(headText)
  if (xml) return xml[1]
  const enc = ENCODING.exec(headText)?.[1]
  if (enc && /^utf-?8$/i.test(enc)) return 'utf-8'
  const charset = CHARSET.exec(headText)?.[1]
  if (!charset || /^none$/i.test(charset)) return enc
  return /^\d{3,4}$/.test(charset) ? `windows-${charset}` : charset.replace(/^8859-/, 'iso-8859-')
}

function truncated(node: OfxNode): never {
  throw new StatementParseError(`<${node.name}> (line ${node.line}) is never closed: the file looks truncated`)
}

function amountOf(text: string | undefined, currency: string) {
  const t = (text ?? '').trim()
  // OFX allows a decimal comma ("-12,50"); thousands separators are not allowed.
  return decimalToMinor(t, currency, /^[+-]?\d*,\d+$/.test(t) ? ',' : '.')
}

function readTransaction(trn: OfxNode, currency: string, statement: ParsedStatement): ImportedTransaction | undefined {
  if (!trn.closed) truncated(trn)
  const date = leadingDate(textOf(trn, 'DTPOSTED'))
  if (!date) {
    unreadable(statement, trn.line, `<STMTTRN>: DTPOSTED "${textOf(trn, 'DTPOSTED') ?? ''}" is not a date`)
    return undefined
  }
  const ccy = textOf(trn, 'CURSYM')?.toUpperCase() ?? currency
  const amount = amountOf(textOf(trn, 'TRNAMT'), ccy)
  if (!amount.ok) {
    unreadable(statement, trn.line, `<STMTTRN>: TRNAMT ${amount.message}`)
    return undefined
  }
  const valueDate = leadingDate(textOf(trn, 'DTAVAIL')) ?? undefined
  return compact({
    date,
    valueDate: valueDate && valueDate !== date ? valueDate : undefined,
    amountMinor: amount.minor,
    currency: ccy,
    payee: clean(textOf(trn, 'NAME')),
    memo: clean(textOf(trn, 'MEMO')),
    externalId: clean(textOf(trn, 'FITID')),
    line: trn.line,
  })
}

function readStatement(rs: OfxNode, opts: ParseOptions, warnings: string[]): ParsedStatement {
  if (!rs.closed) truncated(rs)
  const currency = statementCurrency(textOf(rs, 'CURDEF'), opts.defaultCurrency, `the OFX statement on line ${rs.line}`)
  const acct = find(rs, 'BANKACCTFROM') ?? find(rs, 'CCACCTFROM')
  const acctId = acct && textOf(acct, 'ACCTID')
  const bankId = acct && textOf(acct, 'BANKID')
  const statement: ParsedStatement = { currency, transactions: [] }
  const hint = normaliseAccount(bankId && acctId ? `${bankId}/${acctId}` : acctId)
  if (hint) statement.accountHint = hint
  const read = new Set<OfxNode>()
  for (const list of findAll(rs, 'BANKTRANLIST')) {
    if (!list.closed) truncated(list)
    const start = leadingDate(textOf(list, 'DTSTART'))
    const end = leadingDate(textOf(list, 'DTEND'))
    if (start && (!statement.periodStart || start < statement.periodStart)) statement.periodStart = start
    if (end && (!statement.periodEnd || end > statement.periodEnd)) statement.periodEnd = end
    for (const trn of findAll(list, 'STMTTRN')) {
      read.add(trn)
      const t = readTransaction(trn, currency, statement)
      if (t) statement.transactions.push(t)
    }
  }
  // A transaction of the statement outside its list (after a stray </BANKTRANLIST>) is one of its transactions all the same.
  const stray = findAll(rs, 'STMTTRN').filter((trn) => !read.has(trn))
  for (const trn of stray) {
    const t = readTransaction(trn, currency, statement)
    if (t) statement.transactions.push(t)
  }
  if (stray.length) {
    statement.transactions.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
    warnings.push(`line ${stray[0].line}: ${stray.length} <STMTTRN> outside a <BANKTRANLIST>, read as transactions of the statement`)
  }
  const ledger = find(rs, 'LEDGERBAL')
  if (ledger) {
    const bal = amountOf(textOf(ledger, 'BALAMT'), currency)
    if (bal.ok) statement.closingBalance = bal.minor
    else warnings.push(`line ${ledger.line}: LEDGERBAL ignored, BALAMT ${bal.message}`)
  }
  coverPeriod(statement)
  return statement
}

export function parseOfx(bytes: Uint8Array, opts: ParseOptions, format: StatementFormat = 'ofx'): ParseResult {
  const warnings: string[] = []
  const sample = head(bytes, 4096)
  const bodyAt = sample.search(/<OFX[\s>]/i)
  const text = decodeBytes(bytes, opts.encoding, declaredOfxEncoding(bodyAt >= 0 ? sample.slice(0, bodyAt) : sample), warnings)
  const body = text.search(/<OFX[\s>]/i)
  if (body < 0) throw new StatementParseError(text.trim() === '' ? 'the file is empty' : 'no <OFX> element: this is not an OFX file')
  const startLine = text.slice(0, body).split('\n').length
  const root = parseOfxTree(text.slice(body), startLine)
  const ofx = root.children.find((c) => c.name === 'OFX')
  if (!ofx) throw new StatementParseError('no <OFX> element: this is not an OFX file')
  const statements = findAll(ofx, 'STMTRS', 'CCSTMTRS').map((rs) => readStatement(rs, opts, warnings))
  if (statements.length === 0) {
    if (!ofx.closed) truncated(ofx)
    const status = findAll(ofx, 'STATUS').find((s) => (textOf(s, 'CODE') ?? '0') !== '0')
    const why = status ? ` (the bank answered code ${textOf(status, 'CODE')}: ${textOf(status, 'MESSAGE') ?? 'no message'})` : ''
    const invest = find(ofx, 'INVSTMTRS') ? ': investment statements (INVSTMTRS) are not imported' : ''
    throw new StatementParseError(`the OFX file holds no bank or credit-card statement${invest}${why}`)
  }
  if (!ofx.closed) warnings.push('the file has no closing </OFX>, but every statement in it is complete')
  return { format, statements, warnings }
}

export const ofxParser: StatementParser = {
  format: 'ofx',
  sniff: (bytes, fileName) => looksLikeOfx(head(bytes)) || hasExtension(fileName, ['.ofx']),
  parse: (bytes, opts) => parseOfx(bytes, opts, 'ofx'),
}

/** QFX is Intuit's OFX with proprietary tags; the same reader. */
export const qfxParser: StatementParser = {
  format: 'qfx',
  sniff: (_bytes, fileName) => hasExtension(fileName, ['.qfx']),
  parse: (bytes, opts) => parseOfx(bytes, opts, 'qfx'),
}

/**
 * ISO 20022 bank-to-customer cash management messages, versions 001.02 to 001.08 and later: any
 * `camt.05x.001.NN` namespace, a prefixed one, or none. CAMT.053, the statement
 * (<BkToCstmrStmt>), gives one ParsedStatement per <Stmt>; CAMT.054, the debit/credit
 * notification (<BkToCstmrDbtCdtNtfctn>), one per <Ntfctn>, which has the same account and
 * entries and usually no balances. (CAMT.052, the intraday report, is not a booked record.)
 *
 * Lines: one per <Ntry>, except an entry (a batch) whose several <TxDtls> each carry their own
 * amount adding up to the entry's: then one line per TxDtls. The sign is the entry's CdtDbtInd:
 * in CAMT it gives the direction of the booking itself, also for a reversal (RvslInd=true with
 * DBIT is money out, the reversal of an earlier credit), unlike MT940's RC/RD marks.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser'
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
import { STATEMENT_FORMAT } from '../../kernel/statement-formats.js'
import {
  type ImportedTransaction,
  type ParseOptions,
  type ParseResult,
  type ParsedStatement,
  type StatementParser,
  StatementParseError,
} from './types.js'

/** A node of the object fast-xml-parser returns (dynamic by nature). */
// biome-ignore lint/suspicious/noExplicitAny: every access is checked where the value is used
type X = any

const REPEATED = new Set([
  'Stmt',
  'Ntfctn',
  'Bal',
  'Ntry',
  'NtryDtls',
  'TxDtls',
  'Ustrd',
  'Strd',
  'CdtrRefInf',
  'AddtlNtryInf',
  'AddtlTxInf',
])

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => REPEATED.has(name),
})

/** A CAMT element has a currency or a namespace or two; the XML reader spends microseconds on each attribute. */
const MAX_ATTRIBUTES = 64

/**
 * One pass over the text before the XML reader's: an element with more than MAX_ATTRIBUTES
 * attributes (counted by their `=` outside quotes) is no statement, and would cost the reader
 * seconds a megabyte.
 */
function refuseManyAttributes(text: string): void {
  let line = 1
  let inTag = false
  let quote = 0
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i) // 0x3c < 0x3e > 0x21 ! 0x3d = 0x22 " 0x27 '
    if (c === 10) line++
    if (quote) {
      if (c === quote) quote = 0
      continue
    }
    if (!inTag) {
      if (c !== 0x3c) continue
      if (text.charCodeAt(i + 1) !== 0x21) {
        inTag = true
        count = 0
        continue
      }
      // <!-- -->, <![CDATA[ ]]>, <!DOCTYPE >: no attributes, skipped whole (the validator judges them).
      const end = text.startsWith('<!--', i) ? '-->' : text.startsWith('<![CDATA[', i) ? ']]>' : '>'
      const at = text.indexOf(end, i)
      if (at < 0) return
      for (let k = i + 1; k < at; k++) if (text.charCodeAt(k) === 10) line++
      i = at + end.length - 1
    } else if (c === 0x3e) {
      inTag = false
    } else if (c === 0x22 || c === 0x27) {
      quote = c
    } else if (c === 0x3d && ++count > MAX_ATTRIBUTES) {
      throw new StatementParseError(`an element has more than ${MAX_ATTRIBUTES} attributes: this is no CAMT message`, line)
    }
  }
}

/**
 * The message as an object. The XML is well-formed by now, so what fast-xml-parser still refuses is
 * one of its limits (elements nested more than 100 deep, entities): a plain Error, made ours here.
 */
function readXml(text: string): X {
  try {
    return xml.parse(text)
  } catch (e) {
    throw new StatementParseError(`the XML cannot be read: ${(e as Error).message}`)
  }
}

/** The two messages read, each by its root element and the element of one statement in it. */
const MESSAGES = {
  camt053: { ns: 'camt.053', root: 'BkToCstmrStmt', item: 'Stmt', what: 'bank statement' },
  camt054: { ns: 'camt.054', root: 'BkToCstmrDbtCdtNtfctn', item: 'Ntfctn', what: 'debit/credit notification' },
} as const
type CamtFormat = keyof typeof MESSAGES

export function looksLikeCamt053(text: string): boolean {
  return /camt\.053\./.test(text) || /<(\w+:)?BkToCstmrStmt[\s>]/.test(text)
}

export function looksLikeCamt054(text: string): boolean {
  return /camt\.054\./.test(text) || /<(\w+:)?BkToCstmrDbtCdtNtfctn[\s>]/.test(text)
}

/** Text of a leaf, with or without attributes. */
function txt(v: X): string | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string') return v
  const t = v['#text']
  return typeof t === 'string' ? t : undefined
}

const list = (v: X): X[] => (v === undefined ? [] : Array.isArray(v) ? v : [v])
const dateOf = (v: X) => (v ? (leadingDate(txt(v.Dt)) ?? leadingDate(txt(v.DtTm))) : null) ?? undefined

/** Signed minor units of an `<Amt Ccy>` with a CdtDbtInd; a message when unusable. */
function signedAmount(amt: X, ind: string | undefined, expectCcy?: string): { minor: number; ccy: string } | string {
  const text = txt(amt)
  const ccy = (amt?.['@_Ccy'] ?? expectCcy) as string | undefined
  if (text === undefined || !ccy) return 'no amount'
  if (ind !== 'CRDT' && ind !== 'DBIT') return `CdtDbtInd "${ind ?? ''}" is neither CRDT nor DBIT`
  const r = decimalToMinor(text, ccy)
  if (!r.ok) return `amount ${r.message}`
  return { minor: ind === 'DBIT' ? -r.minor : r.minor, ccy }
}

function txAmountNode(tx: X): X {
  return tx.Amt ?? tx.AmtDtls?.TxAmt?.Amt
}

function partyName(p: X): string | undefined {
  return txt(p?.Nm) ?? txt(p?.Pty?.Nm)
}

/** Counterparty: the debtor of a credit, the creditor of a debit. */
function payeeOf(tx: X, credit: boolean): string | undefined {
  const r = tx?.RltdPties
  if (!r) return undefined
  return clean(credit ? (partyName(r.Dbtr) ?? partyName(r.UltmtDbtr)) : (partyName(r.Cdtr) ?? partyName(r.UltmtCdtr)))
}

/**
 * The free text of a line: its unstructured remittance lines (Ustrd), else the additional
 * information of the transaction or the entry, else the creditor references. `rawMemo` keeps the
 * text as written: one line per repeated element, runs of spaces kept.
 */
function memoOf(tx: X | undefined, ntry: X): { memo?: string; rawMemo?: string } {
  const refs = list(tx?.RmtInf?.Strd).flatMap((s: X) => list(s.CdtrRefInf).map((c: X) => txt(c.Ref)))
  for (const texts of [list(tx?.RmtInf?.Ustrd), list(tx?.AddtlTxInf), list(ntry.AddtlNtryInf), refs]) {
    const parts = texts.map(txt).filter((t): t is string => Boolean(t?.trim()))
    const memo = clean(parts.join(' '))
    if (!memo) continue
    const written = parts.join('\n')
    return written === memo ? { memo } : { memo, rawMemo: written }
  }
  return {}
}

function readEntry(
  ntry: X,
  currency: string,
  line: number | undefined,
  statement: ParsedStatement,
  warnings: string[],
): ImportedTransaction[] {
  const where = line ? `line ${line}` : 'an entry'
  const status = txt(ntry.Sts) ?? txt(ntry.Sts?.Cd)
  // Pending and information entries are not booked: no movement of the account yet, nor in its balances.
  if (status && status !== 'BOOK') {
    warnings.push(`${where}: entry skipped, its status is ${status} (not booked)`)
    return []
  }
  const ind = txt(ntry.CdtDbtInd)
  const amount = signedAmount(ntry.Amt, ind)
  if (typeof amount === 'string') {
    unreadable(statement, line, `<Ntry>: ${amount}`)
    return []
  }
  const date = dateOf(ntry.BookgDt) ?? dateOf(ntry.ValDt)
  if (!date) {
    unreadable(statement, line, '<Ntry>: it has no booking or value date')
    return []
  }
  const valueDate = dateOf(ntry.ValDt)
  const entryRef = clean(txt(ntry.AcctSvcrRef) ?? txt(ntry.NtryRef))
  const details: X[] = list(ntry.NtryDtls).flatMap((d: X) => list(d.TxDtls))
  const base = { date, valueDate: valueDate && valueDate !== date ? valueDate : undefined, currency: amount.ccy, line }
  if (amount.ccy !== currency) warnings.push(`${where}: entry in ${amount.ccy}, the statement is in ${currency}`)

  if (details.length > 1) {
    const parts = details.map((tx) => signedAmount(txAmountNode(tx), txt(tx.CdtDbtInd) ?? ind))
    const usable = parts.every((p) => typeof p !== 'string' && p.ccy === amount.ccy)
    const total = parts.reduce((a: number, p) => a + (typeof p === 'string' ? 0 : p.minor), 0)
    if (usable && total === amount.minor) {
      const own = details.map((tx) => clean(txt(tx.Refs?.AcctSvcrRef)))
      const unique = own.every((r) => r && own.indexOf(r) === own.lastIndexOf(r))
      return details.map((tx, k) =>
        compact({
          ...base,
          amountMinor: (parts[k] as { minor: number }).minor,
          payee: payeeOf(tx, (parts[k] as { minor: number }).minor >= 0),
          ...memoOf(tx, ntry),
          externalId: unique ? own[k] : entryRef ? `${entryRef}/${k + 1}` : undefined,
        }),
      )
    }
    warnings.push(`${where}: the ${details.length} transaction details do not add up to the entry amount; kept as one line`)
  }
  const single = details.length === 1 ? details[0] : undefined
  return [
    compact({
      ...base,
      amountMinor: amount.minor,
      payee: payeeOf(single, amount.minor >= 0),
      ...memoOf(single, ntry),
      externalId: entryRef ?? clean(txt(single?.Refs?.AcctSvcrRef)),
    }),
  ]
}

function balanceOf(stmt: X, codes: string[], currency: string, warnings: string[]): number | undefined {
  for (const code of codes) {
    const bal = list(stmt.Bal).find((b: X) => (txt(b.Tp?.CdOrPrtry?.Cd) ?? txt(b.Tp?.CdOrPrtry?.Prtry)) === code)
    if (!bal) continue
    const r = signedAmount(bal.Amt, txt(bal.CdtDbtInd), currency)
    if (typeof r === 'string') warnings.push(`balance ${code} ignored: ${r}`)
    else if (r.ccy !== currency) warnings.push(`balance ${code} ignored: it is in ${r.ccy}, the statement in ${currency}`)
    else return r.minor
  }
  return undefined
}

function parseCamt(format: CamtFormat, bytes: Uint8Array, opts: ParseOptions): ParseResult {
  const m = MESSAGES[format]
  const warnings: string[] = []
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head(bytes, 512))?.[1]
  const text = decodeBytes(bytes, opts.encoding, declared, warnings)
  if (text.trim() === '') throw new StatementParseError('the file is empty')
  refuseManyAttributes(text)
  const valid = XMLValidator.validate(text)
  if (valid !== true) {
    const { msg, line } = valid.err
    throw new StatementParseError(`the XML is not well-formed (the file may be truncated): ${msg}`, line)
  }
  const ns = /xmlns(?::\w+)?\s*=\s*["']urn:iso:std:iso:20022:tech:xsd:(camt\.\d{3})\.\d{3}\.\d{2}["']/.exec(text)?.[1]
  if (ns && ns !== m.ns) throw new StatementParseError(`this is a ${ns} message, not a ${m.ns} ${m.what}`)
  const doc: X = readXml(text)
  const message = doc.Document?.[m.root] ?? doc[m.root]
  if (!message) throw new StatementParseError(`no <${m.root}> element: this is not a ${m.ns} ${m.what}`)
  const stmts: X[] = list(message[m.item])
  if (stmts.length === 0) throw new StatementParseError(`the ${m.ns} message holds no <${m.item}>`)

  // Line numbers of the entries, in document order (the XML object has none).
  const entryLines: number[] = []
  let line = 1
  let at = 0
  for (const m of text.matchAll(/<(?:\w+:)?Ntry[\s>]/g)) {
    for (; at < m.index; at++) if (text.charCodeAt(at) === 10) line++
    entryLines.push(line)
  }
  let entryIndex = 0

  const statements = stmts.map((stmt: X) => {
    const entries: X[] = list(stmt.Ntry)
    const firstBal = list(stmt.Bal)[0]
    const currency = statementCurrency(
      txt(stmt.Acct?.Ccy) ?? txt(entries[0]?.Amt?.['@_Ccy']) ?? (firstBal?.Amt?.['@_Ccy'] as string | undefined),
      opts.defaultCurrency,
      `statement ${txt(stmt.Id) ?? ''}`.trim(),
    )
    const statement: ParsedStatement = { currency, transactions: [] }
    const hint = normaliseAccount(txt(stmt.Acct?.Id?.IBAN) ?? txt(stmt.Acct?.Id?.Othr?.Id))
    if (hint) statement.accountHint = hint
    const opening = balanceOf(stmt, ['OPBD', 'PRCD'], currency, warnings)
    const closing = balanceOf(stmt, ['CLBD'], currency, warnings)
    if (opening !== undefined) statement.openingBalance = opening
    if (closing !== undefined) statement.closingBalance = closing
    const from = leadingDate(txt(stmt.FrToDt?.FrDtTm))
    const to = leadingDate(txt(stmt.FrToDt?.ToDtTm))
    if (from) statement.periodStart = from
    if (to) statement.periodEnd = to
    for (const ntry of entries) statement.transactions.push(...readEntry(ntry, currency, entryLines[entryIndex++], statement, warnings))
    coverPeriod(statement)
    return statement
  })
  return { format, statements, warnings }
}

export const parseCamt053 = (bytes: Uint8Array, opts: ParseOptions) => parseCamt('camt053', bytes, opts)
export const parseCamt054 = (bytes: Uint8Array, opts: ParseOptions) => parseCamt('camt054', bytes, opts)

export const camt053Parser: StatementParser = {
  format: 'camt053',
  sniff: (bytes, fileName) => looksLikeCamt053(head(bytes)) || hasExtension(fileName, STATEMENT_FORMAT.camt053.extensions),
  parse: parseCamt053,
}

export const camt054Parser: StatementParser = {
  format: 'camt054',
  sniff: (bytes, fileName) => looksLikeCamt054(head(bytes)) || hasExtension(fileName, STATEMENT_FORMAT.camt054.extensions),
  parse: parseCamt054,
}

/**
 * QIF (Quicken Interchange Format): `!Type:Bank|CCard|Cash|Oth A|Oth L` sections become statements,
 * one per `!Account` (sections with no account header share one). Lists (categories, classes,
 * memorized transactions) are ignored; investment sections are skipped with a warning. Splits
 * (S/E/$) do not make lines: the transaction amount is its T line, and a record with no memo of its
 * own takes its splits' memos (E), else what each split went to. `L[Account]` (and `S[Account]`) is
 * QIF's notation for a transfer to or from another account, not a category. QIF dates have no fixed
 * order: as in CSV, the format is given (`dateFormat`) or decided over every date in the file, never
 * guessed. Comment lines (`#`) and blank lines before the first header are skipped.
 */
import { type DateFormat, DateDetector, formatFromFlag, type Order, parseDate } from '../dates.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { detectDecimalMark, parseLocaleAmount } from '../amount.js'
import { clean, compact, coverPeriod, decodeBytes, hasExtension, head, statementCurrency, unreadable } from './common.js'
import { type ParseOptions, type ParseResult, type ParsedStatement, type StatementParser, StatementParseError } from './types.js'

export function looksLikeQif(text: string): boolean {
  return /^(?:\s*#[^\n]*\n)*\s*!(Type|Account|Option|Clear)\b/i.test(text)
}

const BANK_TYPES = new Set(['bank', 'ccard', 'cash', 'oth a', 'oth l'])
const INVEST_TYPES = new Set(['invst', 'port', 'invoice'])

interface QifRecord {
  fields: { code: string; value: string }[]
  line: number
  closed: boolean
}

interface Section {
  kind: 'bank' | 'account' | 'invest' | 'other'
  type: string
  line: number
  records: QifRecord[]
}

function readSections(text: string, warnings: string[]): Section[] {
  const sections: Section[] = []
  const comments: number[] = []
  let section: Section | undefined
  let record: QifRecord | undefined
  const lines = text.split(/\r\n|\r|\n/)
  lines.forEach((raw, index) => {
    const line = raw.trimEnd()
    const n = index + 1
    if (line.trim() === '') return
    if (line.startsWith('!')) {
      const header = line.slice(1).trim()
      const type = /^Type\s*:\s*(.*)$/i.exec(header)?.[1]?.trim().toLowerCase()
      record = undefined
      if (/^(Option|Clear)\s*:/i.test(header)) return // !Option:AutoSwitch and the like
      const kind: Section['kind'] = /^Account$/i.test(header)
        ? 'account'
        : type && BANK_TYPES.has(type)
          ? 'bank'
          : type && INVEST_TYPES.has(type)
            ? 'invest'
            : 'other'
      section = { kind, type: header, line: n, records: [] }
      sections.push(section)
      return
    }
    // Some exporters open the file with # comment lines (a title, the export date) before the header.
    if (!section && line.trimStart().startsWith('#')) {
      comments.push(n)
      return
    }
    if (!section) throw new StatementParseError('the file does not start with a !Type: or !Account header: this is not a QIF file', n)
    if (line.startsWith('^')) {
      if (record) record.closed = true
      record = undefined
      return
    }
    if (!record) {
      record = { fields: [], line: n, closed: false }
      section.records.push(record)
    }
    record.fields.push({ code: line[0].toUpperCase(), value: line.slice(1).trim() })
  })
  if (comments.length) {
    const at = comments.length === 1 ? `line ${comments[0]}` : `lines ${comments[0]}-${comments[comments.length - 1]}`
    warnings.push(
      `${at}: ${comments.length === 1 ? 'a comment line' : `${comments.length} comment lines`} (#) before the first header, skipped`,
    )
  }
  return sections
}

/** `1/ 5'98`, `1/5'02`, `01.05.2002`: apostrophe years become a plain separator, spaces go. */
function normaliseDate(text: string): string {
  return text.replace(/'/g, '/').replace(/\s+/g, '')
}

const ORDERS: readonly Order[] = ['dmy', 'mdy', 'ymd', 'yymd']

/** How a format is written in a message, by the year width of the file's dates. */
function orderName(order: DateFormat['order'], shortYears: boolean): string {
  if (order === 'yymd') return 'YY/MM/DD'
  if (order === 'ymd') return 'YYYY-MM-DD'
  const year = shortYears ? 'YY' : 'YYYY'
  return order === 'dmy' ? `DD/MM/${year}` : `MM/DD/${year}`
}

interface DatedRecord {
  text: string
  line: number
}

/**
 * The date format of the file: the one given, else the one format that reads the dates (as CSV's
 * rule: a day over 12, a year first over 31, decides; formats that read the dates differently are
 * refused, naming the flags). A choice between formats is said in `warnings`, with the evidence.
 */
function decideFormat(dated: DatedRecord[], given: string | undefined, warnings: string[]): DateFormat {
  if (given) return formatFromFlag(given)
  const dates = dated.map((d) => d.text)
  const readable = dates.filter((d) => ORDERS.some((o) => parseDate(d, o)))
  if (readable.length === 0) {
    throw new StatementParseError(
      dates.length ? `no QIF date can be read (for example "${dates[0]}"): give --date-format` : 'the QIF file has no dated transaction',
    )
  }
  const shortYears = readable.every((d) => /\D\d{1,2}$/.test(d))
  const detector = new DateDetector()
  for (const d of readable) detector.add(d)
  const decision = detector.decide()
  if (!decision.ok && decision.reason === 'ambiguous') {
    const names = decision.candidates.map((c) => orderName(c.order, shortYears))
    throw new StatementParseError(
      `the QIF dates are ambiguous: they read as ${names.join(' or ')}, different dates: give --date-format ${names.join(' or --date-format ')}`,
    )
  }
  if (!decision.ok) throw new StatementParseError(`the QIF dates cannot be read: ${decision.message}`)
  const order = decision.format.order
  const name = orderName(order, shortYears)
  // The other formats that read some date of the file, and the first date each cannot read.
  const evidence = ORDERS.filter((o) => o !== order && dated.some((d) => parseDate(d.text, o))).flatMap((o) => {
    const against = dated.find((d) => !parseDate(d.text, o))
    return against ? [`"${against.text}" on line ${against.line} is no ${orderName(o, shortYears)} date`] : []
  })
  if (evidence.length) warnings.push(`dates read as ${name}: ${evidence.join(', ')} (give --date-format to say otherwise)`)
  return { name, order }
}

const field = (r: QifRecord, code: string) => r.fields.find((f) => f.code === code)?.value

/** The account a category names in QIF's transfer notation `[Account]` (or `[Account]/Class`). */
function transferAccount(category: string | undefined): string | undefined {
  return clean(/^\[(.*)\](?:\/.*)?$/.exec(category?.trim() ?? '')?.[1])
}

interface Split {
  category?: string
  memo?: string
  amount?: string
}

/** The S (category), E (memo) and $ (amount) lines of a split record, one split per S line. */
function splitsOf(r: QifRecord): Split[] {
  const splits: Split[] = []
  for (const f of r.fields) {
    const last = splits[splits.length - 1]
    if (f.code === 'S') splits.push({ category: f.value })
    else if (f.code === 'E' && last) last.memo = f.value
    else if (f.code === '$' && last) last.amount = f.value
  }
  return splits
}

/** A split record's own text when it has no M line: its splits' memos, else what each split went to. */
function splitMemo(splits: Split[]): string | undefined {
  const memos = splits.map((s) => clean(s.memo)).filter(Boolean)
  if (memos.length) return memos.join('; ')
  const parts = splits.flatMap((s) => {
    const account = transferAccount(s.category)
    const what = account ? `transfer ${s.amount?.trim().startsWith('-') ? 'to' : 'from'} ${account}` : clean(s.category)
    return what ? [[what, s.amount?.trim()].filter(Boolean).join(' ')] : []
  })
  return parts.length ? `split: ${parts.join('; ')}` : undefined
}

export function parseQif(bytes: Uint8Array, opts: ParseOptions): ParseResult {
  const warnings: string[] = []
  const text = decodeBytes(bytes, opts.encoding, undefined, warnings)
  if (text.trim() === '') throw new StatementParseError('the file is empty')
  const sections = readSections(text, warnings)
  const bank = sections.filter((s) => s.kind === 'bank')
  if (bank.length === 0) {
    throw new StatementParseError(
      'the QIF file has no bank, card or cash section (!Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A, !Type:Oth L)',
    )
  }
  const currency = statementCurrency(undefined, opts.defaultCurrency, 'a QIF file')
  const exponent = currencyExponent(currency)
  const dated = sections
    .filter((s) => s.kind === 'bank' || s.kind === 'invest')
    .flatMap((s) => s.records)
    .map((r) => ({ text: normaliseDate(field(r, 'D') ?? ''), line: r.line }))
    .filter((d) => d.text !== '')
  const format = decideFormat(dated, opts.dateFormat, warnings)
  const decimal = opts.decimalComma
    ? ','
    : detectDecimalMark(bank.flatMap((s) => s.records.map((r) => field(r, 'T') ?? field(r, 'U') ?? '')))

  const byAccount = new Map<string, ParsedStatement>()
  let account: string | undefined
  for (const s of sections) {
    if (s.kind === 'account') {
      // An !Account block names the account the next sections belong to (the last one if a list).
      const last = s.records[s.records.length - 1]
      account = last ? field(last, 'N') : undefined
      continue
    }
    if (s.kind !== 'bank' && s.kind !== 'invest') continue
    const key = account ?? ''
    let statement = byAccount.get(key)
    if (!statement) {
      statement = { currency, transactions: [] }
      // QIF names an account by its name in the program that wrote the file, not by a bank id.
      const hint = clean(account)
      if (hint) statement.accountHint = hint
      byAccount.set(key, statement)
    }
    // An investment record is a transaction of the file that a bank account cannot take: named, never passed over.
    if (s.kind === 'invest') {
      for (const r of s.records)
        unreadable(
          statement,
          r.line,
          `!${s.type} record: investment transactions are not imported (remove the section, or export the bank account alone)`,
        )
      continue
    }
    s.records.forEach((r, i) => {
      if (!r.closed && i === s.records.length - 1 && s === sections[sections.length - 1]) {
        warnings.push(`line ${r.line}: the last record has no closing ^ (the file may be cut short); it is kept`)
      }
      const dateText = field(r, 'D')
      const date = dateText ? parseDate(normaliseDate(dateText), format) : null
      if (!date) {
        unreadable(
          statement,
          r.line,
          `record: ${dateText ? `date "${dateText}" does not read as ${format.name}` : 'it has no D (date) line'}`,
        )
        return
      }
      const amountText = field(r, 'T') ?? field(r, 'U')
      const amount = amountText === undefined ? undefined : parseLocaleAmount(amountText, decimal, exponent)
      if (!amount?.ok) {
        unreadable(statement, r.line, `record: ${amount ? `amount ${amount.message}` : 'it has no T (amount) line'}`)
        return
      }
      const category = field(r, 'L')
      const transfer = transferAccount(category)
      // Quicken starts an account with an "Opening Balance" record transferring to itself: a balance, not a line.
      if (
        i === 0 &&
        statement.transactions.length === 0 &&
        statement.openingBalance === undefined &&
        /^opening balance$/i.test(field(r, 'P') ?? '') &&
        transfer
      ) {
        statement.openingBalance = amount.minor
        return
      }
      statement.transactions.push(
        compact({
          date,
          amountMinor: amount.minor,
          currency,
          payee: clean(field(r, 'P')),
          memo: clean(field(r, 'M')) ?? splitMemo(splitsOf(r)),
          category: transfer ? undefined : clean(category),
          transferAccount: transfer,
          line: r.line,
        }),
      )
    })
  }
  const statements = [...byAccount.values()]
  for (const st of statements) coverPeriod(st)
  return { format: 'qif', statements, warnings }
}

export const qifParser: StatementParser = {
  format: 'qif',
  sniff: (bytes, fileName) => looksLikeQif(head(bytes)) || hasExtension(fileName, ['.qif']),
  parse: parseQif,
}

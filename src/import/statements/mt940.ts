/**
 * SWIFT MT940 customer statements. One ParsedStatement per :20: block (a bank that splits an
 * account's day over several :28C: pages gives several statements; they are returned as they are).
 * Amounts use a decimal comma; :61: marks are C/D (credit/debit), RC (reversal of a credit: money
 * out) and RD (reversal of a debit: money in). :86: purpose text may be structured (German DK
 * `?20`-`?29` purpose, `?32`/`?33` name) or free lines.
 */
import {
  clean,
  compact,
  decimalToMinor,
  decodeBytes,
  hasExtension,
  head,
  lastDayOfMonthRule,
  normaliseAccount,
  statementCurrency,
  unreadable,
} from './common.js'
import {
  type ImportedTransaction,
  type ParseOptions,
  type ParseResult,
  type ParsedStatement,
  type StatementParser,
  StatementParseError,
} from './types.js'

export function looksLikeMt940(text: string): boolean {
  return /\{1:F\d{2}/.test(text) || /\{2:[IO]940/.test(text) || (/^:20:/m.test(text) && /^:(25|28C?|60[FM]|61):/m.test(text))
}

interface Field {
  tag: string
  lines: string[]
  line: number
}

/** Strip the SWIFT envelope ({1:..}{2:..}{3:..}{4: ... -}{5:..}) and control bytes; keep line breaks. */
function unwrap(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control bytes are what it removes
      .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, '')
      .replace(/\{[1235]:(?:[^{}]|\{[^{}]*\})*\}/g, '')
      .replace(/\{4:/g, '')
      .replace(/^-\}/gm, '-')
  )
}

function fieldsOf(text: string): Field[] {
  const fields: Field[] = []
  let current: Field | undefined
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = raw.trimEnd()
    const m = /^:(\d{2}[A-Z]?):(.*)$/.exec(line)
    if (m) {
      current = { tag: m[1], lines: [m[2]], line: i + 1 }
      fields.push(current)
    } else if (/^-(\s*|XXX|\}.*)$/.test(line)) {
      current = undefined
      fields.push({ tag: '-', lines: [], line: i + 1 })
    } else if (current && line !== '') current.lines.push(line)
  })
  return fields
}

/** YYMMDD; an impossible day is the month's last (lastDayOfMonthRule), with a warning naming the line. */
function yymmdd(s: string, f: Field, warnings: string[]): string | null {
  const yy = Number(s.slice(0, 2))
  const r = lastDayOfMonthRule(yy < 70 ? 2000 + yy : 1900 + yy, Number(s.slice(2, 4)), Number(s.slice(4, 6)))
  if (r?.note) warnings.push(`line ${f.line}: :${f.tag}: date ${s}: ${r.note}`)
  return r?.date ?? null
}

/**
 * `C110522EUR3236,28` → signed minor units, currency, date. A balance without its currency code
 * (`C1105223236,28`, some banks' :60M:/:62M:) is in `fallback`, the statement's currency, with a warning.
 */
function balance(f: Field, fallback: string | undefined, warnings: string[]): { minor: number; currency: string; date: string } | string {
  const m = /^([CD])(\d{6})([A-Z]{3})?(\d[\d,]*)$/.exec(f.lines[0].replace(/\s+/g, ''))
  if (!m) return `:${f.tag}: "${f.lines[0]}" is not a balance`
  const currency = m[3] ?? fallback
  if (!currency) return `:${f.tag}: "${f.lines[0]}" names no currency, and neither does the statement nor the bank account`
  const date = yymmdd(m[2], f, warnings)
  const r = decimalToMinor(m[4], currency, ',')
  if (!date || !r.ok) return `:${f.tag}: "${f.lines[0]}" is not a balance`
  if (!m[3]) warnings.push(`line ${f.line}: :${f.tag}: the balance names no currency: read in ${currency}, the statement's currency`)
  return { minor: m[1] === 'D' ? -r.minor : r.minor, currency, date }
}

const LINE_61 = /^(\d{6})(\d{4})?(RC|RD|EC|ED|C|D)([A-Z])?(\d[\d,]*)([NFS][A-Z0-9]{3})?(.*)$/

/**
 * The booking date MMDD next to a value date, in the year that puts it nearest the value date (an
 * impossible day is the month's last, as in the value date).
 */
function entryDate(value: string, mmdd: string): { date: string; note?: string } | null {
  const y = Number(value.slice(0, 4))
  const candidates = [y - 1, y, y + 1]
    .map((yr) => lastDayOfMonthRule(yr, Number(mmdd.slice(0, 2)), Number(mmdd.slice(2, 4))))
    .filter((d) => d !== null)
  const dist = (d: string) => Math.abs(Date.parse(d) - Date.parse(value))
  return candidates.sort((a, b) => dist(a.date) - dist(b.date))[0] ?? null
}

const SEPA_KEYS = /(?<=\S)(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE|IBAN|BIC)\+/g

/** Free text tidied, and as written when that differs. */
function memoText(raw: string, tidy: (text: string) => string = (t) => t): { memo?: string; rawMemo?: string } {
  const memo = clean(tidy(raw))
  const written = raw.trim()
  return memo && written !== memo ? { memo, rawMemo: written } : { memo }
}

/**
 * :86: text: structured `?NN` subfields (purpose ?20-?29 and ?60-?63, whose text runs on from one
 * subfield to the next; name ?32-?33) or free lines, whose line breaks the raw memo keeps.
 */
function purpose(lines: string[]): { memo?: string; rawMemo?: string; payee?: string } {
  const joined = lines.join('')
  if (/^\d{3}\?/.test(joined) || /^\?\d{2}/.test(joined)) {
    const sub = new Map<number, string>()
    for (const m of joined.matchAll(/\?(\d{2})([^?]*)/g)) sub.set(Number(m[1]), (sub.get(Number(m[1])) ?? '') + m[2])
    const pick = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => sub.get(from + k) ?? '').join('')
    const text = pick(20, 29) + pick(60, 63)
    const memo = clean(text) ? memoText(text, (t) => t.replace(SEPA_KEYS, ' $1+')) : memoText(sub.get(0) ?? '')
    return { ...memo, payee: clean(pick(32, 33)) }
  }
  return memoText(lines.join('\n'))
}

function readLine61(f: Field, st: ParsedStatement, warnings: string[]): ImportedTransaction | undefined {
  const currency = st.currency as string
  const text = f.lines[0]
  const m = LINE_61.exec(text)
  const valueDate = m && yymmdd(m[1], f, warnings)
  if (!m || !valueDate) {
    unreadable(st, f.line, `:61: "${text}" does not read as an MT940 statement line`)
    return undefined
  }
  const entry = m[2] ? entryDate(valueDate, m[2]) : { date: valueDate }
  if (entry?.note) warnings.push(`line ${f.line}: :61: entry date ${m[2]}: ${entry.note}`)
  const date = entry?.date
  const amount = decimalToMinor(m[5], currency, ',')
  if (!amount.ok || !date) {
    unreadable(st, f.line, `:61: ${amount.ok ? `entry date ${m[2]} is not a date` : `amount ${amount.message}`}`)
    return undefined
  }
  const outgoing = m[3] === 'D' || m[3] === 'ED' || m[3] === 'RC'
  const [ref, bankRef] = m[7].split('//')
  // Rabobank puts the counterparty in fixed columns after a 16-character reference.
  const payee = clean(ref.length > 16 && /\s$/.test(ref.slice(0, 16)) ? ref.slice(16) : undefined)
  return compact({
    date,
    valueDate,
    amountMinor: outgoing && amount.minor !== 0 ? -amount.minor : amount.minor,
    currency,
    payee,
    ...memoText(f.lines.slice(1).join('\n')),
    externalId: clean(bankRef),
    line: f.line,
  })
}

export function parseMt940(bytes: Uint8Array, opts: ParseOptions): ParseResult {
  const warnings: string[] = []
  const text = unwrap(decodeBytes(bytes, opts.encoding, undefined, warnings))
  if (text.trim() === '') throw new StatementParseError('the file is empty')
  const fields = fieldsOf(text)
  const statements: ParsedStatement[] = []
  let st: ParsedStatement | undefined
  let started = 0
  let closed = true
  let last: ImportedTransaction | undefined
  /** The :86: lines of each statement line (some banks repeat the tag on every line). */
  const info = new Map<ImportedTransaction, string[]>()
  // A statement without its closing balance (the last one of a file cut short, or a bank that writes
  // none) keeps its lines; only its balance cannot be checked.
  const finish = () => {
    if (st && !closed) {
      const n = st.transactions.length + (st.unreadable?.length ?? 0)
      warnings.push(
        `line ${started}: the statement has no closing balance (:62F:/:62M:; the file may be cut short): its ${n} ${n === 1 ? 'line is' : 'lines are'} read, its balance not checked`,
      )
    }
  }
  for (const f of fields) {
    if (f.tag === '20') {
      finish()
      st = { transactions: [] }
      statements.push(st)
      started = f.line
      closed = false
      last = undefined
      continue
    }
    if (!st || f.tag === '-') continue // envelope lines before the first :20: (or after a statement)
    if (f.tag === '25') {
      const hint = normaliseAccount(f.lines[0])
      if (hint) st.accountHint = hint
    } else if (f.tag === '60F' || f.tag === '60M') {
      // A balance without a currency: the previous page's of the same account, else the bank account's.
      const before = statements[statements.length - 2]
      const carried = before && before.accountHint === st.accountHint ? before.currency : undefined
      const b = balance(f, carried ?? opts.defaultCurrency, warnings)
      if (typeof b === 'string') throw new StatementParseError(b, f.line)
      st.currency = statementCurrency(b.currency, opts.defaultCurrency, `line ${f.line}`)
      st.openingBalance = b.minor
      st.periodStart = b.date
    } else if (f.tag === '61') {
      if (!st.currency) throw new StatementParseError(':61: comes before the opening balance :60F:, which names the currency', f.line)
      last = readLine61(f, st, warnings)
      if (last) st.transactions.push(last)
    } else if (f.tag === '86') {
      if (!last) continue // statement-level information (after :62F:, or before any :61:)
      const lines = info.get(last) ?? []
      if (lines.length === 0) info.set(last, lines)
      for (const l of f.lines) lines.push(l)
    } else if (f.tag === '62F' || f.tag === '62M') {
      const b = balance(f, st.currency ?? opts.defaultCurrency, warnings)
      if (typeof b === 'string') throw new StatementParseError(b, f.line)
      if (st.currency && b.currency !== st.currency)
        throw new StatementParseError(`closing balance in ${b.currency}, opening in ${st.currency}`, f.line)
      st.currency ??= statementCurrency(b.currency, opts.defaultCurrency, `line ${f.line}`)
      st.closingBalance = b.minor
      st.periodEnd = b.date
      closed = true
      last = undefined
    }
  }
  finish()
  if (statements.length === 0) throw new StatementParseError('no :20: statement found: this is not an MT940 file')
  for (const [t, lines] of info) {
    const p = purpose(lines)
    if (p.memo) {
      // :86: wins over the :61: supplementary details
      t.memo = p.memo
      if (p.rawMemo) t.rawMemo = p.rawMemo
      else delete t.rawMemo
    }
    if (p.payee) t.payee = p.payee
  }
  for (const s of statements) {
    // Rabobank appends the currency to the account (1291.99.348EUR).
    if (s.accountHint && s.currency && s.accountHint.endsWith(s.currency) && s.accountHint.length > 3)
      s.accountHint = s.accountHint.slice(0, -3)
    for (const t of s.transactions) {
      if (s.periodStart && t.date < s.periodStart) s.periodStart = t.date
      if (s.periodEnd && t.date > s.periodEnd) s.periodEnd = t.date
    }
  }
  return { format: 'mt940', statements, warnings }
}

export const mt940Parser: StatementParser = {
  format: 'mt940',
  sniff: (bytes, fileName) => looksLikeMt940(head(bytes)) || hasExtension(fileName, ['.sta', '.mt940', '.940', '.swi']),
  parse: parseMt940,
}

/**
 * Where a file's transactions start: after its header row, or at its first line when it has none.
 * Several banks export without a header (Austrian easybank and Raiffeisen, Dutch ASN), and a
 * header-less file read as if its first line named the columns loses that line, so the header is
 * never taken for granted: a line is a header when it names two known columns (or --skip-lines
 * says so), and the file has none when its first lines are transactions themselves (a date and an
 * amount, and the next line alike) or `--no-header` says so.
 */
import { looksLikeAmount } from './amount.js'
import { isDateCell } from './column-evidence.js'
import { recognised } from './mapping.js'
import type { DateFormat } from './dates.js'
import type { CsvRecord } from './read-rows.js'
import { DATE_LIKE } from './row-text.js'

/** Lines a header may follow (preamble lines). */
export const HEADER_WITHIN = 50

export type HeaderRow =
  /**
   * `index`: the header's record among those looked at; `known`: it names columns the mapping knows;
   * `fields`: its names when they are written over several lines (`from`: the record of its first line).
   */
  | { kind: 'header'; index: number; known: boolean; fields?: string[]; from?: number }
  /** No header: the transactions start at record `index`; `given`: --no-header said so. */
  | { kind: 'none'; index: number; given: boolean }

type IsDate = (text: string) => boolean

/** The columns of a line's date and amount, when it has both: the shape of a transaction line. */
function shapeOf(fields: string[], isDate: IsDate): { date: number; amount: number } | undefined {
  const date = fields.findIndex(isDate)
  if (date < 0) return undefined
  const amount = fields.findIndex((f, i) => i !== date && looksLikeAmount(f) && !isDate(f))
  return amount < 0 ? undefined : { date, amount }
}

/**
 * Whether two records are transaction lines of one layout: a date in the same column, an amount
 * (in a debit and credit layout, not always in the same column), as many fields.
 */
function sameShape(a: CsvRecord, b: CsvRecord | undefined, isDate: IsDate): boolean {
  const sa = shapeOf(a.fields, isDate)
  if (!sa) return false
  if (!b) return true
  const sb = shapeOf(b.fields, isDate)
  return sb !== undefined && sa.date === sb.date && a.fields.length === b.fields.length
}

/** A line of values: a date and another cell that is a number (an amount, or a whole one as "1200"). Never a header. */
function valuesRow(fields: string[], isDate: IsDate): boolean {
  const date = fields.findIndex(isDate)
  return date >= 0 && fields.some((f, i) => i !== date && !isDate(f) && (looksLikeAmount(f) || /^[+-]?\d[\d.,' ]*$/.test(f.trim())))
}

/** A line that only starts a header's names ("Transaction" above "date,Value date,..."): a few words, no number. */
function namesStart(rec: CsvRecord): boolean {
  const filled = rec.fields.filter((f) => f.trim() !== '')
  return filled.length >= 1 && filled.length <= 3 && rec.fields.length <= 3 && filled.every((f) => /^\p{L}[\p{L} .'/-]*$/u.test(f.trim()))
}

/**
 * A header written over several lines, unquoted: a line of a few words, then the names whose
 * first one goes on from its last word ("Transaction" / "date,Value date,...,Balance" is
 * "Transaction date"). The joined names, from the header line `index` back; undefined when its
 * first name is no continuation.
 */
function joinedHeader(records: CsvRecord[], index: number): { fields: string[]; from: number } | undefined {
  let fields = records[index].fields
  let from = index
  while (from > 0 && from > index - 2 && namesStart(records[from - 1]) && /^\p{Ll}/u.test(fields[0]?.trim() ?? '')) {
    const prev = records[from - 1].fields.filter((f) => f.trim() !== '')
    fields = [...prev.slice(0, -1), `${prev[prev.length - 1].trim()} ${fields[0].trim()}`, ...fields.slice(1)]
    from--
  }
  return from === index ? undefined : { fields, from }
}

/** A line of column names: as many cells as the transactions, two or more filled, none a date or an amount. */
function namesRow(rec: CsvRecord, data: CsvRecord, isDate: IsDate): boolean {
  const filled = rec.fields.filter((f) => f.trim() !== '')
  return (
    rec.fields.length === data.fields.length &&
    filled.length >= 2 &&
    !filled.some((f) => isDate(f) || looksLikeAmount(f) || /^\d+$/.test(f.trim()))
  )
}

/**
 * The header row among the first records of a file (up to HEADER_WITHIN and one more), or where
 * the transactions of a header-less file start; undefined when neither is found.
 * `o.skipLines`: the header is the first record after that many lines (with `noHeader`: the first transaction).
 * `o.byMap`: --map was given, so a first line that is no transaction is the header even with names the mapping does not know.
 * `o.format`: --date-format's, whose layout's dates count too (`24/2022/03` of DD/YYYY/MM).
 */
export function findHeaderRow(
  records: CsvRecord[],
  o: { noHeader?: boolean; skipLines?: number; byMap?: boolean; format?: DateFormat },
): HeaderRow | undefined {
  const isDate: IsDate = (f) => isDateCell(f) || (o.format !== undefined && DATE_LIKE.test(f, o.format))
  const start = o.skipLines === undefined ? 0 : records.findIndex((r) => r.line > o.skipLines!)
  if (start < 0) return undefined
  if (o.noHeader) return { kind: 'none', index: start, given: true }
  if (o.skipLines !== undefined) return { kind: 'header', index: start, known: recognised(records[start].fields) >= 2 }
  for (let i = 0; i < records.length && i < HEADER_WITHIN; i++) {
    const rec = records[i]
    // A few names whose next line names more goes on in it ("date,Value" above "date,Description,...,Balance").
    if (recognised(rec.fields) >= 2 && !(namesStart(rec) && records[i + 1] && recognised(records[i + 1].fields) >= 2))
      return { kind: 'header', index: i, known: true, ...joinedHeader(records, i) }
    if (sameShape(rec, records[i + 1], isDate)) {
      // The line before the first transaction names the columns, in words the mapping does not know.
      if (i > 0 && namesRow(records[i - 1], rec, isDate)) return { kind: 'header', index: i - 1, known: false }
      // Lines of a transaction's shape just before are transactions too, with more or fewer fields (a ragged first row).
      let first = i
      while (first > 0 && shapeOf(records[first - 1].fields, isDate)?.date === shapeOf(rec.fields, isDate)?.date) first--
      return { kind: 'none', index: first, given: false }
    }
  }
  // --map names the columns: the line just above the first row of values is the header (a line with a date
  // and a number never is, whatever --map says); a file whose first line is one has none.
  if (o.byMap && records.length > 0) {
    const values = records.findIndex((r, i) => i < HEADER_WITHIN && valuesRow(r.fields, isDate))
    if (values === 0) return { kind: 'none', index: 0, given: false }
    return { kind: 'header', index: values < 0 ? 0 : values - 1, known: false }
  }
  return undefined
}

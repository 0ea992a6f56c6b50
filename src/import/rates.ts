/**
 * Exchange-rate files, read without the service: the European Central Bank's historical reference
 * rates as published (`eurofxref-hist.csv`: `Date` then one column per currency, `N/A` where a rate
 * is missing, rates per 1 EUR, newest day first, a trailing comma on every line) and a plain
 * `date,currency,rate` CSV (rates to the company's base currency). The service converts ECB quotes
 * to the base currency (domain/rates); this module only reads and checks them.
 */
import { parse } from 'csv-parse/sync'
import { isCurrency } from '../kernel/currencies.js'
import { parseRate } from '../kernel/money.js'
import { isIsoDate } from '../kernel/vocabulary.js'

export const RATE_FILE_FORMATS = ['ecb', 'plain'] as const
export type RateFileFormat = (typeof RATE_FILE_FORMATS)[number]

/** One day of ECB quotes: units of each currency per 1 EUR (canonical decimal text). */
export interface EcbDay {
  date: string
  perEur: Map<string, string>
}

/** A rate of a plain file: units of the base currency per 1 unit of `currency`. */
export interface PlainRate {
  line: number
  date: string
  currency: string
  rate: string
}

export type RatesFile =
  | { format: 'ecb'; days: EcbDay[]; missing: number; errors: string[]; notes: string[] }
  | { format: 'plain'; rates: PlainRate[]; missing: number; errors: string[]; notes: string[] }

export class RatesFileError extends Error {}

/**
 * The records of a rates CSV (csv-parse; quoted fields read as CSV reads them), with their line
 * numbers: cells trimmed, empty lines left out. The delimiter is the header's: a comma, else a
 * semicolon, else a tab.
 */
function lines(text: string): Array<{ line: number; cells: string[] }> {
  const body = text.replace(/^\uFEFF/, '')
  const head = body.slice(0, body.search(/\r\n|\n|\r|$/))
  const delimiter = head.includes(',') ? ',' : head.includes(';') ? ';' : '\t'
  let records: Array<{ record: string[]; info: { lines: number } }>
  try {
    records = parse(body, {
      delimiter,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      info: true,
    }) as unknown as typeof records
  } catch (e) {
    // An unclosed quote, say: the file is no CSV this reads.
    throw new RatesFileError(`is not a CSV file: ${(e as Error).message}`)
  }
  return records.map((r) => ({ line: r.info.lines, cells: r.record }))
}

/** The format a file's header says: `Date,USD,JPY,...` is the ECB's, `date,currency,rate` plain; undefined otherwise. */
export function detectRatesFormat(text: string): RateFileFormat | undefined {
  // The header line only (a cut through a quoted field further down would be no CSV).
  const first = lines(
    text
      .slice(0, 4096)
      .split(/\r\n|\n|\r/)
      .find((l) => l.trim() !== '') ?? '',
  )[0]
  if (!first) return undefined
  const head = first.cells.map((c) => c.toLowerCase())
  if (head.includes('currency') && head.includes('rate') && head.includes('date')) return 'plain'
  if (
    head[0] === 'date' &&
    first.cells
      .slice(1)
      .filter((c) => c !== '')
      .every((c) => /^[A-Z]{3}$/.test(c)) &&
    first.cells.length > 1
  )
    return 'ecb'
  return undefined
}

/** Read a rates file; throws RatesFileError when it is neither format or holds no rate. Bad lines are listed in `errors`. */
export function parseRatesFile(text: string, format?: RateFileFormat): RatesFile {
  const f = format ?? detectRatesFormat(text)
  if (!f)
    throw new RatesFileError('is neither the ECB layout (Date,USD,JPY,...) nor date,currency,rate: give --format ecb or --format plain')
  const parsed = f === 'ecb' ? parseEcb(text) : parsePlain(text)
  const count = parsed.format === 'ecb' ? parsed.days.reduce((n, d) => n + d.perEur.size, 0) : parsed.rates.length
  if (count === 0) throw new RatesFileError(`holds no rate${parsed.errors.length ? `: ${parsed.errors.slice(0, 3).join('; ')}` : ''}`)
  return parsed
}

function parseEcb(text: string): RatesFile {
  const [header, ...rows] = lines(text)
  if (header?.cells[0].toLowerCase() !== 'date') throw new RatesFileError('is not in the ECB layout: its first column must be Date')
  const errors: string[] = []
  const notes: string[] = []
  // Columns of currencies we do not know are left out, and said so once.
  const columns: Array<[number, string]> = []
  header.cells.forEach((c, i) => {
    if (i === 0 || c === '') return
    if (isCurrency(c)) columns.push([i, c])
    else notes.push(`column ${c.slice(0, 20)}: not an ISO 4217 currency code, left out`)
  })
  if (!columns.some(([, c]) => c !== 'EUR')) throw new RatesFileError('is not in the ECB layout: no currency columns after Date')
  const days: EcbDay[] = []
  let missing = 0
  for (const { line, cells } of rows) {
    const date = cells[0]
    if (!isIsoDate(date)) {
      errors.push(`line ${line}: date "${date.slice(0, 40)}" is not YYYY-MM-DD`)
      continue
    }
    const perEur = new Map<string, string>()
    for (const [i, code] of columns) {
      const cell = cells[i] ?? ''
      if (cell === '' || cell.toUpperCase() === 'N/A') {
        missing++
        continue
      }
      const rate = parseRate(cell)
      if (!rate) {
        errors.push(`line ${line}: ${code} "${cell.slice(0, 40)}" is not a positive decimal rate`)
        continue
      }
      perEur.set(code, rate)
    }
    days.push({ date, perEur })
  }
  return { format: 'ecb', days, missing, errors, notes }
}

function parsePlain(text: string): RatesFile {
  const [header, ...rows] = lines(text)
  const head = header?.cells.map((c) => c.toLowerCase()) ?? []
  const at = { date: head.indexOf('date'), currency: head.indexOf('currency'), rate: head.indexOf('rate') }
  if (at.date < 0 || at.currency < 0 || at.rate < 0) throw new RatesFileError('needs a header with date, currency and rate columns')
  const rates: PlainRate[] = []
  const errors: string[] = []
  let missing = 0
  for (const { line, cells } of rows) {
    const date = cells[at.date] ?? ''
    const currency = (cells[at.currency] ?? '').toUpperCase()
    const text = cells[at.rate] ?? ''
    if (!isIsoDate(date)) errors.push(`line ${line}: date "${date.slice(0, 40)}" is not YYYY-MM-DD`)
    else if (!isCurrency(currency)) errors.push(`line ${line}: currency "${currency.slice(0, 40)}" is not an ISO 4217 currency code`)
    else if (text === '' || text.toUpperCase() === 'N/A') missing++
    else {
      const rate = parseRate(text)
      if (!rate) errors.push(`line ${line}: rate "${text.slice(0, 40)}" is not a positive decimal number`)
      else rates.push({ line, date, currency, rate })
    }
  }
  return { format: 'plain', rates, missing, errors, notes: [] }
}

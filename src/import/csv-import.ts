/**
 * CSV import, the part that needs no service: pass 1 finds the layout (encoding, delimiter, header
 * row, column mapping, date format and decimal mark over EVERY row, or for `tx import` until no
 * later row could change them); `RowConverter` then turns each record into a create-transaction
 * request with a stable identity for exactly-once imports.
 */
import { hash } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { detectDecimalMark, parseLocaleAmount, type DecimalMark, type LocaleAmount } from './amount.js'
import { readRecordChunks, sniffLayout, type CsvLayout, type CsvRecord } from './csv-reader.js'
import { DateDetector, formatFromFlag, parseDate, type DateFormat } from './dates.js'
import { OccurrenceCounter } from './occurrences.js'
import { CREDIT_MARKS, DEBIT_MARKS, mapHeader, missingColumns, recognised, type ColumnMap, type Role } from './mapping.js'
import { debitCreditAmount, SignCounter, signsNote, type ColumnSigns } from './debit-credit.js'
import type { TransactionDraft } from './draft.js'
import { balanceKind, RecordTypeFinder, RunningBalance, type RecordType } from './balance-rows.js'
import { formatMinor } from '../kernel/money.js'
import { currencyExponent, isCurrency } from '../kernel/currencies.js'

export interface ImportOptions {
  encoding?: string
  delimiter?: string
  dateFormat?: string
  decimalComma?: boolean
  /** Lines before the header row. */
  skipLines?: number
  map?: Array<[Role, string]>
  /** Keep only rows whose column (name or 1-based number) holds this value. */
  where?: Array<[string, string]>
  invertSign?: boolean
  indicatorDebit?: string[]
}

export interface ImportPlan {
  layout: CsvLayout
  headerLine: number
  header: string[]
  map: ColumnMap
  dateFormat: DateFormat
  decimal: DecimalMark
  /** With debit and credit columns: the sign each one's values are written with (debit-credit.ts). */
  signs?: ColumnSigns
  /** Transaction rows of the file; an estimate when `settledEarly`. */
  dataRows: number
  /**
   * The plan was settled from the start of the file (`planImport(path, o, true)`): its
   * decisions are final, `dataRows` is estimated from the file's size and `skipped` holds only the
   * lines read so far. The import reads every row with it and counts the rest itself.
   */
  settledEarly?: boolean
  /** Lines after the header that are not transactions (balances, turnovers, footers), not counted as rejects. */
  skipped: Array<{ line: number; reason: string }>
  /** A column of record types (balance-rows.ts): rows with another code than `movement` are skipped. */
  recordType?: RecordType
  filtered: number
  notes: string[]
}

export class ImportError extends Error {}

const DATE_LIKE = /^\s*(\d{1,4}[./\-: ]\d{1,2}[./\-: ]\d{1,4}|\d{8})(\D|$)/

/** Why a line after the header is skipped, not rejected: it has no date (a balance, a footer). */
function notTransaction(fields: string[]): string {
  return `not a transaction line (no date: ${JSON.stringify(fields.filter(Boolean).join(' ').slice(0, 60))})`
}

/** What a row's text says it is: its description cells, or its payee when they are empty (a payee "Balance" of a described row is a payee). */
function balanceOf(fields: string[], map: ColumnMap): { kind: NonNullable<ReturnType<typeof balanceKind>>; text: string } | undefined {
  const d = map.description
  const described =
    d.length === 1
      ? cell(fields, d[0])
      : d
          .map((i) => cell(fields, i))
          .filter(Boolean)
          .join(' ')
  const text = described || cell(fields, map.merchant_name)
  const kind = balanceKind(text)
  return kind ? { kind, text } : undefined
}

const balanceReason = (b: { kind: string | undefined; text: string }) =>
  `${b.kind}, not a movement (its text: ${JSON.stringify(b.text.slice(0, 60))})`
const recordTypeReason = (code: string, t: RecordType) =>
  `record type ${code} in column ${t.column + 1}, not a movement (movements are ${t.movement})`

/** A field as the file writes it (line breaks and spaces kept); '' when the row has no such column. */
function rawCell(fields: string[], index: number | undefined): string {
  if (index === undefined) return ''
  return (index < 0 ? fields[fields.length + index] : fields[index]) ?? ''
}

function cell(fields: string[], index: number | undefined): string {
  return rawCell(fields, index).trim()
}

/** The description as a transaction shows it: markup line breaks and runs of white space made single spaces. */
function tidy(text: string): string {
  return text
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The description cells that are not blank, joined with " / " and trimmed (one column: its cell, trimmed, without an array). */
function descriptionText(fields: string[], columns: number[]): string {
  if (columns.length === 1) return rawCell(fields, columns[0]).trim()
  return columns
    .map((i) => rawCell(fields, i))
    .filter((t) => t.trim() !== '')
    .join(' / ')
    .trim()
}

function columnIndex(header: string[], column: string): number {
  if (/^-?\d+$/.test(column)) return Number(column) > 0 ? Number(column) - 1 : Number(column)
  const i = header.findIndex((h) => h.trim() === column.trim())
  if (i < 0) throw new ImportError(`no column "${column}" in the header (${header.map((h) => `"${h}"`).join(', ')})`)
  return i
}

/** Pass 1 over a file: the plan of its import; `settle`: stop as soon as its decisions are final (ImportPlan.settledEarly). */
export async function planImport(path: string, o: ImportOptions = {}, settle = false): Promise<ImportPlan> {
  let layout: CsvLayout
  try {
    layout = await sniffLayout(path, { encoding: o.encoding, delimiter: o.delimiter })
  } catch (e) {
    throw new ImportError((e as Error).message)
  }
  return planRecords(layout, readRecordChunks(path, layout), o, settle ? { bytes: (await stat(path)).size } : undefined)
}

/** What the user is told when data rows have more or fewer fields than the header. */
function raggedNote(ragged: number, rows: number, early: boolean, first: CsvRecord, headerFields: number): string {
  const which = early ? `${ragged} of the first ${rows} rows` : ragged === rows ? `all ${rows} rows` : `${ragged} of ${rows} rows`
  return `ragged: ${which} have a number of fields other than the header's ${headerFields} (line ${first.line} has ${first.fields.length}); columns are matched by position from the left, --map FIELD=-N counts from the right end of each row`
}

/** Amount samples the decimal mark is decided from. */
const AMOUNT_SAMPLES = 2000

/**
 * Pass 1 over any source of records, a chunk at a time (a file, an upload in memory): the plan of
 * the import. With `settle` it stops as soon as nothing later in the file could change a decision
 * (see `ImportPlan.settledEarly`).
 */
export async function planRecords(
  layout: CsvLayout,
  chunks: AsyncIterable<CsvRecord[]>,
  o: ImportOptions = {},
  settle?: { bytes: number },
): Promise<ImportPlan> {
  const notes: string[] = []
  notes.push(
    `encoding ${layout.encoding.encoding} (${layout.encoding.how === 'given' ? 'given' : `detected: ${layout.encoding.how}`}), delimiter ${JSON.stringify(layout.delimiter)}`,
  )
  const noHeader = (where: string) =>
    new ImportError(
      `found no header row in ${where} (read with the delimiter ${JSON.stringify(layout.delimiter)}): check --delimiter, or give --skip-lines N (the lines before the header) or --map field=Column`,
    )
  let header: string[] | undefined
  let headerLine = 0
  let map: ColumnMap | undefined
  let where: Array<[number, string]> = []
  /** Balance and turnover rows are found by the file's signals unless --where chooses the rows. */
  const auto = !o.where?.length
  let recordTypes: RecordTypeFinder | undefined
  const dates = new DateDetector()
  const amounts: string[] = []
  const signs = { debit: new SignCounter(), credit: new SignCounter() }
  const skipped: ImportPlan['skipped'] = []
  let dataRows = 0
  let filtered = 0
  let seen = 0
  /** Data rows whose number of fields differs from the header's, and the first of them. */
  let ragged = 0
  let firstRagged: CsvRecord | undefined
  /** Characters of the records read (fields and delimiters), to estimate the rows of the rest. */
  let chars = 0
  let settledEarly = false
  // The decisions are final once the header is found, one date format reads more rows than any
  // other (a later row it does not read is rejected by the import) and the amounts the decimal
  // mark is decided from are in.
  const settled = () => (o.dateFormat !== undefined || dates.settled) && (o.decimalComma || amounts.length >= AMOUNT_SAMPLES)
  reading: for await (const records of chunks)
    for (const rec of records) {
      if (settle && header && dataRows > 0 && settled()) {
        settledEarly = true
        break reading
      }
      seen++
      if (settle) for (const f of rec.fields) chars += f.length + 1
      if (!header) {
        const isHeader =
          o.skipLines !== undefined
            ? rec.line > o.skipLines
            : recognised(rec.fields) >= 2 || ((o.map?.length ?? 0) > 0 && seen > (o.skipLines ?? 0))
        if (!isHeader) {
          if (seen > 50) throw noHeader('the first 50 lines')
          continue
        }
        header = rec.fields
        headerLine = rec.line
        try {
          map = mapHeader(header, o.map ?? [])
          where = (o.where ?? []).map(([col, value]) => [columnIndex(header!, col), value])
        } catch (e) {
          throw new ImportError((e as Error).message)
        }
        const missing = missingColumns(map)
        if (missing.length)
          throw new ImportError(
            `cannot tell which column holds the ${missing.join(', the ')}; header: ${header.map((h) => `"${h}"`).join(', ')}`,
          )
        if (auto)
          recordTypes = new RecordTypeFinder(
            header,
            new Set(
              Object.values(map)
                .flat()
                .filter((i): i is number => typeof i === 'number' && i >= 0),
            ),
          )
        continue
      }
      if (where.some(([i, v]) => cell(rec.fields, i) !== v)) {
        filtered++
        continue
      }
      const date = cell(rec.fields, map!.date)
      if (!DATE_LIKE.test(date)) {
        skipped.push({ line: rec.line, reason: notTransaction(rec.fields) })
        continue
      }
      if (auto) {
        const balance = balanceOf(rec.fields, map!)
        recordTypes!.add(rec.fields, rec.line, balance !== undefined)
        if (balance) {
          skipped.push({ line: rec.line, reason: balanceReason(balance) })
          continue
        }
      }
      dataRows++
      if (rec.fields.length !== header.length && ragged++ === 0) firstRagged = rec
      dates.add(date)
      if (amounts.length < AMOUNT_SAMPLES)
        for (const i of [map!.amount, map!.debit, map!.credit])
          if (i !== undefined && cell(rec.fields, i)) amounts.push(cell(rec.fields, i))
      if (map!.amount === undefined) for (const column of ['debit', 'credit'] as const) signs[column].add(cell(rec.fields, map![column]))
    }
  if (seen === 0) throw new ImportError('the file holds no data')
  if (!header || !map) throw noHeader(`the file's ${seen} line${seen === 1 ? '' : 's'}`)
  const byType = recordTypes?.decide()
  if (byType) {
    const t = byType.recordType
    for (const { line, code } of byType.lines) skipped.push({ line, reason: recordTypeReason(code, t) })
    skipped.sort((a, b) => a.line - b.line)
    dataRows -= byType.lines.length
    notes.push(
      `record type in column ${t.column + 1}${header[t.column].trim() ? ` ("${header[t.column].trim()}")` : ''}: ${t.movement} is a movement; ${t.others.join(', ')} ${t.others.length === 1 ? 'is' : 'are'} not (balances, turnovers): such rows are skipped`,
    )
  }
  if (!auto) notes.push('--where chooses the rows: no balance or turnover row is skipped by itself')
  const rowsRead = dataRows
  // The rest of the file is estimated at the rows per character of what was read.
  if (settledEarly && settle && chars > 0) dataRows = Math.max(dataRows, Math.round((dataRows * settle.bytes) / chars))
  let dateFormat: DateFormat
  if (o.dateFormat) {
    try {
      dateFormat = formatFromFlag(o.dateFormat)
    } catch (e) {
      throw new ImportError((e as Error).message)
    }
  } else {
    const d = dates.decide()
    if (!d.ok) throw new ImportError(d.message)
    dateFormat = d.format
    const misfits = d.misfits
      ? `; ${d.misfits} ${d.misfits === 1 ? 'date does' : 'dates do'} not fit it and ${d.misfits === 1 ? 'its row is' : 'their rows are'} rejected`
      : ''
    notes.push(
      settledEarly
        ? `dates ${d.format.name} (detected over the first ${rowsRead} rows, where no other format fits as many${misfits}; every row is read with it)`
        : `dates ${d.format.name} (detected over ${dataRows} rows${misfits})`,
    )
  }
  if (firstRagged) notes.push(raggedNote(ragged, rowsRead, settledEarly, firstRagged, header.length))
  const decimal: DecimalMark = o.decimalComma ? ',' : detectDecimalMark(amounts)
  notes.push(`decimal mark ${JSON.stringify(decimal)}${o.decimalComma ? ' (given)' : ' (detected)'}`)
  const columnSigns: ColumnSigns | undefined =
    map.amount === undefined ? { debit: signs.debit.usual, credit: signs.credit.usual } : undefined
  if (columnSigns) notes.push(signsNote(columnSigns, header, map))
  return {
    layout,
    headerLine,
    header,
    map,
    dateFormat,
    decimal,
    ...(columnSigns ? { signs: columnSigns } : {}),
    dataRows,
    ...(settledEarly ? { settledEarly } : {}),
    skipped,
    ...(byType ? { recordType: byType.recordType } : {}),
    filtered,
    notes,
  }
}

export type Converted =
  /** `minor`: the amount in minor units of the row's currency, `currency_code` of the request. */
  | { ok: true; line: number; request: TransactionDraft & { import_ref: string }; minor: number; reversal?: true }
  | { ok: false; line: number; reason: string; fields: string[] }

/**
 * Turns records into create requests. A row's identity is its account, date, amount, description
 * and the bank's own reference, plus its occurrence number among identical rows of this file:
 * two identical rows in one file are two transactions; the same row in a later download is the
 * same transaction, whatever the file is called.
 */
export class RowConverter {
  private readonly occurrences: OccurrenceCounter
  private readonly where: Array<[number, string]>
  private readonly signs: ColumnSigns
  private readonly auto: boolean
  private readonly running = new RunningBalance()
  /** Lines after the header skipped as no transaction (no date, a balance, a turnover): how many, and the first of them. */
  skippedCount = 0
  readonly skipped: Array<{ line: number; reason: string }> = []

  constructor(
    private readonly plan: ImportPlan,
    private readonly o: ImportOptions & { accountId: string; currency: string; constants?: Partial<TransactionDraft> },
  ) {
    this.occurrences = new OccurrenceCounter(plan.dataRows)
    this.where = (o.where ?? []).map(([col, value]) => [columnIndex(plan.header, col), value])
    this.signs = plan.signs ?? { debit: 1, credit: 1 }
    this.auto = !o.where?.length
  }

  /** The file has been read to its end: free what counting its rows took (the converter converts no more). */
  close(): void {
    this.occurrences.release()
  }

  /** A row refused: why, its fields as the bank wrote them, and a word on its width when it is ragged. */
  private fail(rec: CsvRecord, reason: string): Converted {
    const { header } = this.plan
    const ragged = rec.fields.length !== header.length
    return {
      ok: false,
      line: rec.line,
      reason: ragged ? `${reason} (the row has ${rec.fields.length} fields, the header ${header.length})` : reason,
      fields: rec.fields,
    }
  }

  private skip(line: number, reason: string): undefined {
    this.skippedCount++
    if (this.skipped.length < 1000) this.skipped.push({ line, reason })
    return undefined
  }

  /** A line after the header that `--where` keeps. */
  private inScope(rec: CsvRecord): boolean {
    return rec.line > this.plan.headerLine && !this.where.some(([i, v]) => cell(rec.fields, i) !== v)
  }

  /** The decimals of a row's currency (its currency column, else --set currency_code, else the account's). */
  private exponentOf(fields: string[]): number {
    const c = cell(fields, this.plan.map.currency_code).toUpperCase() || this.o.constants?.currency_code || this.o.currency
    return isCurrency(c) ? currencyExponent(c) : currencyExponent(this.o.currency)
  }

  /** A row's amount in minor units of its currency (`exponent` decimals), signed, reversals flagged. */
  private amount(fields: string[], exponent: number): { ok: true; minor: number; reversal: boolean } | { ok: false; reason: string } {
    const { plan, o } = this
    const m = plan.map
    let minor: number
    let reversal = false
    if (m.amount !== undefined) {
      const r = parseLocaleAmount(cell(fields, m.amount), plan.decimal, exponent)
      if (!r.ok) return { ok: false, reason: `amount ${r.message}` }
      minor = r.minor
      if (m.indicator !== undefined) {
        const mark = cell(fields, m.indicator).toLowerCase()
        const debit = o.indicatorDebit?.length ? o.indicatorDebit.map((x) => x.toLowerCase()).includes(mark) : DEBIT_MARKS.has(mark)
        const credit = o.indicatorDebit?.length ? !debit : CREDIT_MARKS.has(mark)
        if (!debit && !credit)
          return {
            ok: false,
            reason: `debit/credit indicator "${cell(fields, m.indicator)}" is neither a debit nor a credit mark (give --indicator-debit VALUE)`,
          }
        minor = debit ? -Math.abs(minor) : Math.abs(minor)
      }
    } else {
      const readAmount = (text: string): LocaleAmount => parseLocaleAmount(text, plan.decimal, exponent)
      const r = debitCreditAmount({ debit: cell(fields, m.debit), credit: cell(fields, m.credit) }, this.signs, readAmount)
      if (!r.ok) return r
      minor = r.minor
      reversal = r.reversal
    }
    return { ok: true, minor: o.invertSign ? -minor : minor, reversal }
  }

  /** undefined for the header, preamble, filtered and non-transaction lines (the last counted in `skipped`). */
  convert(rec: CsvRecord): Converted | undefined {
    const { plan, o } = this
    if (!this.inScope(rec)) return undefined
    const m = plan.map
    const dateText = cell(rec.fields, m.date)
    if (!DATE_LIKE.test(dateText)) return this.skip(rec.line, notTransaction(rec.fields))
    const byText = this.auto ? balanceOf(rec.fields, m) : undefined
    const code = plan.recordType ? cell(rec.fields, plan.recordType.column) : undefined
    if (byText || (this.auto && plan.recordType && code !== plan.recordType.movement)) {
      // A balance named by its text starts the running sum; a bare record type may be a turnover, and does not.
      const amount = byText ? this.amount(rec.fields, this.exponentOf(rec.fields)) : undefined
      this.running.balanceSeen(byText?.kind, amount?.ok ? amount.minor : undefined)
      return this.skip(rec.line, byText ? balanceReason(byText) : recordTypeReason(code!, plan.recordType!))
    }
    const date = parseDate(dateText, plan.dateFormat.order)
    if (!date) return this.fail(rec, `date "${dateText}" does not fit ${plan.dateFormat.name}`)
    // A row's own currency (its currency column) wins over --set currency_code and the account's;
    // its amount is read with that currency's decimals (JPY 0, BHD 3, CLF 4), not the account's.
    const currencyText = cell(rec.fields, m.currency_code)
    const currency = currencyText.toUpperCase() || o.constants?.currency_code || o.currency
    if (!isCurrency(currency)) return this.fail(rec, `currency "${currencyText || currency}" is not an ISO 4217 currency code`)
    const exponent = currencyExponent(currency)
    const amount = this.amount(rec.fields, exponent)
    if (!amount.ok) return this.fail(rec, amount.reason)
    const { minor, reversal } = amount
    const balance = this.auto ? this.running.balanceRow(minor) : undefined
    if (balance) return this.skip(rec.line, balance)
    // The bank's text verbatim (line breaks, as \n, and runs of spaces) is the original description.
    const text = descriptionText(rec.fields, m.description)
    const original = text.replace(/\r\n?/g, '\n').slice(0, 1000)
    const description = tidy(text).slice(0, 1000)
    if (!description) return this.fail(rec, 'no description: the description column is empty')
    const postedText = cell(rec.fields, m.posted_date)
    const posted = postedText ? parseDate(postedText, plan.dateFormat.order) : null
    const reference = cell(rec.fields, m.reference)
    const key = `${o.accountId}\u0000${date}\u0000${minor}\u0000${description.toLowerCase()}\u0000${reference}`
    // One call, as text: createHash().update().digest() crosses into C++ three times, and a Buffer a
    // row then its text took 1.4 s a million against 0.4 s. Its first 22 characters are 132 bits.
    const digest = hash('sha256', key, 'base64url')
    const n = this.occurrences.next(digest)
    // Built by assignment, in the order a spread of the constants and then these fields would give
    // (a --set field keeps its place): five conditional spreads made a throwaway object each, a row.
    const request = (o.constants ? { ...o.constants } : {}) as TransactionDraft & { import_ref: string }
    request.bank_account_id = o.accountId
    request.transaction_date = date
    request.description = description
    if (original !== description) request.original_description = original
    request.amount = formatMinor(minor, exponent)
    request.currency_code = currency
    if (posted) request.posted_date = posted
    const merchant = cell(rec.fields, m.merchant_name)
    if (merchant) request.merchant_name = merchant.slice(0, 200)
    const category = cell(rec.fields, m.category)
    if (category) request.category = category.slice(0, 100)
    // The date first: rows of a bank file (in date order) then land side by side in the unique index.
    request.import_ref = `${date.replaceAll('-', '')}.${digest.slice(0, 22)}.${n}`
    return reversal ? { ok: true, line: rec.line, request, minor, reversal: true } : { ok: true, line: rec.line, request, minor }
  }
}

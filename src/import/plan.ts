/**
 * The import's plan stage: one pass over the start of a file (or all of it) decides how every row
 * is read: encoding, delimiter, header row, column map, date format, decimal mark, the rows that are
 * no movements, and the mapping's own choices (--where, --invert-sign, --indicator-debit). The map
 * stage (map-rows.ts) then reads each row by the plan alone.
 */
import { stat } from 'node:fs/promises'
import { detectDecimalMark, type DecimalMark } from './amount.js'
import { readRecordChunks, readRecordChunksBytes, sniffLayout, sniffLayoutBytes, type CsvLayout, type CsvRecord } from './read-rows.js'
import { DateDetector, formatFromFlag, type DateFormat } from './dates.js'
import { mapHeader, missingColumns, recognised, type ColumnMap, type Role } from './mapping.js'
import { SignCounter, signsNote, type ColumnSigns } from './debit-credit.js'
import { columnsNote, dateColumnByValues, descriptionByValues, EVIDENCE_ROWS, takenColumns } from './column-evidence.js'
import { encodingNote } from './decode.js'
import { IndicatorFinder } from './indicator.js'
import { markOf } from './marks.js'
import { rows } from './plan-words.js'
import { RecordTypeFinder, type RecordType } from './balance-rows.js'
import { balanceOf, balanceReason, cell, columnIndex, DATE_LIKE, ImportError, notTransaction, recordTypeReason } from './row-text.js'

export { ImportError } from './row-text.js'

/**
 * How a bank's CSV files are read and mapped: the flags of `tx import`, a saved mapping (which adds
 * its `--set` values), an upload's options, a seed step's. Handed to the plan whole.
 */
export interface CsvMapping {
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
  /** Transaction rows the plan read (all of them, unless `settledEarly`). */
  rowsRead: number
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
  /** --where: the columns (0-based, negative from the right) and the values a row must hold; then no row is skipped by itself. */
  where: Array<[number, string]>
  /** --invert-sign: every amount flipped. */
  invertSign: boolean
  /** --indicator-debit's values as marks are compared (marks.ts, markOf). */
  debitValues?: string[]
  filtered: number
  notes: string[]
}

/** The plan of its import; `settle`: stop as soon as its decisions are final (ImportPlan.settledEarly). */
export async function planImport(path: string, o: CsvMapping = {}, settle = false): Promise<ImportPlan> {
  let layout: CsvLayout
  try {
    layout = await sniffLayout(path, { encoding: o.encoding, delimiter: o.delimiter })
  } catch (e) {
    throw new ImportError((e as Error).message)
  }
  return planRecords(layout, readRecordChunks(path, layout), o, settle ? { bytes: (await stat(path)).size } : undefined)
}

/** `planImport` over bytes (an upload): header row, column map, date format and decimal mark over every row. */
export async function planImportBytes(bytes: Uint8Array, o: CsvMapping = {}): Promise<ImportPlan> {
  let layout: CsvLayout
  try {
    layout = sniffLayoutBytes(bytes, { encoding: o.encoding, delimiter: o.delimiter })
  } catch (e) {
    throw new ImportError((e as Error).message)
  }
  return planRecords(layout, readRecordChunksBytes(bytes, layout), o)
}

/** What the user is told when data rows have more or fewer fields than the header. */
function raggedNote(ragged: number, read: number, early: boolean, first: CsvRecord, headerFields: number): string {
  const which =
    read === 1 && !early
      ? 'the one row has'
      : `${early ? `${ragged} of the first ${rows(read)}` : ragged === read ? `all ${rows(read)}` : `${ragged} of ${rows(read)}`} ${ragged === 1 ? 'has' : 'have'}`
  return `ragged: ${which} a number of fields other than the header's ${headerFields} (line ${first.line} has ${first.fields.length}); columns are matched by position from the left, --map FIELD=-N counts from the right end of each row`
}

/** Amount samples the decimal mark is decided from. */
const AMOUNT_SAMPLES = 2000

/**
 * The plan over any source of records, a chunk at a time (a file, an upload in memory): the plan of
 * the import. With `settle` it stops as soon as nothing later in the file could change a decision
 * (see `ImportPlan.settledEarly`).
 */
export async function planRecords(
  layout: CsvLayout,
  chunks: AsyncIterable<CsvRecord[]>,
  o: CsvMapping = {},
  settle?: { bytes: number },
): Promise<ImportPlan> {
  const notes: string[] = []
  notes.push(`${encodingNote(layout.encoding)}, delimiter ${JSON.stringify(layout.delimiter)}`)
  /** --date-format's format: a row whose date has its layout's shape is a transaction. */
  let flagFormat: DateFormat | undefined
  try {
    flagFormat = o.dateFormat ? formatFromFlag(o.dateFormat) : undefined
  } catch (e) {
    throw new ImportError((e as Error).message)
  }
  const noHeader = (where: string) =>
    new ImportError(
      `found no header row in ${where} (read with the delimiter ${JSON.stringify(layout.delimiter)}): check --delimiter, or give --skip-lines N (the lines before the header) or --map field=Column`,
    )
  let header: string[] | undefined
  let headerLine = 0
  let map: ColumnMap | undefined
  let where: Array<[number, string]> = []
  /** Records after the header, kept aside until the columns are decided from their values (column-evidence.ts). */
  let pending: CsvRecord[] | undefined
  /** Words the columns line adds to a field found by its values. */
  const how: Partial<Record<Role, string>> = {}
  /** Balance and turnover rows are found by the file's signals unless --where chooses the rows. */
  const auto = !o.where?.length
  let recordTypes: RecordTypeFinder | undefined
  let indicators: IndicatorFinder | undefined
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
  /** Characters of the records planned (fields and delimiters), to estimate the rows of the rest. */
  let chars = 0
  let settledEarly = false
  // The decisions are final once the columns are decided, one date format reads more rows than any
  // other (a later row it does not read is rejected by the import) and the amounts the decimal
  // mark is decided from are in; never before EVIDENCE_ROWS rows, so a small file is read whole.
  const settled = () =>
    dataRows >= EVIDENCE_ROWS && (o.dateFormat !== undefined || dates.settled) && (o.decimalComma || amounts.length >= AMOUNT_SAMPLES)
  const count = (rec: CsvRecord) => {
    if (settle) for (const f of rec.fields) chars += f.length + 1
  }
  const inScope = (fields: string[]) => !where.some(([i, v]) => cell(fields, i) !== v)

  /** The columns the header leaves open, from the values of the records kept aside. */
  const decideColumns = (records: CsvRecord[]) => {
    const m = map!
    const h = header!
    const given = new Set((o.map ?? []).map(([r]) => r))
    const rows = records.map((r) => r.fields).filter(inScope)
    if (m.date === undefined) {
      const i = dateColumnByValues(h, rows, takenColumns(m))
      if (i !== undefined) {
        m.date = i
        how.date = 'its values are dates'
      }
    }
    if (!given.has('description') && m.date !== undefined) {
      const dated = rows.filter((f) => DATE_LIKE.test(cell(f, m.date), flagFormat))
      const choice = descriptionByValues(h, m, dated)
      if (choice) {
        m.description = choice.columns
        if (choice.why) notes.push(`description: ${choice.why}`)
      }
    }
    const missing = missingColumns(m)
    if (missing.length)
      throw new ImportError(`cannot tell which column holds the ${missing.join(', the ')}; header: ${h.map((x) => `"${x}"`).join(', ')}`)
    if (auto)
      recordTypes = new RecordTypeFinder(
        h,
        new Set(
          Object.values(m)
            .flat()
            .filter((i): i is number => typeof i === 'number' && i >= 0),
        ),
      )
    indicators = new IndicatorFinder(h, m, o.indicatorDebit)
  }

  /** One record after the columns are decided; true: the plan is settled, stop reading. */
  const plan = (rec: CsvRecord): boolean => {
    if (settle && settled()) {
      settledEarly = true
      return true
    }
    count(rec)
    if (!inScope(rec.fields)) {
      filtered++
      return false
    }
    const date = cell(rec.fields, map!.date)
    if (!DATE_LIKE.test(date, flagFormat)) {
      skipped.push({ line: rec.line, reason: notTransaction(rec.fields) })
      return false
    }
    if (auto) {
      const balance = balanceOf(rec.fields, map!)
      recordTypes!.add(rec.fields, rec.line, balance !== undefined)
      if (balance) {
        skipped.push({ line: rec.line, reason: balanceReason(balance) })
        return false
      }
    }
    dataRows++
    if (rec.fields.length !== header!.length && ragged++ === 0) firstRagged = rec
    dates.add(date)
    if (amounts.length < AMOUNT_SAMPLES)
      for (const i of [map!.amount, map!.debit, map!.credit]) if (i !== undefined && cell(rec.fields, i)) amounts.push(cell(rec.fields, i))
    if (map!.amount === undefined) for (const column of ['debit', 'credit'] as const) signs[column].add(cell(rec.fields, map![column]))
    indicators!.add(rec.fields)
    return false
  }

  /** Decides the columns over the records kept aside, then plans them; true: settled. */
  const release = (): boolean => {
    const records = pending!
    pending = undefined
    decideColumns(records)
    return records.some(plan)
  }

  reading: for await (const records of chunks)
    for (const rec of records) {
      seen++
      if (pending) {
        pending.push(rec)
        if (pending.length >= EVIDENCE_ROWS && release()) break reading
        continue
      }
      if (header) {
        if (plan(rec)) break reading
        continue
      }
      count(rec)
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
      pending = []
    }
  if (pending) release()
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
  if (flagFormat) dateFormat = flagFormat
  else {
    const d = dates.decide()
    if (!d.ok) throw new ImportError(d.message)
    dateFormat = d.format
    const misfits = d.misfits
      ? `; ${d.misfits} ${d.misfits === 1 ? 'date does' : 'dates do'} not fit it and ${d.misfits === 1 ? 'its row is' : 'their rows are'} rejected`
      : ''
    notes.push(
      settledEarly
        ? `dates ${d.format.name} (detected over the first ${rows(rowsRead)}, where no other format fits as many${misfits}; every row is read with it)`
        : `dates ${d.format.name} (detected over ${rows(dataRows)}${misfits})`,
    )
  }
  if (firstRagged) notes.push(raggedNote(ragged, rowsRead, settledEarly, firstRagged, header.length))
  const decimal: DecimalMark = o.decimalComma ? ',' : detectDecimalMark(amounts)
  notes.push(`decimal mark ${JSON.stringify(decimal)}${o.decimalComma ? ' (given)' : ' (detected)'}`)
  const columnSigns: ColumnSigns | undefined =
    map.amount === undefined ? { debit: signs.debit.usual, credit: signs.credit.usual } : undefined
  if (columnSigns) notes.push(signsNote(columnSigns, header, map))
  const sign = indicators!.decide({ invertSign: o.invertSign })
  if (sign.indicator !== undefined) map.indicator = sign.indicator
  notes.push(...sign.notes)
  // Which column each field was taken from, right after the encoding.
  notes.splice(1, 0, columnsNote(header, map, how))
  return {
    layout,
    headerLine,
    header,
    map,
    dateFormat,
    decimal,
    ...(columnSigns ? { signs: columnSigns } : {}),
    dataRows,
    rowsRead,
    ...(settledEarly ? { settledEarly } : {}),
    skipped,
    ...(byType ? { recordType: byType.recordType } : {}),
    where,
    invertSign: Boolean(o.invertSign),
    ...(o.indicatorDebit?.length ? { debitValues: o.indicatorDebit.map(markOf) } : {}),
    filtered,
    notes,
  }
}

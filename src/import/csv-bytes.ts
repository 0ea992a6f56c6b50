/**
 * CSV import from bytes in memory (an uploaded statement), with the same reading and planning as
 * `finctl tx import` does from a file (csv-reader.ts, csv-import.ts): the same encoding, delimiter
 * and header detection, the same column mapping, date and decimal-mark decisions, so a file maps
 * the same way whichever path it takes. test/import/csv-bytes.test.ts holds the two to the same
 * plan over every real CSV file.
 */
import { Readable } from 'node:stream'
import { parse } from 'csv-parse'
import { detectDecimalMark, type DecimalMark } from './amount.js'
import type { CsvLayout, CsvRecord } from './csv-reader.js'
import { ImportError, type ImportOptions, type ImportPlan } from './csv-import.js'
import { DateDetector, formatFromFlag, type DateFormat } from './dates.js'
import { detectEncoding } from './decode.js'
import { mapHeader, missingColumns, recognised, type ColumnMap } from './mapping.js'
import { detectDelimiter, type Delimiter } from './sniff.js'

const SAMPLE_BYTES = 64 * 1024
const CHUNK = 256 * 1024
const DATE_LIKE = /^\s*(\d{1,4}[./\-: ]\d{1,2}[./\-: ]\d{1,4}|\d{8})(\D|$)/

/** Encoding and delimiter from the start of the bytes (options win), as `sniffLayout` does for a file. */
export function sniffLayoutBytes(bytes: Uint8Array, o: { encoding?: string; delimiter?: string } = {}): CsvLayout {
  const sample = bytes.subarray(0, SAMPLE_BYTES)
  const encoding = detectEncoding(sample, o.encoding)
  const text = new TextDecoder(encoding.encoding).decode(sample.subarray(encoding.bomLength))
  const delimiter = (o.delimiter === undefined ? detectDelimiter(text) : o.delimiter === '\\t' || o.delimiter === 'tab' ? '\t' : o.delimiter) as Delimiter
  return { encoding, delimiter }
}

/** A field a bank wrapped in stray quotes ("UAB "Naktida"") loses the outer pair. */
function clean(field: string): string {
  return field.length >= 2 && field.startsWith('"') && field.endsWith('"') ? field.slice(1, -1) : field
}

/** The records of CSV bytes, one at a time with their line numbers (decoded and parsed in chunks). */
export async function* readRecordsBytes(bytes: Uint8Array, layout: CsvLayout): AsyncGenerator<CsvRecord> {
  const parser = parse({ delimiter: layout.delimiter, relax_quotes: true, relax_column_count: true, skip_empty_lines: true, info: true })
  const body = bytes.subarray(layout.encoding.bomLength)
  const decoder = new TextDecoder(layout.encoding.encoding)
  const text = Readable.from(
    (function* () {
      for (let i = 0; i < body.length; i += CHUNK) yield decoder.decode(body.subarray(i, i + CHUNK), { stream: true })
      const rest = decoder.decode()
      if (rest) yield rest
    })(),
  )
  text.on('error', (e) => parser.destroy(e))
  text.pipe(parser)
  for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    const fields = item.record.map(clean)
    if (fields.every((f) => f.trim() === '')) continue
    yield { line: item.info.lines, fields }
  }
}

function cell(fields: string[], index: number | undefined): string {
  if (index === undefined) return ''
  return (index < 0 ? fields[fields.length + index] : fields[index])?.trim() ?? ''
}

function columnIndex(header: string[], column: string): number {
  if (/^-?\d+$/.test(column)) return Number(column) > 0 ? Number(column) - 1 : Number(column)
  const i = header.findIndex((h) => h.trim() === column.trim())
  if (i < 0) throw new ImportError(`no column "${column}" in the header (${header.map((h) => `"${h}"`).join(', ')})`)
  return i
}

/** `planImport` over bytes: header row, column map, date format and decimal mark over every row. */
export async function planImportBytes(bytes: Uint8Array, o: ImportOptions = {}): Promise<ImportPlan> {
  let layout: CsvLayout
  try {
    layout = sniffLayoutBytes(bytes, { encoding: o.encoding, delimiter: o.delimiter })
  } catch (e) {
    throw new ImportError((e as Error).message)
  }
  const notes: string[] = []
  notes.push(`encoding ${layout.encoding.encoding} (${layout.encoding.how === 'given' ? 'given' : `detected: ${layout.encoding.how}`}), delimiter ${JSON.stringify(layout.delimiter)}`)
  let header: string[] | undefined
  let headerLine = 0
  let map: ColumnMap | undefined
  let where: Array<[number, string]> = []
  const dates = new DateDetector()
  const amounts: string[] = []
  const skipped: ImportPlan['skipped'] = []
  let dataRows = 0
  let filtered = 0
  let seen = 0
  for await (const rec of readRecordsBytes(bytes, layout)) {
    seen++
    if (!header) {
      const isHeader = o.skipLines !== undefined ? rec.line > o.skipLines : recognised(rec.fields) >= 2 || ((o.map?.length ?? 0) > 0 && seen > (o.skipLines ?? 0))
      if (!isHeader) {
        if (seen > 50) throw new ImportError('found no header row in the first 50 lines: give skip_lines (the lines before the header) or a column map (field=Column)')
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
      if (missing.length) throw new ImportError(`cannot tell which column holds the ${missing.join(', the ')}; header: ${header.map((h) => `"${h}"`).join(', ')}`)
      continue
    }
    if (where.some(([i, v]) => cell(rec.fields, i) !== v)) {
      filtered++
      continue
    }
    const date = cell(rec.fields, map!.date)
    if (!DATE_LIKE.test(date)) {
      skipped.push({ line: rec.line, reason: `not a transaction line (no date: ${JSON.stringify(rec.fields.filter(Boolean).join(' ').slice(0, 60))})` })
      continue
    }
    dataRows++
    dates.add(date)
    if (amounts.length < 2000) for (const i of [map!.amount, map!.debit, map!.credit]) if (i !== undefined && cell(rec.fields, i)) amounts.push(cell(rec.fields, i))
  }
  if (!header || !map) throw new ImportError('the file holds no header row and no data')
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
    notes.push(`dates ${d.format.name} (detected over ${dataRows} rows)`)
  }
  const decimal: DecimalMark = o.decimalComma ? ',' : detectDecimalMark(amounts)
  notes.push(`decimal mark ${JSON.stringify(decimal)}${o.decimalComma ? ' (given)' : ' (detected)'}`)
  return { layout, headerLine, header, map, dateFormat, decimal, dataRows, skipped, filtered, notes }
}

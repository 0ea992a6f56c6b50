/**
 * CSV import from bytes in memory (an uploaded statement), through the same reading and planning as
 * `finctl tx import` does from a file (csv-reader.ts, csv-import.ts): the same encoding, delimiter
 * and header detection, column mapping, date and decimal-mark decisions, so a file maps the same
 * way whichever path it takes. test/import/csv-bytes.test.ts holds the two to the same plan over
 * every real CSV file.
 */
import { Readable } from 'node:stream'
import { layoutOf, parseRecordChunks, type CsvLayout, type CsvRecord } from './csv-reader.js'
import { ImportError, planRecords, type ImportOptions, type ImportPlan } from './csv-import.js'

const SAMPLE_BYTES = 64 * 1024
const CHUNK = 256 * 1024

/** Encoding and delimiter from the start of the bytes (options win), as `sniffLayout` does for a file. */
export function sniffLayoutBytes(bytes: Uint8Array, o: { encoding?: string; delimiter?: string } = {}): CsvLayout {
  return layoutOf(bytes.subarray(0, SAMPLE_BYTES), o)
}

/** The records of CSV bytes, one at a time with their line numbers (decoded and parsed in chunks). */
export async function* readRecordsBytes(bytes: Uint8Array, layout: CsvLayout): AsyncGenerator<CsvRecord> {
  for await (const chunk of readRecordChunksBytes(bytes, layout)) yield* chunk
}

/** `readRecordsBytes`, as many records at a time as the parser has ready. */
export function readRecordChunksBytes(bytes: Uint8Array, layout: CsvLayout): AsyncGenerator<CsvRecord[]> {
  const body = bytes.subarray(layout.encoding.bomLength)
  const decoder = new TextDecoder(layout.encoding.encoding)
  const text = Readable.from(
    (function* () {
      for (let i = 0; i < body.length; i += CHUNK) yield decoder.decode(body.subarray(i, i + CHUNK), { stream: true })
      const rest = decoder.decode()
      if (rest) yield rest
    })(),
  )
  return parseRecordChunks(text, layout)
}

/** `planImport` over bytes: header row, column map, date format and decimal mark over every row. */
export async function planImportBytes(bytes: Uint8Array, o: ImportOptions = {}): Promise<ImportPlan> {
  let layout: CsvLayout
  try {
    layout = sniffLayoutBytes(bytes, { encoding: o.encoding, delimiter: o.delimiter })
  } catch (e) {
    throw new ImportError((e as Error).message)
  }
  return planRecords(layout, readRecordChunksBytes(bytes, layout), o)
}

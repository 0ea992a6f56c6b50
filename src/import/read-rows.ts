/**
 * The import's read stage: records out of a CSV file or an upload's bytes, decoded from their
 * encoding, parsed by csv-parse (quoted fields with delimiters and line breaks, CR / LF / CRLF,
 * ragged rows, stray quotes), each with its line number, a chunk at a time, so memory stays flat
 * whatever the size. A file and bytes go through the same parser, so they read the same.
 */
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { Readable, Transform } from 'node:stream'
import { parse } from 'csv-parse'
import { detectEncoding, type Detected } from './decode.js'
import { detectDelimiter, type Delimiter } from './sniff.js'

export interface CsvRecord {
  /** 1-based line where the record starts */
  line: number
  fields: string[]
}

export interface CsvLayout {
  encoding: Detected
  delimiter: Delimiter
}

const SAMPLE_BYTES = 64 * 1024

export async function readSample(path: string, bytes = SAMPLE_BYTES): Promise<Uint8Array> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(bytes)
    const { bytesRead } = await fh.read(buf, 0, bytes, 0)
    return buf.subarray(0, bytesRead)
  } finally {
    await fh.close()
  }
}

/** Encoding and delimiter from the start of the file (flags win). */
export async function sniffLayout(path: string, o: { encoding?: string; delimiter?: string } = {}): Promise<CsvLayout> {
  return layoutOf(await readSample(path), o)
}

/** Encoding and delimiter from the start of the bytes (options win), as `sniffLayout` does for a file. */
export function sniffLayoutBytes(bytes: Uint8Array, o: { encoding?: string; delimiter?: string } = {}): CsvLayout {
  return layoutOf(bytes.subarray(0, SAMPLE_BYTES), o)
}

/** Encoding and delimiter from the first bytes of a file or an upload (flags win). */
function layoutOf(sample: Uint8Array, o: { encoding?: string; delimiter?: string } = {}): CsvLayout {
  const encoding = detectEncoding(sample, o.encoding)
  const text = new TextDecoder(encoding.encoding).decode(sample.subarray(encoding.bomLength))
  const delimiter = (
    o.delimiter === undefined ? detectDelimiter(text) : o.delimiter === '\\t' || o.delimiter === 'tab' ? '\t' : o.delimiter
  ) as Delimiter
  return { encoding, delimiter }
}

function decoder(encoding: string): Transform {
  const d = new TextDecoder(encoding)
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      done(null, d.decode(chunk, { stream: true }))
    },
    flush(done) {
      done(null, d.decode())
    },
  })
}

/** Spaces or tabs after a quoted field's closing quote (`"12.34"<TAB>,`): relax_quotes keeps the quotes in the field. */
const QUOTED_THEN_BLANK = /^"([^"]*)"[ \t]+$/

/** A field a bank wrapped in stray quotes ("UAB "Naktida"") loses the outer pair, as one with blanks after its closing quote does. */
function clean(field: string): string {
  if (field.length < 2 || field.charCodeAt(0) !== 34) return field
  if (field.endsWith('"')) return field.slice(1, -1)
  const m = QUOTED_THEN_BLANK.exec(field)
  return m ? m[1] : field
}

export async function* readRecords(path: string, layout: CsvLayout): AsyncGenerator<CsvRecord> {
  for await (const chunk of readRecordChunks(path, layout)) yield* chunk
}

/**
 * The records of a file as they come out of the parser, several at a time: `tx import` takes them
 * so, because every step of an async iteration per record (each `yield` a promise and a microtask)
 * cost more than parsing the CSV did.
 */
export async function* readRecordChunks(path: string, layout: CsvLayout): AsyncGenerator<CsvRecord[]> {
  // 16 KiB reads, not 256: csv-parse turns a whole chunk into records at once, so a big chunk left
  // thousands of records waiting for the import, long enough to outlive young-generation GCs.
  const source = createReadStream(path, { start: layout.encoding.bomLength, highWaterMark: 16 * 1024 })
  const text = source.pipe(decoder(layout.encoding.encoding))
  source.on('error', (e) => text.destroy(e))
  try {
    yield* parseRecordChunks(text, layout)
  } finally {
    source.destroy()
  }
}

/** The records of CSV bytes, one at a time with their line numbers (decoded and parsed in chunks). */
export async function* readRecordsBytes(bytes: Uint8Array, layout: CsvLayout): AsyncGenerator<CsvRecord> {
  for await (const chunk of readRecordChunksBytes(bytes, layout)) yield* chunk
}

/** Text decoded from bytes in memory, handed to the parser a piece at a time. */
const BYTES_CHUNK = 256 * 1024

/** `readRecordsBytes`, as many records at a time as the parser has ready. */
export function readRecordChunksBytes(bytes: Uint8Array, layout: CsvLayout): AsyncGenerator<CsvRecord[]> {
  const body = bytes.subarray(layout.encoding.bomLength)
  const decoder = new TextDecoder(layout.encoding.encoding)
  const text = Readable.from(
    (function* () {
      for (let i = 0; i < body.length; i += BYTES_CHUNK) yield decoder.decode(body.subarray(i, i + BYTES_CHUNK), { stream: true })
      const rest = decoder.decode()
      if (rest) yield rest
    })(),
  )
  return parseRecordChunks(text, layout)
}

/**
 * The records of decoded CSV text, whatever it comes from (a file, an upload in memory), as many
 * at a time as the parser has ready (never an empty chunk).
 */
export async function* parseRecordChunks(text: Readable, layout: CsvLayout): AsyncGenerator<CsvRecord[]> {
  // Lines are counted here, not with csv-parse's `info` option: that builds an object of a dozen
  // fields for every record, and its count is the line where a multi-line record ends (CRLF inside a
  // quoted field counting twice), not where it starts.
  const parser = parse({
    delimiter: layout.delimiter,
    relax_quotes: true,
    relax_column_count: true,
    // A quoted field after a space (PayPal's older export: `"EUR", "20,00"`) is still quoted, not split at its comma.
    ltrim: true,
    // Kept, so that every physical line is seen and counted; blank records are dropped below.
    skip_empty_lines: false,
  })
  text.on('error', (e) => parser.destroy(e))
  // The parser is read by hand, all it has at each 'readable': its async iterator hands out one
  // record per promise.
  let ended = false
  let failure: Error | undefined
  let wake: (() => void) | undefined
  parser.on('readable', () => wake?.())
  parser.on('end', () => {
    ended = true
    wake?.()
  })
  parser.on('error', (e) => {
    failure = e
    wake?.()
  })
  text.pipe(parser)
  let line = 1
  try {
    for (;;) {
      const chunk: CsvRecord[] = []
      for (let record = parser.read() as string[] | null; record !== null; record = parser.read() as string[] | null) {
        const start = line
        line += 1 + lineBreaks(record)
        // Empty lines and whole-line junk such as ",,,,," are no record.
        let blank = true
        for (let i = 0; i < record.length; i++) {
          const f = clean(record[i])
          record[i] = f
          if (blank && f.trim() !== '') blank = false
        }
        if (!blank) chunk.push({ line: start, fields: record })
      }
      if (chunk.length) {
        yield chunk
        continue
      }
      if (failure) throw failure
      if (ended) return
      await new Promise<void>((resolve) => (wake = resolve))
      wake = undefined
    }
  } finally {
    if (!ended) parser.destroy()
  }
}

/** Line breaks inside a record's (quoted) fields: CRLF, CR and LF each end one line. */
export function lineBreaks(fields: readonly string[]): number {
  let n = 0
  for (const f of fields) {
    if (!f.includes('\n') && !f.includes('\r')) continue
    for (let i = 0; i < f.length; i++) {
      const c = f.charCodeAt(i)
      if (c === 10) n++
      else if (c === 13) {
        n++
        if (f.charCodeAt(i + 1) === 10) i++
      }
    }
  }
  return n
}

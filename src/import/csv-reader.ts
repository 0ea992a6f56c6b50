/**
 * Streams records out of a CSV file: decoded from its encoding, parsed by csv-parse (quoted
 * fields with delimiters and line breaks, CR / LF / CRLF, ragged rows, stray quotes), one record
 * at a time with its line number, so memory stays flat whatever the file size.
 */
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { Transform, type Readable } from 'node:stream'
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

/** Encoding and delimiter from the first bytes of a file or an upload (flags win). */
export function layoutOf(sample: Uint8Array, o: { encoding?: string; delimiter?: string } = {}): CsvLayout {
  const encoding = detectEncoding(sample, o.encoding)
  const text = new TextDecoder(encoding.encoding).decode(sample.subarray(encoding.bomLength))
  const delimiter = (o.delimiter === undefined ? detectDelimiter(text) : o.delimiter === '\\t' || o.delimiter === 'tab' ? '\t' : o.delimiter) as Delimiter
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

/** A field a bank wrapped in stray quotes ("UAB "Naktida"") loses the outer pair. */
function clean(field: string): string {
  return field.length >= 2 && field.startsWith('"') && field.endsWith('"') ? field.slice(1, -1) : field
}

export async function* readRecords(path: string, layout: CsvLayout): AsyncGenerator<CsvRecord> {
  const source = createReadStream(path, { start: layout.encoding.bomLength, highWaterMark: 256 * 1024 })
  const text = source.pipe(decoder(layout.encoding.encoding))
  source.on('error', (e) => text.destroy(e))
  yield* parseRecords(text, layout)
}

/** The records of decoded CSV text, whatever it comes from (a file, an upload in memory). */
export async function* parseRecords(text: Readable, layout: CsvLayout): AsyncGenerator<CsvRecord> {
  const parser = parse({
    delimiter: layout.delimiter,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
  })
  text.on('error', (e) => parser.destroy(e))
  text.pipe(parser)
  for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    const fields = item.record.map(clean)
    // Whole-line junk such as ",,,,," is no record.
    if (fields.every((f) => f.trim() === '')) continue
    yield { line: item.info.lines, fields }
  }
}

/** A file's lines as a stream, decoded from its code page, each with its number and whether it ended in CRLF. */
import { createReadStream } from 'node:fs'
import { decode } from '../../domain/exports/formats/legacy-text.js'

export interface Line {
  n: number
  text: string
  crlf: boolean
  /** The file's last line, with no line end. */
  last: boolean
}

export async function* lines(path: string, encoding: 'win1252' | 'cp437' | 'utf8'): AsyncGenerator<Line> {
  let rest = ''
  let n = 0
  // A single-byte code page decodes chunk by chunk (no character spans two); UTF-8 through the stream's decoder.
  const stream = createReadStream(path, encoding === 'utf8' ? { encoding: 'utf8' } : {})
  for await (const chunk of stream as AsyncIterable<string | Buffer>) {
    rest += typeof chunk === 'string' ? chunk : decode(chunk, encoding === 'win1252' ? 'windows-1252' : 'cp437')
    let at = rest.indexOf('\n')
    while (at >= 0) {
      const raw = rest.slice(0, at)
      rest = rest.slice(at + 1)
      const crlf = raw.endsWith('\r')
      yield { n: ++n, text: crlf ? raw.slice(0, -1) : raw, crlf, last: false }
      at = rest.indexOf('\n')
    }
  }
  if (rest !== '') yield { n: ++n, text: rest, crlf: false, last: true }
}

/** A `;`-separated line with "quoted" fields ("" a quote); undefined when a quote is left open. */
export function splitSemicolons(line: string): Array<{ value: string; quoted: boolean }> | undefined {
  const out: Array<{ value: string; quoted: boolean }> = []
  let i = 0
  for (;;) {
    if (line[i] === '"') {
      let value = ''
      i++
      for (;;) {
        const q = line.indexOf('"', i)
        if (q < 0) return undefined
        value += line.slice(i, q)
        if (line[q + 1] === '"') {
          value += '"'
          i = q + 2
        } else {
          i = q + 1
          break
        }
      }
      out.push({ value, quoted: true })
    } else {
      const end = line.indexOf(';', i)
      out.push({ value: end < 0 ? line.slice(i) : line.slice(i, end), quoted: false })
      if (end < 0) return out
      i = end
    }
    if (i >= line.length) return out
    if (line[i] !== ';') return undefined
    i++
    if (i === line.length) {
      out.push({ value: '', quoted: false })
      return out
    }
  }
}

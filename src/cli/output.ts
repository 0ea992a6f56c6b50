/**
 * Output for people and for scripts. Data goes to stdout: an aligned table on a terminal,
 * tab-separated rows with a header line otherwise, or json / ndjson / csv when asked.
 * JSON output is exactly the `data` of the response. Text from outside reaches the terminal only
 * through terminal-text.ts: tables, rows, CSV and messages show control characters as escapes.
 */
import { Chalk } from 'chalk'
import { csvLine } from '../kernel/csv-write.js'
import { isAscii } from 'node:buffer'
import { expectReader, writeDrained } from './closed-output.js'
import { printableCsvLine } from './csv-record.js'
import type { IO } from './io.js'
import type { Shape } from './json-shape.js'
import { jsonText, printableLine, printableText } from './terminal-text.js'

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv'
export const OUTPUT_FORMATS: OutputFormat[] = ['table', 'json', 'ndjson', 'csv']

/**
 * A table cell finctl made and coloured itself (an amount red): shown as it is, where every other
 * cell has its control characters escaped. Never for text from outside.
 */
export class Styled {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

export type CellValue = string | number | boolean | null | undefined | Styled

export interface Column<T> {
  header: string
  value: (row: T) => CellValue
  align?: 'left' | 'right'
  /** The columns this one is in CSV, for a spreadsheet (an amount: the plain number, then its currency). */
  csv?: Column<T>[]
  /** Its value in a table on a terminal, where it differs (an id: its short form, docs/cli.md "Short ids"). */
  tty?: (row: T) => string | Styled
  /** Only in a table on a terminal (a name looked up for people); not in csv or tab-separated rows. */
  ttyOnly?: boolean
  /** Not in a table on a terminal (a currency its amounts already name); in csv and tab-separated rows. */
  plainOnly?: boolean
  /** Left out before the others when the terminal is too narrow: the highest first (table-fit.ts). */
  drop?: number
  /** The narrowest this text column is made before columns are left out (table-fit.ts). */
  min?: number
  /** Narrowed last: the column that gets the widest share of a narrow terminal (table-fit.ts). */
  wide?: boolean
  /** Never narrowed (a timestamp); ids, dates and right-aligned columns never are. */
  whole?: boolean
  /** Never left out on a narrow terminal (an id column always is kept). */
  keep?: boolean
  /** The row's amount is negative: its cell is red where colour is on (amountColumn). */
  negative?: (row: T) => boolean
}

/** The columns of CSV output: each column, or what it is in CSV. */
function csvColumns<T>(columns: Column<T>[]): Column<T>[] {
  return columns.filter((c) => !c.ttyOnly).flatMap((c) => c.csv ?? [c])
}

export interface Printer {
  format: OutputFormat
  color: boolean
  quiet: boolean
  /** `--json FIELDS`, `--jq`, `--template` (json-shape.ts): the JSON printed is cut, filtered or formatted. */
  shape?: Shape
  /** Whether the command's fields were checked before the request (json-shape.ts JSON_FIELDS). */
  fieldsKnown?: boolean
}

/** The JSON of a value as the printer has it: pretty, or shaped by --json FIELDS, --jq or --template. */
export async function printJson(io: IO, p: Printer, value: unknown): Promise<void> {
  if (!p.shape) {
    io.stdout.write(`${json(value, 2)}\n`)
    return
  }
  const { shapedText } = await import('./json-shape.js')
  const text = await shapedText(value, p.shape, !p.fieldsKnown)
  // jq's raw strings and a template's text are the data asked for: exact into a pipe or a file, escaped on a terminal.
  await writeDrained(io.stdout, io.isStdoutTTY && (p.shape.jq !== undefined || p.shape.template !== undefined) ? printableText(text) : text)
}

/** JSON.stringify, with no byte a terminal acts on (terminal-text.ts jsonText): the same value. */
export function json(value: unknown, indent?: number): string {
  return jsonText(JSON.stringify(value, null, indent))
}

/**
 * `jsonText(text)` as UTF-8, the bytes the write would make of it: a page of ASCII with no DEL (most
 * pages) has nothing for jsonText to rewrite, and two native scans of its bytes tell it faster than
 * jsonText's regular expression over the text (docs/performance.md, "`tx list --all` beside the store").
 */
function terminalSafeBytes(text: string): Uint8Array | string {
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.indexOf(0x7f) < 0 && isAscii(bytes)) return bytes
  const safe = jsonText(text)
  return safe === text ? bytes : safe
}

/** A value as text, as it is (tags joined). */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (v instanceof Styled) return v.text
  if (Array.isArray(v)) return v.join(',')
  return String(v)
}

/** A table cell or a tab-separated field: one line, no control character (finctl's own colours aside). */
function cell(v: unknown): string {
  return v instanceof Styled ? v.text : printableLine(cellText(v))
}

/** A CSV field: quoted by csvLine, so line feeds and tabs stay; other controls are escaped. */
function csvCell(v: unknown): string {
  return printableText(cellText(v))
}

/** A CSV record of row values: `csvLine(values.map(csvCell))`, through the one-test path (csv-record.ts). */
function csvRecord(values: unknown[]): string {
  return printableCsvLine(values.map(cellText))
}

/**
 * A table: aligned on a terminal, fitted to its width (text columns narrowed, a long value wrapped
 * inside its cell, or columns left out, those named on stderr under it), or with `fit` false (one
 * record's fields) no field left out; tab-separated with a header line elsewhere.
 */
export async function renderTable<T>(
  io: IO,
  p: Printer,
  rows: T[],
  allColumns: Column<T>[],
  footerCells?: Array<string | Styled>,
  fit = true,
): Promise<void> {
  const tty = io.isStdoutTTY
  const shown = allColumns.map((c) => (tty ? !c.plainOnly : !c.ttyOnly))
  const columns = allColumns.filter((_, i) => shown[i])
  const footer = footerCells?.filter((_, i) => shown[i]).map(cell)
  const head = columns.map((c) => cell(c.header.toUpperCase()))
  // Every cell is escaped before it is measured: widths are those of the text shown.
  const body = rows.map((r) => columns.map((c) => cell(tty && c.tty ? c.tty(r) : c.value(r))))
  if (!tty) {
    const lines = [head, ...body].map((line) => line.join('\t'))
    io.stdout.write(`${lines.join('\n')}\n`)
    return
  }
  // Fit the terminal: narrow text columns (a long value wraps inside its cell) or leave columns out,
  // so that no line is wider than the terminal. Ids, dates and right-aligned numbers stay whole.
  const termWidth = (io.stdout as { columns?: number }).columns
  const all = footer ? [...body, footer] : body
  // Loaded with cli-table3 (and its string-width), only when a table is drawn on a terminal.
  const { fitColumns, recordWidths, wrapCell, PADDING, displayWidth } = await import('./table-fit.js')
  const fitted = !termWidth
    ? undefined
    : fit
      ? fitColumns(
          head.map((h, i) => [h, ...all.map((r) => r[i] ?? '')]),
          columns.map((c) => c.whole === true || c.align === 'right' || /^(id|date)$/i.test(c.header)),
          termWidth,
          columns.map((c) => ({ drop: c.drop, min: c.min, wide: c.wide, keep: c.keep || /^id$/i.test(c.header) })),
        )
      : recordWidths(head, all, termWidth)
  const keep = <V>(row: V[]): V[] => (fitted ? fitted.kept.map((i) => row[i]) : row)
  // A value longer than its column is wrapped here, by the one width function, not cut; finctl's own
  // coloured cells (amounts) are never in a narrowed column. A header is cut ("…"), its name whole in the note.
  const wrap = (line: string[]): string[] =>
    fitted ? line.map((text, k) => (text.includes('\x1b') ? text : wrapCell(text, fitted.widths[k] - PADDING))) : line
  const { default: Table } = await import('cli-table3')
  // Colour as the printer decided (a terminal, NO_COLOR, --no-color), not as cli-table3's colour
  // library guesses from the environment (it turns colour off wherever CI is set).
  const ink = new Chalk({ level: p.color ? 1 : 0 })
  const table = new Table({
    head: keep(head).map((h) => ink.bold(h)),
    style: { head: [], border: [], compact: true },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    colAligns: keep(columns.map((c) => c.align ?? 'left')),
    ...(fitted ? { colWidths: fitted.widths, wordWrap: false, truncate: '…' } : {}),
  })
  // Negative amounts red, once the widths are measured (a colour code takes no column anyway).
  const painted = rows.map((r, ri) => body[ri].map((text, ci) => (columns[ci].negative?.(r) ? ink.red(text) : text)))
  for (const line of painted) table.push(wrap(keep(line)))
  if (footer) table.push(wrap(keep(footer.map((text) => (/^-\d/.test(text) ? ink.red(text) : text)))))
  const drawn = table.toString()
  io.stdout.write(`${p.color ? drawn.replace(/[─│┌┐└┘┬┴┼├┤]+/g, (b) => ink.grey(b)) : drawn}\n`)
  if (fitted && fitted.kept.length < columns.length) note(io, p, fold(hiddenNote(head, all, fitted.kept), termWidth ?? 80, displayWidth))
}

/** `text` broken at spaces into lines of at most `width` terminal columns (a note under a table: the terminal never wraps it). */
function fold(text: string, width: number, displayWidth: (text: string) => number): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && displayWidth(`${line} ${word}`) > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  return [...lines, line].join('\n')
}

/** "2 columns hidden: FINANCING USD, UNCATEGORIZED USD; widen the terminal or use --output" (an empty one says so). */
function hiddenNote(head: string[], all: string[][], kept: number[]): string {
  const hidden = head.map((_, i) => i).filter((i) => !kept.includes(i))
  const names = hidden.map((i) => (all.every((r) => (r[i] ?? '') === '') ? `${head[i]} (empty)` : head[i]))
  return `${hidden.length} ${hidden.length === 1 ? 'column' : 'columns'} hidden: ${names.join(', ')}; widen the terminal or use --output`
}

/** Print a list of records. */
export async function printList<T>(
  io: IO,
  p: Printer,
  rows: T[],
  columns: Column<T>[],
  opts: { footer?: Array<string | Styled>; empty?: string } = {},
): Promise<void> {
  switch (p.format) {
    case 'json':
      await printJson(io, p, rows)
      return
    case 'ndjson':
      for (const r of rows) io.stdout.write(`${json(r)}\n`)
      return
    case 'csv': {
      const cols = csvColumns(columns)
      let out = csvLine(cols.map((c) => c.header))
      for (const r of rows) out += csvRecord(cols.map((c) => c.value(r)))
      io.stdout.write(out)
      return
    }
    default:
      if (rows.length === 0) {
        if (io.isStdoutTTY || io.isStderrTTY) note(io, p, opts.empty ?? 'nothing to show')
        if (!io.isStdoutTTY) await renderTable(io, p, rows, columns)
        return
      }
      await renderTable(io, p, rows, columns, opts.footer)
  }
}

/** Print one record: as a two-column FIELD / VALUE table, or as JSON. */
export async function printRecord<T extends object>(
  io: IO,
  p: Printer,
  record: T,
  fields?: Array<[string, (r: T) => unknown]>,
): Promise<void> {
  if (p.format === 'json') {
    await printJson(io, p, record)
    return
  }
  if (p.format === 'ndjson') {
    io.stdout.write(`${json(record)}\n`)
    return
  }
  const pairs: Array<[string, unknown]> = fields
    ? fields.map(([k, f]) => [k, f(record)])
    : Object.entries(record).map(([k, v]) => [k, typeof v === 'object' && v !== null && !Array.isArray(v) ? JSON.stringify(v) : v])
  if (p.format === 'csv') {
    io.stdout.write(csvLine(pairs.map(([k]) => k)) + csvLine(pairs.map(([, v]) => csvCell(v))))
    return
  }
  // One record: every field shown, a long value wrapped inside its cell.
  await renderTable(
    io,
    p,
    pairs,
    [
      { header: 'field', value: (r) => r[0] },
      { header: 'value', value: (r) => (r[1] instanceof Styled ? r[1] : cellText(r[1])) },
    ],
    undefined,
    false,
  )
}

/**
 * `printRecord` for json and ndjson with one array of the record (`key`) too long to hold in memory:
 * its items come from `items`, written as they arrive (with back-pressure), and the output is the
 * same text as printRecord({ ...record, [key]: [...items] }).
 */
export async function printRecordStreaming(io: IO, p: Printer, record: object, key: string, items: AsyncIterable<unknown>): Promise<void> {
  if (p.shape && p.format === 'json') {
    // A shape needs the whole value: the items are held.
    const all: unknown[] = []
    for await (const item of items) all.push(item)
    await printJson(io, p, { ...record, [key]: all })
    return
  }
  const pretty = p.format === 'json'
  // JSON.stringify's own layout at depth 1 (pretty) or on one line (ndjson).
  const value = (v: unknown, depth: number) =>
    pretty ? JSON.stringify(v, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`) : JSON.stringify(v)
  const entries = Object.entries({ ...record, [key]: [] }).filter(([, v]) => v !== undefined && typeof v !== 'function')
  let chunk = '{'
  const flush = async () => {
    await writeDrained(io.stdout, jsonText(chunk))
    chunk = ''
  }
  for (let i = 0; i < entries.length; i++) {
    const [k, v] = entries[i]
    chunk += `${i ? ',' : ''}${pretty ? '\n  ' : ''}${JSON.stringify(k)}:${pretty ? ' ' : ''}`
    if (k !== key) {
      chunk += value(v, 1)
      continue
    }
    chunk += '['
    let n = 0
    for await (const item of items) {
      chunk += `${n++ ? ',' : ''}${pretty ? '\n    ' : ''}${value(item, 2)}`
      if (chunk.length >= 64 * 1024) await flush()
    }
    chunk += n && pretty ? '\n  ]' : ']'
  }
  chunk += `${pretty && entries.length ? '\n' : ''}}\n`
  await flush()
}

/** A message for people, on stderr; silenced by --quiet. Control characters of what it quotes are escaped. */
export function note(io: IO, p: Pick<Printer, 'quiet'>, message: string): void {
  if (!p.quiet) io.stderr.write(`${printableText(message)}\n`)
}

/** A message on stderr that --quiet does not silence (`note: ...`, `error: ...` lines), escaped as note's. */
export function say(io: IO, message: string): void {
  io.stderr.write(`${printableText(message)}\n`)
}

export function warn(io: IO, message: string, color = false): void {
  io.stderr.write(`${color ? '\x1b[33mwarning:\x1b[39m' : 'warning:'} ${printableText(message)}\n`)
}

/**
 * Print pages as they arrive (`--all`): ndjson, csv and tab-separated rows stream; JSON streams one
 * array; a terminal table needs every row first, so it collects them.
 */
export async function streamList<T>(
  io: IO,
  p: Printer,
  pages: AsyncIterable<T[]>,
  columns: Column<T>[],
  footer?: (rows: T[]) => Array<string | Styled> | undefined,
): Promise<number> {
  let count = 0
  if (p.format === 'json' && p.shape && (p.shape.jq !== undefined || p.shape.template !== undefined || !p.fieldsKnown)) {
    // jq and a template read the whole list (as gh's --jq over --paginate's pages joined).
    const all: T[] = []
    for await (const page of pages) all.push(...page)
    await printJson(io, p, all)
    return all.length
  }
  const fields = p.format === 'json' ? p.shape?.fields : undefined
  const { pickFields } = fields ? await import('./json-shape.js') : { pickFields: undefined }
  if (p.format === 'table' && io.isStdoutTTY) {
    const all: T[] = []
    for await (const page of pages) all.push(...page)
    await printList(io, p, all, columns, { footer: footer?.(all) })
    return all.length
  }
  // The first page is fetched before anything is written: a request that fails at once (a bad
  // filter, no credentials) leaves stdout empty rather than holding a lone "[" or header line.
  const it = pages[Symbol.asyncIterator]()
  let next = await it.next()
  if (p.format === 'json') io.stdout.write('[')
  const csvCols = csvColumns(columns)
  if (p.format === 'csv') io.stdout.write(csvLine(csvCols.map((c) => c.header)))
  const tsvCols = columns.filter((c) => !c.ttyOnly)
  if (p.format === 'table') io.stdout.write(`${tsvCols.map((c) => cell(c.header.toUpperCase())).join('\t')}\n`)
  // A CSV record's texts, one array for every row (printableCsvLine keeps nothing of it).
  const texts = new Array<string>(csvCols.length)
  for (; !next.done; next = await it.next()) {
    const page = next.value
    let chunk = ''
    for (const r of page) {
      if (p.format === 'json') chunk += `${count === 0 ? '\n' : ',\n'}${json(fields && pickFields ? pickFields(r, fields) : r)}`
      else if (p.format === 'ndjson') chunk += `${json(r)}\n`
      else if (p.format === 'csv') {
        for (let i = 0; i < csvCols.length; i++) texts[i] = cellText(csvCols[i].value(r))
        chunk += printableCsvLine(texts)
      } else chunk += `${tsvCols.map((c) => cell(c.value(r))).join('\t')}\n`
      count++
    }
    // Respect back-pressure: a slow reader (a pipe to `head`) holds the next page back, and one
    // that has gone stops the fetch.
    await writeDrained(io.stdout, chunk)
    await expectReader(io.stdout)
  }
  if (p.format === 'json') io.stdout.write(count ? '\n]\n' : ']\n')
  return count
}

/**
 * `streamList` for json (no shape) and ndjson when each row is already its JSON text (client
 * row-pages.ts): the same bytes as streamList writes of the parsed rows, without the parse and
 * the second JSON.stringify. `pages` yield each page's rows.
 */
export async function streamJsonRows(io: IO, p: Printer, pages: AsyncIterable<string[]>): Promise<number> {
  let count = 0
  const it = pages[Symbol.asyncIterator]()
  let next = await it.next()
  const ndjson = p.format === 'ndjson'
  if (!ndjson) io.stdout.write('[')
  for (; !next.done; next = await it.next()) {
    const rows = next.value
    if (rows.length) {
      // jsonText over the page is jsonText over each row: it only rewrites characters inside strings.
      const text = ndjson ? `${rows.join('\n')}\n` : `${count === 0 ? '\n' : ',\n'}${rows.join(',\n')}`
      count += rows.length
      await writeDrained(io.stdout, terminalSafeBytes(text))
    }
    await expectReader(io.stdout)
  }
  if (!ndjson) io.stdout.write(count ? '\n]\n' : ']\n')
  return count
}

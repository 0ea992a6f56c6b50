/**
 * What src/cli/output.ts writes for each --output format: CSV (RFC 4180 quoting, CRLF, formulas
 * kept as text, amounts split into number and currency), ndjson, JSON, tab-separated rows off a
 * terminal; empty lists; --all streaming; and the colour settings of Context (NO_COLOR, FORCE_COLOR).
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { amountColumn } from '../../src/cli/columns.js'
import { Context } from '../../src/cli/context.js'
import type { IO } from '../../src/cli/io.js'
import { note, printList, printRecord, streamList, warn, type Column, type OutputFormat } from '../../src/cli/output.js'
import { AppError } from '../../src/kernel/errors.js'

function capture(o: { stdoutTTY?: boolean; stderrTTY?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const out = new PassThrough()
  const err = new PassThrough()
  let stdout = ''
  let stderr = ''
  out.on('data', (d: Buffer) => (stdout += d.toString()))
  err.on('data', (d: Buffer) => (stderr += d.toString()))
  const io: IO = {
    stdout: out,
    stderr: err,
    stdin: new PassThrough(),
    isStdoutTTY: Boolean(o.stdoutTTY),
    isStderrTTY: Boolean(o.stderrTTY),
    isStdinTTY: false,
    env: o.env ?? {},
    now: () => new Date(0),
  }
  return { io, out: () => stdout, err: () => stderr }
}
const printer = (format: OutputFormat, quiet = false) => ({ format, color: false, quiet })

interface Row {
  id: string
  text: string
  amount: number
  currency: string
}
const columns: Column<Row>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'text', value: (r) => r.text },
  amountColumn<Row>(
    'amount',
    (r) => r.amount,
    (r) => r.currency,
  ),
]
const rows: Row[] = [
  { id: 'a', text: 'Coffee, large', amount: -3.5, currency: 'USD' },
  { id: 'b', text: 'He said "hi"\non two lines', amount: 1200, currency: 'JPY' },
]

describe('--output csv', () => {
  it('quotes per RFC 4180, ends lines with CRLF, splits an amount into its number and a currency column', async () => {
    const c = capture()
    await printList(c.io, printer('csv'), rows, columns)
    expect(c.out()).toBe('id,text,amount,currency\r\na,"Coffee, large",-3.50,USD\r\nb,"He said ""hi""\non two lines",1200,JPY\r\n')
  })

  it('keeps a cell that starts like a formula as text, but not a plain signed amount', async () => {
    const c = capture()
    const texts = ['=1+1', '+1', '-2+3+cmd|x', '@SUM(A1)', '\t=1', '-12.50', '-12.50 USD', '-', 'plain']
    await printList(
      c.io,
      printer('csv'),
      texts.map((text, i) => ({ id: String(i), text, amount: 0, currency: 'USD' })),
      columns.slice(0, 2),
    )
    const cells = c
      .out()
      .split('\r\n')
      .slice(1, -1)
      .map((l) => l.slice(l.indexOf(',') + 1))
    expect(cells).toEqual(["'=1+1", '+1', "'-2+3+cmd|x", "'@SUM(A1)", "'\t=1", '-12.50', '-12.50 USD', "'-", 'plain'])
  })

  it('an empty list is the header line alone; one record is a header line and a value line', async () => {
    const c = capture()
    await printList(c.io, printer('csv'), [], columns)
    expect(c.out()).toBe('id,text,amount,currency\r\n')
    const r = capture()
    await printRecord(r.io, printer('csv'), { id: 'x', tags: ['a', 'b'], nested: { k: 1 }, none: null })
    expect(r.out()).toBe('id,tags,nested,none\r\nx,"a,b","{""k"":1}",\r\n')
  })
})

describe('--json and --output ndjson', () => {
  it('json is the list itself, [] when empty; ndjson one object a line, nothing when empty', async () => {
    const j = capture()
    await printList(j.io, printer('json'), rows, columns)
    expect(JSON.parse(j.out())).toEqual(rows)
    const e = capture()
    await printList(e.io, printer('json'), [], columns)
    expect(e.out()).toBe('[]\n')
    const n = capture()
    await printList(n.io, printer('ndjson'), rows, columns)
    expect(n.out().split('\n')).toEqual([JSON.stringify(rows[0]), JSON.stringify(rows[1]), ''])
    const ne = capture()
    await printList(ne.io, printer('ndjson'), [], columns)
    expect(ne.out()).toBe('')
  })
})

describe('tables', () => {
  it('off a terminal: tab-separated with an upper-case header, tabs and line breaks in a cell made spaces', async () => {
    const c = capture()
    await printList(c.io, printer('table'), [{ ...rows[1], text: 'a\tb\r\nc' }], columns)
    expect(c.out()).toBe('ID\tTEXT\tAMOUNT\nb\ta b  c\t1200 JPY\n')
  })

  it('an empty list: the header line for a script, "nothing to show" on stderr when a person watches, silenced by --quiet', async () => {
    const piped = capture()
    await printList(piped.io, printer('table'), [], columns)
    expect(piped.out()).toBe('ID\tTEXT\tAMOUNT\n')
    expect(piped.err()).toBe('')
    const watched = capture({ stdoutTTY: true, stderrTTY: true })
    await printList(watched.io, printer('table'), [], columns, { empty: 'no transactions match' })
    expect(watched.out()).toBe('')
    expect(watched.err()).toBe('no transactions match\n')
    const quiet = capture({ stdoutTTY: true, stderrTTY: true })
    await printList(quiet.io, printer('table', true), [], columns)
    expect(quiet.err()).toBe('')
  })

  it('warn and note: warn is not silenced and is yellow only with colour; note is silenced by --quiet', () => {
    const c = capture()
    warn(c.io, 'careful')
    warn(c.io, 'careful', true)
    note(c.io, { quiet: true }, 'hidden')
    note(c.io, { quiet: false }, 'shown')
    expect(c.err()).toBe('warning: careful\n\x1b[33mwarning:\x1b[39m careful\nshown\n')
  })
})

describe('streamList (--all)', () => {
  async function* pages(...ps: Row[][]) {
    yield* ps
  }
  // biome-ignore lint/correctness/useYield: a listing whose first page fails
  async function* failing(): AsyncGenerator<Row[]> {
    throw new AppError('validation_error', 'bad filter')
  }

  it.each<OutputFormat>(['json', 'ndjson', 'csv', 'table'])('%s: the same rows as printList, counted', async (format) => {
    const streamed = capture()
    const n = await streamList(streamed.io, printer(format), pages([rows[0]], [], [rows[1]]), columns)
    const whole = capture()
    await printList(whole.io, printer(format), rows, columns)
    expect(n).toBe(2)
    if (format === 'json') expect(JSON.parse(streamed.out())).toEqual(JSON.parse(whole.out()))
    else expect(streamed.out()).toBe(whole.out())
  })

  it('no rows: json is [], the others their header line', async () => {
    const j = capture()
    expect(await streamList(j.io, printer('json'), pages([]), columns)).toBe(0)
    expect(JSON.parse(j.out())).toEqual([])
    const t = capture()
    await streamList(t.io, printer('table'), pages(), columns)
    expect(t.out()).toBe('ID\tTEXT\tAMOUNT\n')
  })

  it.each<OutputFormat>(['json', 'csv', 'table'])(
    '%s: a first page that fails leaves stdout empty (no lone "[" or header)',
    async (format) => {
      const c = capture()
      await expect(streamList(c.io, printer(format), failing(), columns)).rejects.toThrow('bad filter')
      expect(c.out()).toBe('')
    },
  )
})

describe('colour and output settings (Context)', () => {
  const color = (env: NodeJS.ProcessEnv, stdoutTTY: boolean, globals = {}) =>
    new Context(capture({ env, stdoutTTY }).io, globals).printer.color

  it('colour on a terminal only, off with NO_COLOR set to anything but empty, or --no-color', () => {
    expect(color({}, true)).toBe(true)
    expect(color({}, false)).toBe(false)
    expect(color({ NO_COLOR: '1' }, true)).toBe(false)
    expect(color({ NO_COLOR: 'false' }, true)).toBe(false)
    expect(color({ NO_COLOR: '' }, true)).toBe(true)
    expect(color({}, true, { color: false })).toBe(false)
  })

  it('FORCE_COLOR turns it on off a terminal and over NO_COLOR, unless it is 0 or false', () => {
    expect(color({ FORCE_COLOR: '1' }, false)).toBe(true)
    expect(color({ FORCE_COLOR: '1', NO_COLOR: '1' }, true)).toBe(true)
    expect(color({ FORCE_COLOR: '0' }, false)).toBe(false)
    expect(color({ FORCE_COLOR: 'false' }, false)).toBe(false)
  })

  it('--json wins over --output; an unknown --output is a usage error naming the choices', () => {
    const io = capture().io
    expect(new Context(io, { json: true, output: 'csv' }).printer.format).toBe('json')
    expect(new Context(io, { output: 'ndjson', quiet: true }).printer).toEqual({
      format: 'ndjson',
      color: false,
      quiet: true,
      fieldsKnown: false,
    })
    expect(() => new Context(io, { output: 'xml' })).toThrow(new AppError('usage', '--output must be one of table, json, ndjson, csv'))
  })
})

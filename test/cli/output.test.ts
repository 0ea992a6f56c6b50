/**
 * printRecordStreaming (src/cli/output.ts) writes the same text as printRecord with the whole array;
 * the writers escape control characters of outside text and keep finctl's own colours.
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { IO } from '../../src/cli/io.js'
import {
  type OutputFormat,
  Styled,
  note,
  printList,
  printRecord,
  printRecordStreaming,
  renderTable,
  say,
  warn,
} from '../../src/cli/output.js'

function capture(): { io: IO; text: () => string; err: () => string } {
  const out = new PassThrough()
  const errOut = new PassThrough()
  let text = ''
  let err = ''
  out.on('data', (d: Buffer) => (text += d.toString()))
  errOut.on('data', (d: Buffer) => (err += d.toString()))
  const io = {
    stdout: out,
    stderr: errOut,
    stdin: new PassThrough(),
    isStdoutTTY: false,
    isStderrTTY: false,
    isStdinTTY: false,
    env: {},
    now: () => new Date(0),
  } as IO
  return { io, text: () => text, err: () => err }
}

async function* from<T>(items: T[]): AsyncGenerator<T> {
  yield* items
}

describe.each<OutputFormat>(['json', 'ndjson'])('printRecordStreaming as %s', (format) => {
  const printer = { format, color: false, quiet: false }
  const items = Array.from({ length: 3000 }, (_, i) => ({ line: i, reason: `bad "x${i}"\n`, nested: { a: [i, { b: null }] } }))
  const record = {
    file: 'a.csv',
    read: 5,
    rejects: items.slice(0, 2),
    empty: [],
    none: {},
    preview: undefined,
    notes: ['n1', 'n2'],
    last: null,
  }

  const both = async (r: object, key: string, all: unknown[]) => {
    const a = capture()
    await printRecord(a.io, printer, { ...r, [key]: all })
    const b = capture()
    await printRecordStreaming(b.io, printer, r, key, from(all))
    return [a.text(), b.text()]
  }

  it('matches printRecord with every item in place of the array', async () => {
    const [want, got] = await both(record, 'rejects', items)
    expect(got).toBe(want)
    expect(JSON.parse(got).rejects).toHaveLength(3000)
  })

  it('matches printRecord with no items, and with the array as the last key', async () => {
    const [want, got] = await both(record, 'rejects', [])
    expect(got).toBe(want)
    const [want2, got2] = await both({ a: 1 }, 'list', items.slice(0, 3))
    expect(got2).toBe(want2)
  })
})

describe('outside text in the writers', () => {
  const plain = { format: 'table' as const, color: false, quiet: false }

  it('note, say and warn escape what the message quotes; warn keeps its own colour', () => {
    const c = capture()
    note(c.io, plain, 'line 2: date "2026-11-05\x1b[2J"\n  second line\r')
    say(c.io, 'note: "\u202eabc"')
    warn(c.io, 'bad \x9b2J', true)
    warn(c.io, 'bad \x1b]0;t\x07', false)
    expect(c.err()).toBe(
      'line 2: date "2026-11-05\\x1b[2J"\n  second line\\x0d\n' +
        'note: "U+202Eabc"\n' +
        '\x1b[33mwarning:\x1b[39m bad \\x9b2J\n' +
        'warning: bad \\x1b]0;t\\x07\n',
    )
  })

  it('a table keeps the colour finctl adds (Styled) and escapes every other cell, footer and header', async () => {
    const c = capture()
    c.io.isStdoutTTY = true
    const rows = [{ name: 'Ops \x1b[31mred', amount: new Styled('\x1b[31m-5.00\x1b[39m') }]
    await renderTable(
      c.io,
      plain,
      rows,
      [
        { header: 'name', value: (r) => r.name },
        { header: 'amount', value: (r) => r.amount, align: 'right' },
      ],
      ['total \x07', new Styled('\x1b[31m-5.00\x1b[39m')],
    )
    const out = c.text()
    expect(out).toContain('Ops \\x1b[31mred')
    expect(out).toContain('total \\x07')
    const red = '\x1b[31m-5.00\x1b[39m'
    expect(out.split(red)).toHaveLength(3)
    // No escape but the two Styled amounts'.
    expect(out.replaceAll(red, '')).not.toContain('\x1b')
  })

  it('tab-separated rows and CSV escape controls; CSV keeps line feeds and the formula guard', async () => {
    const rows = [{ d: '=1+2\x1b[2J' }, { d: 'two\nlines\ttab\rCR' }, { d: '\tlead' }]
    const cols = [{ header: 'd', value: (r: { d: string }) => r.d }]
    const t = capture()
    await printList(t.io, plain, rows, cols)
    expect(t.text()).toBe('D\n=1+2\\x1b[2J\ntwo lines tab CR\n lead\n')
    const c = capture()
    await printList(c.io, { ...plain, format: 'csv' }, rows, cols)
    expect(c.text()).toBe('d\r\n\'=1+2\\x1b[2J\r\n"two\nlines\ttab\\x0dCR"\r\n\'\tlead\r\n')
  })
})

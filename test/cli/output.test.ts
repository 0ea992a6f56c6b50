/** printRecordStreaming (src/cli/output.ts) writes the same text as printRecord with the whole array. */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { IO } from '../../src/cli/io.js'
import { printRecord, printRecordStreaming, type OutputFormat } from '../../src/cli/output.js'

function capture(): { io: IO; text: () => string } {
  const out = new PassThrough()
  let text = ''
  out.on('data', (d: Buffer) => (text += d.toString()))
  const io = {
    stdout: out,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    isStdoutTTY: false,
    isStderrTTY: false,
    isStdinTTY: false,
    env: {},
    now: () => new Date(0),
  } as IO
  return { io, text: () => text }
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

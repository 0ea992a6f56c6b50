/**
 * The statement parse worker's limits (src/domain/statements/worker.ts, a child process): a heap
 * that grows with the file and a time limit, each ending in a StatementFileError that says which
 * limit was reached, the parent process unharmed; and the hostile files that need the most memory
 * of each format parse within the default limits and within a heap of a small multiple of their size.
 */
import { describe, expect, it } from 'vitest'
import { StatementFileError } from '../../src/domain/statements/parse.js'
import { parseInWorker, parseLimits } from '../../src/domain/statements/worker.js'
import { HOSTILE } from '../import/statements/hostile.js'

const MiB = 1024 * 1024
const hostile = (name: string) => HOSTILE.find((h) => h.name === name)!
const target = (format: string) => ({ fileName: `hostile.${format}`, format: format as 'ofx', currency: 'EUR', exponent: 2 })
const encode = (text: string) => new TextEncoder().encode(text)

describe('parseLimits', () => {
  it('grows with the file; FINCTL_PARSE_HEAP_MB and FINCTL_PARSE_TIMEOUT_MS set them', () => {
    const small = parseLimits(10 * 1024, {})
    const large = parseLimits(20 * MiB, {})
    expect(large.heapMb - small.heapMb).toBeGreaterThanOrEqual(20 * 40)
    expect(large.timeoutMs).toBeGreaterThan(small.timeoutMs)
    expect(parseLimits(20 * MiB, { FINCTL_PARSE_HEAP_MB: '300', FINCTL_PARSE_TIMEOUT_MS: '5000' })).toEqual({
      heapMb: 300,
      timeoutMs: 5000,
    })
    // A value that is no whole positive number is ignored.
    expect(parseLimits(20 * MiB, { FINCTL_PARSE_HEAP_MB: '-1', FINCTL_PARSE_TIMEOUT_MS: '1.5s' })).toEqual(large)
  })
})

describe('what comes back from the worker', () => {
  it('every line and every unreadable line, several messages of each', async () => {
    let k = 0
    // Every other transaction's date is not a date: 2,500 lines and 2,500 named as unreadable.
    const text = hostile('ofx-sgml: many tiny records')
      .make(5_000)
      .replace(/<DTPOSTED>20240105/g, (d) => (k++ % 2 ? '<DTPOSTED>x' : d))
    const r = await parseInWorker(encode(text), target('ofx'), {})
    expect(r.parts[0].lines).toHaveLength(2_500)
    expect(r.parts[0].unreadable).toHaveLength(2_500)
    expect(r.parts[0].unreadable?.[2_499]).toEqual({ line: 5_009, reason: '<STMTTRN>: DTPOSTED "x" is not a date' })
  })

  it('every statement of a file of 5,000 accounts, in order, several to a message', async () => {
    const r = await parseInWorker(encode(hostile('qif: many accounts').make(5_000)), target('qif'), {})
    expect(r.parts).toHaveLength(5_000)
    expect(r.parts.map((p) => p.accountHint)).toEqual(Array.from({ length: 5_000 }, (_, i) => `acct ${i}`))
    expect(r.parts.every((p) => p.lines.length === 1)).toBe(true)
  })
})

describe('a parse that reaches a limit fails with the reason', () => {
  const file = encode(hostile('ofx-sgml: many tiny records').make(40_000)) // 3.5 MiB, 40,000 lines

  it('past its time: the worker is stopped', async () => {
    const err = await parseInWorker(file, target('ofx'), {}, { heapMb: 512, timeoutMs: 50 }).catch((e: Error) => e)
    expect(err).toBeInstanceOf(StatementFileError)
    expect((err as Error).message).toMatch(/took longer than the server allows \(0\.05 s, FINCTL_PARSE_TIMEOUT_MS\): nothing was imported/)
  })

  it('past its heap: the worker runs out of memory, this process does not', async () => {
    const err = await parseInWorker(file, target('ofx'), {}, { heapMb: 20, timeoutMs: 120_000 }).catch((e: Error) => e)
    expect(err).toBeInstanceOf(StatementFileError)
    expect((err as Error).message).toMatch(
      /needs more memory than the server allows \(20 MiB, FINCTL_PARSE_HEAP_MB\): nothing was imported/,
    )
    // Within its limits the same file parses, every line.
    const r = await parseInWorker(file, target('ofx'), {})
    expect(r.parts[0].lines).toHaveLength(40_000)
  })
})

describe('the most memory-hungry hostile file of each format, at 4x', () => {
  // Measured: these need the most heap per byte of their format (docs/parser-limits.md).
  const worst = [
    'ofx-sgml: deep distinct aggregates',
    'camt053: many distinct tags',
    'mt940: many tiny records',
    'qif: many accounts',
    'csv: one huge line of fields',
  ].map(hostile)

  it.each(worst)('$name: parses within a heap of 24 MiB + 40x its size', async (h) => {
    const bytes = encode(h.make(4 * h.n))
    const heapMb = 24 + Math.ceil((40 * bytes.length) / MiB)
    expect(parseLimits(bytes.length).heapMb).toBeGreaterThan(heapMb)
    const r = await parseInWorker(bytes, target(h.format), {}, { heapMb, timeoutMs: 120_000 })
    expect(r.parts.reduce((n, p) => n + p.lines.length, 0)).toBeGreaterThan(0)
  })
})

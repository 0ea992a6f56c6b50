/**
 * Outside text in the lines the core writes itself: `finctl serve`'s JSON log (serviceLogger) writes
 * C1 and bidi controls and U+2028/2029 as \u escapes, each line still parsing to the exact text; the
 * embedded CLI's internal-error line (reportInternalError's default) escapes controls as every other
 * message does.
 */
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { reportInternalError } from '../../src/api/errors.js'
import { serviceLogger } from '../../src/server.js'

/** Anything a terminal acts on, or a reader may take for a line end. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: what the test looks for
const RAW = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
const HOSTILE = 'path/\x1b]0;title\x07\x9b2J\u202eevil\u2066x\u2028y\u2029z\x85'

describe("finctl serve's JSON log", () => {
  it('writes controls, bidi overrides and line separators as \\u escapes; the line parses to the exact text', async () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean))
        done()
      },
    })
    const logger = serviceLogger('info', sink)
    logger.info({ path: HOSTILE, detail: { name: HOSTILE } }, 'request')
    logger.error({ err: { message: HOSTILE } }, HOSTILE)
    await new Promise((r) => setImmediate(r))
    expect(lines).toHaveLength(2)
    for (const line of lines) expect(line).not.toMatch(RAW)
    expect(lines[0]).toContain('\\u009b2J\\u202eevil\\u2066x\\u2028y\\u2029z\\u0085')
    const first = JSON.parse(lines[0])
    expect(first).toMatchObject({ level: 'info', msg: 'request', path: HOSTILE, detail: { name: HOSTILE } })
    expect(JSON.parse(lines[1])).toMatchObject({ level: 'error', msg: HOSTILE, err: { message: HOSTILE } })
  })
})

describe('the embedded internal-error line', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('shows the error words with controls as visible escapes', () => {
    const written: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
    reportInternalError(new Error('date "2026-11-05\x1b[2J\x1b]0;T\x07" \x9b1A\u202eevil'), 'req-1')
    vi.restoreAllMocks()
    expect(written).toHaveLength(1)
    expect(written[0]).toBe('internal error in request req-1: Error: date "2026-11-05\\x1b[2J\\x1b]0;T\\x07" \\x9b1AU+202Eevil\n')
  })
})

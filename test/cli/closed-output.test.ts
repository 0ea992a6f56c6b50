// src/cli/closed-output.ts: a reader that goes away ends the writing loops quietly; other errors still surface.
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { OutputClosed, expectReader, isClosed, watchOutput, writeDrained } from '../../src/cli/closed-output.js'

/** A stream whose writes fail with `code` once `failAfter` writes have gone through. */
function sink(failAfter: number, code = 'EPIPE'): Writable & { taken: string[] } {
  const taken: string[] = []
  const w = new Writable({
    highWaterMark: 4,
    write(chunk, _enc, cb) {
      if (taken.length >= failAfter) cb(Object.assign(new Error(`write ${code}`), { code }))
      else {
        taken.push(String(chunk))
        cb()
      }
    },
  }) as Writable & { taken: string[] }
  w.taken = taken
  return w
}

describe('closed output', () => {
  it('a loop of writes stops with OutputClosed once the reader is gone, and writes nothing more', async () => {
    const out = sink(2)
    watchOutput(out)
    const written: number[] = []
    await expect(
      (async () => {
        for (let page = 0; page < 10; page++) {
          await writeDrained(out, `page ${page}\n`)
          written.push(page)
          await expectReader(out)
        }
      })(),
    ).rejects.toBeInstanceOf(OutputClosed)
    expect(out.taken).toEqual(['page 0\n', 'page 1\n'])
    expect(written.length).toBeLessThanOrEqual(3)
    expect(isClosed(out)).toBe(true)
  })

  it('an open stream is not closed, and writes go through', async () => {
    const out = sink(100)
    watchOutput(out)
    await writeDrained(out, 'a')
    await expectReader(out)
    expect(isClosed(out)).toBe(false)
    expect(out.taken).toEqual(['a'])
  })

  it('another write error is not taken for a closed reader', async () => {
    const out = sink(0, 'EIO')
    watchOutput(out)
    const crashed = new Promise<Error>((resolve) => process.once('uncaughtException', resolve))
    out.write('x')
    expect(((await crashed) as NodeJS.ErrnoException).code).toBe('EIO')
  })
})

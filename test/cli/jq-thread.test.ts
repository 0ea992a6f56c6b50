/**
 * --jq on its thread (src/cli/jq-thread.ts): jq-wasm's glue is swapped for one that is
 * linear in the input and output (the same answers), the output is bounded, and a filter runs with
 * a time and a memory limit; a stopped filter takes its thread, and the next filter gets a new one.
 * How soon: test/timing/jq.test.ts.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JqStopped, loadJq, patchedJqSource, runJqBounded } from '../../src/cli/jq-thread.js'

const require = createRequire(import.meta.url)
const rows = (n: number) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: `tx-${i}`, amount: -i * 7, description: `Café ${i} «Zürich»` })))

describe('the jq thread', () => {
  // jq-wasm's own glue, the reference below, sets process.exitCode when its jq ends: put back for
  // the files after this one in the worker (vitest.config.ts, isolate: false).
  let exitCodeBefore: typeof process.exitCode
  beforeAll(() => {
    exitCodeBefore = process.exitCode
  })
  afterAll(() => {
    process.exitCode = exitCodeBefore
  })

  it("finds jq-wasm's glue where it expects it (else it would load jq-wasm as it is: slow, its output unbounded)", () => {
    const source = readFileSync(require.resolve('jq-wasm/dist/build/jq.js'), 'utf8')
    expect(patchedJqSource(source)).toBeTypeOf('string')
    expect(patchedJqSource(source.replace('function rawImpl(', 'function rawImpl2('))).toBeUndefined()
  })

  it('answers as jq-wasm does, in time linear in the input and output; its output bounded', async () => {
    let full = 0
    const jq = await loadJq(() => full++)
    const plain = require('jq-wasm') as { raw(input: string, filter: string, flags: string[]): Promise<string> }
    const input = rows(50)
    const text = (b: Uint8Array) => new TextDecoder().decode(b).trim()
    for (const filter of ['.', '.[] | .description', 'map(.amount) | add', '.[0]', 'empty', '"  spaced  "'])
      expect(text((await jq.raw(new TextEncoder().encode(input), filter, ['-r'], 2 ** 20)).out), filter).toBe(
        await plain.raw(input, filter, ['-r']),
      )
    const exitCode = process.exitCode
    expect(await jq.raw(new TextEncoder().encode(input), 'error("no")', ['-r'], 2 ** 20)).toEqual({
      out: new Uint8Array(0),
      err: 'jq: error (at /dev/stdin:0): no',
      full: false,
    })
    // jq's exit status (5) is not this process's.
    expect(process.exitCode).toBe(exitCode)
    // 16,000 rows in and out: minutes with jq-wasm's own glue.
    // (How long they take: test/timing/jq.test.ts.)
    const big = new TextEncoder().encode(rows(16_000))
    const { out } = await jq.raw(big, '.[] | .description', ['-r'], 2 ** 20)
    expect(text(out).split('\n')).toHaveLength(16_000)
    // Past the limit the output is dropped, and said once.
    const capped = await jq.raw(new TextEncoder().encode('null'), 'range(1e6)', ['-r'], 2 ** 20)
    expect([capped.out.length, capped.full, full]).toEqual([2 ** 20, true, 1])
    expect(text((await jq.raw(new TextEncoder().encode('[1]'), '.[0]', ['-r'], 2 ** 20)).out)).toBe('1')
  }, 120_000)

  it('runs a filter on its thread; one that loops ends at its time limit, and the next filter still runs', async () => {
    expect(await runJqBounded(rows(3), '.[] | .id', ['-r'], { timeoutMs: 10_000 })).toBe('tx-0\ntx-1\ntx-2')
    await expect(runJqBounded('null', 'error("no")', ['-r'], { timeoutMs: 10_000 })).rejects.toThrow('jq: error (at /dev/stdin:0): no')
    const loop = await runJqBounded('null', 'def f: f; f', ['-r'], { timeoutMs: 1000 }).catch((e: unknown) => e)
    expect(loop).toBeInstanceOf(JqStopped)
    expect((loop as JqStopped).reason).toBe('time')
    expect(await runJqBounded('[1,2]', 'add', ['-r'], { timeoutMs: 10_000 })).toBe('3')
  }, 120_000)

  it('a filter that prints without end is stopped at the output limit, before its time limit', async () => {
    const e = await runJqBounded('null', 'repeat("finctl")', ['-r'], { timeoutMs: 60_000, outputBytes: 2 ** 20 }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(JqStopped)
    expect((e as JqStopped).reason).toBe('output')
  }, 180_000)

  it('a filter that takes more memory than jq may have is stopped as out of memory', async () => {
    const e = await runJqBounded('null', '[range(1e9)]', ['-r'], { timeoutMs: 60_000 }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(JqStopped)
    expect((e as JqStopped).reason).toBe('memory')
    expect(await runJqBounded('{"a":1}', '.a', ['-r'], { timeoutMs: 10_000 })).toBe('1')
  }, 180_000)
})

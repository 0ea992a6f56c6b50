/**
 * How soon --jq answers and stops (src/cli/jq-thread.ts): 16,000 rows in seconds (minutes with
 * jq-wasm's own glue), a filter that never ends stopped soon after its time limit, one that prints
 * without end stopped at its output limit long before its time limit. What they answer:
 * test/cli/jq-thread.test.ts and test/commands/jq-limits.test.ts. The bounds are twice those the
 * tests held in the suite, for a machine other work keeps busy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JqStopped, loadJq, runJqBounded } from '../../src/cli/jq-thread.js'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

const rows = (n: number) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: `tx-${i}`, amount: -i * 7, description: `Café ${i} «Zürich»` })))

describe('the jq thread, timed', () => {
  it('16,000 rows in and out within 10 s', async () => {
    const jq = await loadJq(() => {})
    const big = new TextEncoder().encode(rows(16_000))
    const started = performance.now()
    const { out } = await jq.raw(big, '.[] | .description', ['-r'], 2 ** 20)
    const took = performance.now() - started
    expect(new TextDecoder().decode(out).trim().split('\n')).toHaveLength(16_000)
    expect(took).toBeLessThan(10_000)
  })

  it('a filter that never ends, with a limit of 1 s, is stopped within 10 s', async () => {
    const started = performance.now()
    const loop = await runJqBounded('null', 'def f: f; f', ['-r'], { timeoutMs: 1000 }).catch((e: unknown) => e)
    expect((loop as JqStopped).reason).toBe('time')
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  it('a filter that prints without end is stopped at 1 MiB within 20 s', async () => {
    const started = performance.now()
    const e = await runJqBounded('null', 'repeat("finctl")', ['-r'], { timeoutMs: 60_000, outputBytes: 2 ** 20 }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(JqStopped)
    expect((e as JqStopped).reason).toBe('output')
    expect(performance.now() - started).toBeLessThan(20_000)
  })
})

describe('--jq-timeout, timed', () => {
  let sb: InProcessSandbox
  beforeAll(async () => {
    sb = new InProcessSandbox('jq-timing')
    await sb.ok(['init', '--company', 'Jq Co', '--currency', 'USD', '--no-input'])
  })
  afterAll(() => sb?.cleanup())

  it('tx list --jq with a filter that never ends and --jq-timeout 1 exits within 12 s', async () => {
    const started = performance.now()
    const r = await sb.run(['tx', 'list', '--jq', 'def f: f; f', '--jq-timeout', '1'])
    expect(r.code).toBe(1)
    expect(performance.now() - started).toBeLessThan(12_000)
  })
})

/**
 * --jq runs bounded, in process: a filter that never ends stops at --jq-timeout, one
 * that takes too much memory stops at jq's limit, each exit 1 with what happened in the user's words
 * (never internal_error); --jq-timeout is checked like any flag; ordinary filters work as before.
 * Signals to a running filter: test/e2e/json-shape.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

describe('--jq limits, in process', () => {
  let sb: InProcessSandbox

  beforeAll(async () => {
    sb = new InProcessSandbox('jq-limits')
    await sb.ok(['init', '--company', 'Jq Co', '--currency', 'USD', '--no-input'])
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    for (const [amount, description] of [
      ['-12.34', 'Paper'],
      ['1250.00', 'Invoice 7'],
    ])
      await sb.ok(['tx', 'create', '--account', acct, '--date', '2026-10-02', '--amount', amount, '--description', description])
  })
  afterAll(() => sb?.cleanup())

  it('ordinary filters work as before, with or without --jq-timeout', async () => {
    expect((await sb.ok(['tx', 'list', '--jq', 'length'])).stdout).toBe('2\n')
    const r = await sb.ok(['tx', 'list', '--jq', '.[] | .description', '--jq-timeout', '30'])
    expect(r.stdout.split('\n').sort()).toEqual(['', 'Invoice 7', 'Paper'])
  })

  it('a filter that never ends stops at --jq-timeout: exit 1, saying how to wait longer', async () => {
    const r = await sb.run(['tx', 'list', '--jq', 'def f: f; f', '--jq-timeout', '1'])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(JSON.parse(r.stderr)).toEqual({
      code: 'filter_failed',
      message: '--jq: the filter ran longer than 1 s; give --jq-timeout 60 to wait longer',
    })
  }, 120_000)

  it('a filter that takes too much memory stops at the limit: exit 1, saying so', async () => {
    // A long timeout: on a loaded machine filling 256 MB can take longer than the default 10 s.
    const r = await sb.run(['tx', 'list', '--jq', '[range(1e9)]', '--jq-timeout', '120'])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(JSON.parse(r.stderr)).toEqual({ code: 'filter_failed', message: '--jq: the filter ran out of memory (limit 256 MB)' })
  }, 300_000)

  it("a filter that fails on the data: exit 1 with jq's message, not an internal error", async () => {
    const r = await sb.run(['tx', 'list', '--jq', 'error("no such thing")'])
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stderr)).toEqual({ code: 'filter_failed', message: '--jq: jq: error (at /dev/stdin:0): no such thing' })
  })

  it('--jq-timeout is a whole number of seconds, and goes with --jq (exit 2)', async () => {
    for (const [args, message] of [
      [['--jq-timeout', '5'], 'error: --jq-timeout goes with --jq\n'],
      [['--jq', '.', '--jq-timeout', '0'], 'error: --jq-timeout must be a whole number from 1 to 86400 (got "0")\n'],
      [['--jq', '.', '--jq-timeout', '2.5'], 'error: --jq-timeout must be a whole number from 1 to 86400 (got "2.5")\n'],
    ] as const) {
      const r = await sb.run(['tx', 'list', ...args])
      expect([r.code, r.stderr], args.join(' ')).toEqual([2, message])
    }
  })
})

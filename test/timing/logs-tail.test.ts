/**
 * `finctl logs tail` of the built CLI shows a request made from another process soon after it was
 * answered: within 3 s of its record's time on the embedded target (a second in the suite before).
 * What it shows, through serve and on PostgreSQL too: test/e2e/logs-tail.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox } from '../helpers/cli.js'
import { delay, record, Tail } from '../helpers/log-tail.js'

describe('finctl logs tail, timed', () => {
  const sb = new Sandbox('logs-timing')
  let t: Tail | undefined
  beforeAll(async () => {
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
  })
  afterAll(async () => {
    await t?.interrupt().catch(() => {})
    sb.cleanup()
  })

  it('shows a request made from another process within 3 s', async () => {
    t = new Tail(sb, ['--json'])
    await t.ready()
    await sb.ok(['company'])
    const seen = await t.line((l) => record({ line: l, at: 0 }).path === '/api-v1/company')
    expect(delay(seen)).toBeLessThan(3000)
  })
})

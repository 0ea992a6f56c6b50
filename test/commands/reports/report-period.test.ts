/**
 * In process: a report run without --from/--to covers the last 12 months up to today,
 * this month to date included, so the demo's transactions of this month and one entered today are
 * in the first report a user runs after `finctl init --demo`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('the default report period, in process', () => {
  const sb = new InProcessSandbox('report-period')
  const today = new Date().toISOString().slice(0, 10)
  let demo: Array<{ transaction_date: string; amount: number }> = []

  beforeAll(async () => {
    await sb.ok(['init', '--demo', '--no-input'])
    const account = (await sb.json<Array<{ id: string }>>(['accounts', 'list', '--json']))[0].id
    // Dated today: whatever day of the month the test runs, the old default (up to the end of last month) left it out.
    await sb.ok([
      'tx',
      'create',
      '--account',
      account,
      '--date',
      today,
      '--amount',
      '-7.25',
      '--description',
      'Entered today',
      '--category',
      'Meals',
    ])
    demo = await sb.json(['tx', 'list', '--all', '--json'])
  }, 120_000)
  afterAll(() => sb.cleanup())

  it('summary: from the 1st of the month 11 months ago to today, every demo transaction counted', async () => {
    const now = new Date()
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)).toISOString().slice(0, 10)
    const s = await sb.json<{ from: string; to: string; transaction_count: number; net: number }>(['reports', 'summary', '--json'])
    expect([s.from, s.to]).toEqual([first, today])
    expect(demo).toHaveLength(9)
    expect(s.transaction_count).toBe(9)
    // net in minor units: the sum of every transaction of the demo plus today's.
    const cents = demo.reduce((sum, t) => sum + Math.round(t.amount * 100), 0)
    expect(Math.round(s.net * 100)).toBe(cents)
  })

  it("cash-flow: 12 monthly periods, the last one this month up to today, holding today's transaction", async () => {
    const r = await sb.json<{ to: string; periods: Array<{ period_start: string; period_end: string; outflows: number }> }>([
      'reports',
      'cash-flow',
      '--json',
    ])
    expect(r.to).toBe(today)
    expect(r.periods).toHaveLength(12)
    const last = r.periods[11]
    expect([last.period_start, last.period_end]).toEqual([`${today.slice(0, 8)}01`, today])
    const thisMonth = demo.filter((t) => t.transaction_date >= last.period_start && t.amount < 0)
    expect(Math.round(last.outflows * 100)).toBe(-thisMonth.reduce((sum, t) => sum + Math.round(t.amount * 100), 0))
    expect(thisMonth.length).toBeGreaterThan(0)
  })

  it('the help says what the default covers', async () => {
    for (const cmd of ['cash-flow', 'summary'])
      expect((await sb.ok(['reports', cmd, '--help'])).stdout.replace(/\s+/g, ' ')).toMatch(
        /default: the last 12 months, this month to date included/,
      )
  })
})

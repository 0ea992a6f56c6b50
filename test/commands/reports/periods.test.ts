/**
 * In process: --from and --to take periods people say, echo the days chosen on stderr,
 * refuse others with exit 2 naming the flag, and a report over days without transactions says
 * where the company's transactions are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('periods people say, in process', () => {
  const sb = new InProcessSandbox('periods')
  let all: Array<{ transaction_date: string }> = []

  beforeAll(async () => {
    await sb.ok(['init', '--demo', '--no-input'])
    all = await sb.json(['tx', 'list', '--all', '--json'])
  }, 120_000)
  afterAll(() => sb.cleanup())

  it('tx list --from MONTH --to MONTH: that month, the days on stderr', async () => {
    const month = all[0].transaction_date.slice(0, 7)
    const r = await sb.ok(['tx', 'list', '--from', month, '--to', month, '--json'])
    const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10)
    expect(r.stderr).toBe(`period: ${month}-01 .. ${last}\n`)
    const rows = JSON.parse(r.stdout) as Array<{ transaction_date: string }>
    expect(rows.map((t) => t.transaction_date).sort()).toEqual(
      all
        .map((t) => t.transaction_date)
        .filter((d) => d.startsWith(month))
        .sort(),
    )
    expect(rows.length).toBeGreaterThan(0)
    // A whole date is not echoed.
    expect((await sb.ok(['tx', 'list', '--from', `${month}-01`, '--json'])).stderr).toBe('')
  })

  it('a report over a year without transactions names the days the data covers', async () => {
    const dates = all.map((t) => t.transaction_date).sort()
    for (const report of ['summary', 'cash-flow']) {
      const r = await sb.ok(['reports', report, '--from', '2011', '--to', '2011-Q4'])
      expect(r.stderr).toContain('period: 2011-01-01 .. 2011-12-31\n')
      expect(r.stderr).toContain(
        `note: no transactions from 2011-01-01 to 2011-12-31; the company's transactions are dated ${dates[0]} to ${dates.at(-1)}`,
      )
    }
    // A report with transactions says nothing of the kind.
    expect((await sb.ok(['reports', 'summary', '--from', '1y'])).stderr).not.toContain('no transactions')
  })

  it('a bad period: exit 2 naming the flag and listing the forms', async () => {
    for (const args of [
      ['reports', 'cash-flow', '--from', '2026-Q5'],
      ['tx', 'list', '--to', 'last-fortnight'],
      ['export', '--format', 'csv', '--to', 'soon'],
    ]) {
      const r = await sb.run(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toMatch(/^error: --(from|to) "[^"]+" is not a date or a period; the forms it takes:\n/)
      expect(r.stderr).toContain('2026-Q3')
      expect(r.stderr).toContain('last-month')
      expect(r.stdout).toBe('')
    }
  })
})

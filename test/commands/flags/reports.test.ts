/** `finctl reports` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerCashFlow } from '../../../commands/reports/cash-flow.js'
import { registerSummary } from '../../../commands/reports/summary.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('reports flags', () => {
  it('cash-flow: --interval defaults to month; the period is left to the run (the last 12 months)', async () => {
    expect((await parseFlags(registerCashFlow, ['reports', 'cash-flow'], 'reports')).opts).toEqual({ interval: 'month' })
  })

  it('cash-flow: --interval is one of day, week, month, quarter, refused otherwise by commander', async () => {
    expect((await parseFlags(registerCashFlow, ['reports', 'cash-flow', '--interval', 'week', '--chart'], 'reports')).opts).toEqual({
      interval: 'week',
      chart: true,
    })
    const err = await parseError(registerCashFlow, ['reports', 'cash-flow', '--interval', 'year'], 'reports')
    expect(err.code).toBe('commander.invalidArgument')
    expect(err.stderr).toContain('Allowed choices are day, week, month, quarter')
  })

  it('summary: no defaults at parse time; --top, --as-of and --account take values', async () => {
    expect((await parseFlags(registerSummary, ['reports', 'summary'], 'reports')).opts).toEqual({})
    const { opts } = await parseFlags(
      registerSummary,
      ['reports', 'summary', '--from', '2026-01-01', '--to', '2026-12-31', '--top', '20', '--as-of', '2026-11-05T09:00:00Z'],
      'reports',
    )
    expect(opts).toEqual({ from: '2026-01-01', to: '2026-12-31', top: '20', asOf: '2026-11-05T09:00:00Z' })
    expect((await parseError(registerSummary, ['reports', 'summary', '--interval', 'week'], 'reports')).code).toBe(
      'commander.unknownOption',
    )
  })
})

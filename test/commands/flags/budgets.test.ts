/** `finctl budgets`, `reports budget`, `recurring` and `forecast` flag parsing through each verb's runF: nothing runs. */
import { describe, expect, it } from 'vitest'
import { registerDelete } from '../../../commands/budgets/delete.js'
import { registerList } from '../../../commands/budgets/list.js'
import { registerSet } from '../../../commands/budgets/set.js'
import { registerCurrent, registerVersions } from '../../../commands/budgets/versions.js'
import { registerForecast } from '../../../commands/forecast.js'
import { registerAccept, registerDelete as registerItemDelete } from '../../../commands/recurring/accept.js'
import { registerAdd } from '../../../commands/recurring/add.js'
import { registerDetect } from '../../../commands/recurring/detect.js'
import { registerList as registerItems } from '../../../commands/recurring/list.js'
import { registerBudget } from '../../../commands/reports/budget.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('budgets, recurring and forecast flags', () => {
  it('budgets set: --category and --monthly required; the rest optional, --rollover a switch', async () => {
    const err = await parseError(registerSet, ['budgets', 'set', '--monthly', '10'], 'budgets')
    expect(err.code).toBe('commander.missingMandatoryOptionValue')
    expect(err.message).toContain("'--category <name>'")
    const { opts } = await parseFlags(
      registerSet,
      [
        'budgets',
        'set',
        '--category',
        'Rent',
        '--monthly',
        '2,500.00',
        '--currency',
        'eur',
        '--from',
        '2026-01',
        '--to',
        '2026-12',
        '--budget-version',
        'b',
        '--rollover',
      ],
      'budgets',
    )
    expect(opts).toEqual({
      category: 'Rent',
      monthly: '2,500.00',
      currency: 'eur',
      from: '2026-01',
      to: '2026-12',
      budgetVersion: 'b',
      rollover: true,
    })
  })

  it('budgets list, delete, versions, current', async () => {
    expect((await parseFlags(registerList, ['budgets', 'list'], 'budgets')).opts).toEqual({})
    expect((await parseFlags(registerList, ['budgets', 'list', '--category', 'Rent', '--from', '2026-01'], 'budgets')).opts).toEqual({
      category: 'Rent',
      from: '2026-01',
    })
    expect((await parseError(registerDelete, ['budgets', 'delete'], 'budgets')).code).toBe('commander.missingMandatoryOptionValue')
    expect((await parseFlags(registerVersions, ['budgets', 'versions'], 'budgets')).opts).toEqual({})
    expect((await parseError(registerCurrent, ['budgets', 'current'], 'budgets')).code).toBe('commander.missingArgument')
    expect((await parseFlags(registerCurrent, ['budgets', 'current', 'reforecast'], 'budgets')).args).toEqual(['reforecast'])
  })

  it('reports budget: --interval month, quarter or year (default month)', async () => {
    expect((await parseFlags(registerBudget, ['reports', 'budget'], 'reports')).opts).toEqual({ interval: 'month' })
    expect((await parseFlags(registerBudget, ['reports', 'budget', '--interval', 'year', '--chart'], 'reports')).opts).toEqual({
      interval: 'year',
      chart: true,
    })
    expect((await parseError(registerBudget, ['reports', 'budget', '--interval', 'week'], 'reports')).code).toBe(
      'commander.invalidArgument',
    )
  })

  it('recurring detect, list, accept, add, delete', async () => {
    expect((await parseFlags(registerDetect, ['recurring', 'detect', '--exact', '--date-tolerance', '2'], 'recurring')).opts).toEqual({
      exact: true,
      dateTolerance: '2',
    })
    expect((await parseFlags(registerItems, ['recurring', 'list', '--suggested'], 'recurring')).opts).toEqual({ suggested: true })
    expect((await parseError(registerAccept, ['recurring', 'accept'], 'recurring')).code).toBe('commander.missingArgument')
    expect((await parseError(registerItemDelete, ['recurring', 'delete'], 'recurring')).code).toBe('commander.missingArgument')
    const add = ['recurring', 'add', '--name', 'Rent', '--amount', '-1', '--start', '2026-01-01']
    expect((await parseError(registerAdd, add, 'recurring')).message).toContain('--interval')
    expect((await parseError(registerAdd, [...add, '--interval', 'daily'], 'recurring')).code).toBe('commander.invalidArgument')
    expect((await parseFlags(registerAdd, [...add, '--interval', 'last-working-day'], 'recurring')).opts).toMatchObject({
      interval: 'last-working-day',
    })
  })

  it('forecast: --days required; --fail-below takes a negative amount', async () => {
    expect((await parseError(registerForecast, ['forecast'])).code).toBe('commander.missingMandatoryOptionValue')
    expect((await parseFlags(registerForecast, ['forecast', '--days', '30', '--fail-below', '-500', '--chart', '--items'])).opts).toEqual({
      days: '30',
      failBelow: '-500',
      chart: true,
      items: true,
    })
  })
})

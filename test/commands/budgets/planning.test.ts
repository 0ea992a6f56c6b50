/**
 * In process: budgets set/list/versions/current/delete, reports budget (table, csv, --json, --chart
 * at 40 and 120 columns), recurring detect/accept/add/list/delete, forecast (its lowest day,
 * --items, --chart at 80 columns, a scenario file removing an item by its short id, --fail-below
 * exiting 12 or 0), usage errors
 * naming the flag, and seed steps of kind budget and recurring found again on a second run.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox, fastKey } from '../../helpers/in-process-cli.js'

const DAY = 86_400_000
const iso = (t: number) => new Date(t).toISOString().slice(0, 10)
const month = iso(Date.now()).slice(0, 7)

describe('budgets, recurring items and the forecast, in process', () => {
  const sb = new InProcessSandbox('planning')
  let account: string

  beforeAll(async () => {
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    await fastKey(sb)
    account = (
      await sb.json([
        'accounts',
        'create',
        '--name',
        'Operating',
        '--type',
        'checking',
        '--currency',
        'USD',
        '--opening-balance',
        '5000',
        '--json',
      ])
    ).id
    // Rent on the same day of each of the last six months, and a few meals this month.
    const day = Math.min(new Date(Date.now() - 2 * DAY).getUTCDate(), 28)
    for (let k = 0; k < 6; k++) {
      const d = new Date()
      const date = iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - k, day))
      await sb.ok([
        'tx',
        'create',
        '--account',
        account,
        '--date',
        date,
        '--amount',
        '-1200.00',
        '--description',
        `Rent ${date}`,
        '--merchant-name',
        'Landlord',
        '--category',
        'Rent',
      ])
    }
    await sb.ok([
      'tx',
      'create',
      '--account',
      account,
      '--date',
      iso(Date.now()),
      '--amount',
      '-40.00',
      '--description',
      'Lunch',
      '--category',
      'Meals',
    ])
  }, 240_000)
  afterAll(() => sb.cleanup())

  it('budgets set, list, versions, current and delete', async () => {
    const set = await sb.ok(['budgets', 'set', '--category', 'Meals', '--monthly', '310.00', '--from', month, '--to', month])
    expect(set.stdout).toContain(`Meals\t${month}\t310.00 USD\tno\toriginal`)
    expect(set.stderr).toContain('Meals: 310.00 USD a month')
    const list = await sb.json<Array<{ version: string; amount: number }>>(['budgets', 'list', '--json'])
    expect(list.map((b) => [b.version, b.amount])).toEqual([['original', 310]])
    await sb.ok(['budgets', 'set', '--category', 'Meals', '--monthly', '200', '--from', month, '--to', month, '--version', 'lean'])
    const versions = (await sb.ok(['budgets', 'versions'])).stdout
    expect(versions, versions).toMatch(/original\tyes\t1\t.*\nlean\t\t1\t/)
    await sb.ok(['budgets', 'current', 'lean'])
    expect((await sb.json<Array<{ version: string }>>(['budgets', 'list', '--json']))[0].version).toBe('lean')
    await sb.ok(['budgets', 'current', 'original'])
    expect((await sb.ok(['budgets', 'delete', '--category', 'Meals', '--version', 'lean'])).stderr).toContain(
      'deleted 1 budget month(s) of Meals',
    )
    // Usage errors name the flag.
    const bad = await sb.run(['budgets', 'set', '--category', 'Meals', '--monthly', '1.234'])
    expect(bad.code).toBe(6)
    expect(bad.stderr).toContain('--monthly')
    expect((await sb.run(['budgets', 'set', '--category', 'Meals'])).code).toBe(2)
  })

  it('reports budget: a table, csv, --json, and bullet bars at any width', async () => {
    const csv = await sb.ok(['reports', 'budget', '--from', month, '--to', month, '--output', 'csv'])
    expect(csv.stdout.split(/\r?\n/)[0]).toBe(
      'period,category,currency,budget,rollover,actual,variance,percent_used,budget_currency,estimate',
    )
    expect(csv.stdout).toContain(`${month},Meals,USD,310.00,0.00,40.00,270.00,12.9,USD,`)
    expect(csv.stdout).toContain(`${month},unbudgeted,USD,,,1200.00,`)
    const json = await sb.json(['reports', 'budget', '--from', month, '--to', month, '--json'])
    expect(json.periods[0].rows[0]).toMatchObject({ category: 'Meals', budget: 310, actual: 40, variance: 270, percent_used: 12.9 })
    for (const columns of [40, 120]) {
      const chart = await sb.ok(['reports', 'budget', '--from', month, '--to', month, '--chart'], { tty: { stdout: true }, columns })
      const lines = chart.stdout.trimEnd().split('\n')
      expect(lines[1]).toContain('│')
      expect(lines[1]).toContain('40.00 / 310.00')
      for (const l of lines.slice(1, -2)) expect([...stripVTControlCharacters(l)].length, l).toBeLessThanOrEqual(columns)
    }
    const table = await sb.ok(['reports', 'budget', '--from', month, '--to', month], { tty: { stdout: true }, columns: 100 })
    expect(table.stdout).toMatch(/Meals\s.*310\.00.*40\.00.*270\.00.*12\.9%/)
  })

  it('recurring detect, accept (twice), add, list and delete', async () => {
    const d = await sb.json(['recurring', 'detect', '--json'])
    expect(d.items.map((i: { name: string; interval: string }) => [i.name, i.interval])).toEqual([['Landlord', 'monthly']])
    const id = d.items[0].id
    const shown = await sb.ok(['recurring', 'detect', '--transactions'], { tty: { stdout: true }, columns: 160 })
    expect(shown.stdout).toContain('rests on:')
    const a = await sb.json(['recurring', 'accept', id.slice(-8), '--json'])
    expect(a.status).toBe('accepted')
    expect(await sb.json(['recurring', 'accept', id, '--json'])).toEqual(a)
    await sb.ok([
      'recurring',
      'add',
      '--name',
      'Insurance',
      '--amount',
      '-90.00',
      '--interval',
      'quarterly',
      '--start',
      iso(Date.now() + 20 * DAY),
      '--category',
      'Insurance',
    ])
    const list = await sb.json<Array<{ name: string }>>(['recurring', 'list', '--json'])
    expect(list.map((i) => i.name)).toEqual(['Insurance', 'Landlord'])
    // 0 is a tolerance too (the date exact, the amount equal), as the service takes it.
    const exact = await sb.json(
      ['recurring', 'add', '--name', 'Cleaning', '--amount', '-40.00', '--interval', 'weekly', '--start', iso(Date.now() + DAY)].concat([
        '--date-tolerance',
        '0',
        '--amount-tolerance',
        '0',
        '--json',
      ]),
    )
    expect(exact).toMatchObject({ date_tolerance: 0, amount_tolerance: 0 })
    await sb.ok(['recurring', 'delete', exact.id.slice(-8)])
    expect((await sb.run(['recurring', 'detect', '--date-tolerance', '0', '--json'])).code).toBe(0)
    const badInterval = await sb.run([
      'recurring',
      'add',
      '--name',
      'x',
      '--amount',
      '-1',
      '--interval',
      'fortnightly',
      '--start',
      '2026-01-01',
    ])
    expect(badInterval.code).toBe(2)
    expect(badInterval.stderr).toContain('--interval')
  })

  it('forecast: the lowest day, --items, --chart at 80 columns, a scenario, --fail-below exits 12 or 0', async () => {
    const f = await sb.ok(['forecast', '--days', '60', '--chart', '--items'], { tty: { stdout: true }, columns: 80 })
    expect(f.stdout).toMatch(/^Forecast \d{4}-\d{2}-\d{2} \.\. \d{4}-\d{2}-\d{2} \(60 days\), USD\n/)
    expect(f.stdout).toMatch(/lowest balance +[\d,.-]+ USD on \d{4}-\d{2}-\d{2}/)
    expect(f.stdout).toContain('Landlord [recurring]')
    expect(f.stdout).toContain('budget: Meals [budget]')
    for (const l of f.stdout.split('\n')) expect([...stripVTControlCharacters(l)].length, l).toBeLessThanOrEqual(80)
    const json = await sb.json(['forecast', '--days', '60', '--json'])
    const low = json.lowest.balance
    expect((await sb.run(['forecast', '--days', '60', '--fail-below', String(low)])).code).toBe(0)
    const below = await sb.run(['forecast', '--days', '60', '--fail-below', String(low + 0.01)])
    expect(below.code).toBe(12)
    expect(below.stderr).toContain(`is below ${(low + 0.01).toLocaleString('en-US', { minimumFractionDigits: 2 })} USD`)
    const scenario = join(sb.dir, 'hire.json')
    writeFileSync(scenario, JSON.stringify({ add: [{ name: 'hire', amount: '-6000', interval: 'monthly', start: iso(Date.now() + DAY) }] }))
    const hire = await sb.json(['forecast', '--days', '60', '--scenario', scenario, '--json'])
    expect(hire.lowest.balance).toBeLessThan(low)
    // An item removed by the short id its list shows; a name that is none gets the nearest.
    const landlord = (await sb.json<Array<{ id: string; name: string }>>(['recurring', 'list', '--json'])).find(
      (i) => i.name === 'Landlord',
    )
    writeFileSync(scenario, JSON.stringify({ remove: [landlord!.id.slice(-8)] }))
    const without = await sb.json(['forecast', '--days', '60', '--scenario', scenario, '--items', '--json'])
    const names = (r: { days: Array<{ items: Array<{ name: string }> }> }) => r.days.flatMap((d) => d.items.map((i) => i.name))
    expect(names(await sb.json(['forecast', '--days', '60', '--items', '--json']))).toContain('Landlord')
    expect(names(without)).not.toContain('Landlord')
    writeFileSync(scenario, JSON.stringify({ remove: ['Landlrod'] }))
    const typo = await sb.run(['forecast', '--days', '10', '--scenario', scenario])
    expect(typo.code).toBe(6)
    expect(typo.stderr).toContain('(did you mean "Landlord"?)')
    writeFileSync(scenario, '{ not json')
    expect((await sb.run(['forecast', '--days', '10', '--scenario', scenario])).code).toBe(6)
    expect((await sb.run(['forecast', '--days', '0'])).code).toBe(2)
    expect((await sb.run(['forecast'])).code).toBe(2)
  })

  it('seed steps: a budget and a recurring item, found again on the second run', async () => {
    const file = join(sb.dir, 'plan.json')
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        steps: [
          { budget: 'travel', category: 'Travel', monthly: '400.00', from: month, to: month },
          {
            recurring: 'payroll',
            amount: '-18000.00',
            interval: 'last_working_day',
            start: iso(Date.now() + 5 * DAY),
            category: 'Payroll',
          },
        ],
      }),
    )
    const dry = await sb.json(['seed', file, '--dry-run', '--json'])
    expect(dry.steps.map((s: { status: string }) => s.status)).toEqual(['would create', 'would create'])
    const first = await sb.json(['seed', file, '--json'])
    expect(first.steps.map((s: { status: string }) => s.status)).toEqual(['created', 'created'])
    const second = await sb.json(['seed', file, '--json'])
    expect(second.steps.map((s: { status: string }) => s.status)).toEqual(['exists', 'exists'])
    expect((await sb.json(['seed', file, '--dry-run', '--json'])).steps.map((s: { status: string }) => s.status)).toEqual([
      'exists',
      'exists',
    ])
    expect((await sb.json<Array<{ name: string }>>(['recurring', 'list', '--json'])).map((i) => i.name)).toContain('payroll')
  })
})

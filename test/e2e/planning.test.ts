/**
 * End-to-end through the built CLI: budgets, the budget report, a recurring item and the forecast
 * on the embedded target, then the same commands through `finctl serve` (a remote profile) give the
 * same figures; `forecast --fail-below` exits 12 as a process, and its chart fits 80 columns off a
 * terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, startServe, stopServeAndCleanup, type ServeProcess } from '../helpers/cli.js'

const month = new Date().toISOString().slice(0, 7)
const later = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10)

describe('budgets, recurring items and the forecast, embedded and remote', () => {
  let sb: Sandbox
  let server: ServeProcess | undefined

  beforeAll(async () => {
    sb = new Sandbox('planning')
    await sb.ok(['init', '--demo', '--no-input'])
  }, 120_000)
  afterAll(() => stopServeAndCleanup(server, sb))

  const figures = async (extra: string[] = []) => ({
    report: await sb.json([...extra, 'reports', 'budget', '--from', month, '--to', month, '--json']),
    forecast: await sb.json([...extra, 'forecast', '--days', '30', '--items', '--json']),
    items: (await sb.json<Array<{ name: string }>>([...extra, 'recurring', 'list', '--json'])).map((i) => i.name),
  })

  it('embedded: set, report, add, forecast; exit 12 below the floor; a chart of 80 columns', async () => {
    await sb.ok(['budgets', 'set', '--category', 'Meals', '--monthly', '500.00', '--from', month, '--to', month])
    await sb.ok(['recurring', 'add', '--name', 'Payroll', '--amount', '-18000.00', '--interval', 'monthly', '--start', later])
    const { report, forecast } = await figures()
    expect(report.periods[0].rows[0]).toMatchObject({ category: 'Meals', budget: 500 })
    expect(forecast.days.flatMap((d: { items: Array<{ name: string }> }) => d.items.map((i) => i.name))).toContain('Payroll')
    const below = await sb.run(['forecast', '--days', '30', '--fail-below', '100000000'])
    expect(below.code).toBe(12)
    expect(below.stderr).toContain('is below 100,000,000.00 USD')
    expect((await sb.run(['forecast', '--days', '30', '--fail-below', String(forecast.lowest.balance)])).code).toBe(0)
    const chart = await sb.ok(['forecast', '--days', '60', '--chart'])
    expect(chart.stdout).toContain('lowest balance')
    for (const l of chart.stdout.split('\n')) expect([...l].length, l).toBeLessThanOrEqual(80)
  })

  it('remote: the same figures through finctl serve', async () => {
    const local = await figures()
    server = await startServe(sb, sb.database)
    const key = sb.profiles().profiles.local.api_key!
    await sb.ok(['profile', 'add', 'remote', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
    const remote = await figures(['--profile', 'remote'])
    expect(remote.report).toEqual(local.report)
    expect(remote.items).toEqual(local.items)
    // The same days and balances (the first day's date is the server's today, as the CLI's).
    expect(remote.forecast.lowest).toEqual(local.forecast.lowest)
    expect(remote.forecast.days).toEqual(local.forecast.days)
    await sb.ok(['--profile', 'remote', 'budgets', 'set', '--category', 'Travel', '--monthly', '200', '--from', month, '--to', month])
    expect((await sb.json<Array<{ category: string }>>(['budgets', 'list', '--json'])).map((b) => b.category)).toContain('Travel')
    expect((await sb.run(['--profile', 'remote', 'forecast', '--days', '10', '--fail-below', '100000000'])).code).toBe(12)
  })
})

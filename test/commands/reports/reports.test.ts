/**
 * `finctl reports cash-flow | summary` in process (test/helpers/in-process-cli.ts), NO_COLOR: off a
 * terminal the tab-separated table, --chart, --output csv and json; on a terminal (a TTY stdout of a
 * given width) the table, the columns left out when narrow, the chart's width; usage errors (exit 2,
 * the flag named), an account not found (exit 5), a range refused (exit 6). Every expectation is
 * computed by hand from the fixture below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import { callApi } from '../../helpers/in-process-api.js'
import { InProcessSandbox, fastKey } from '../../helpers/in-process-cli.js'

const RANGE = ['--from', '2026-01-01', '--to', '2026-03-31']

describe('reports cash-flow and summary, in process', () => {
  let sb: InProcessSandbox
  let account: string

  beforeAll(async () => {
    sb = new InProcessSandbox('reports')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-reports\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
    await fastKey(sb)
    const a = await callApi(sb, 'POST', '/api-v1/bank-accounts', {
      name: 'Operating',
      account_type: 'checking',
      currency_code: 'USD',
      opening_balance: '1000.00',
    })
    expect(a.status, JSON.stringify(a.body)).toBe(201)
    account = a.body.data.id
    const rows: Array<[string, string, string | undefined, string | undefined]> = [
      ['2026-01-05', '1500.00', 'operations', 'Client'],
      ['2026-01-20', '-200.50', 'operations', 'Landlord'],
      ['2026-02-10', '-1234.56', 'investing', 'TechStore'],
      ['2026-02-11', '5000.00', 'financing', 'Bank'],
      ['2026-03-01', '-300.00', 'transfer', undefined],
      ['2026-03-15', '-99.99', undefined, 'Cafe'],
      ['2026-04-02', '-10.00', 'operations', 'Cafe'],
    ]
    const batch = await callApi(sb, 'POST', '/api-v1/transactions/batch', {
      transactions: rows.map(([date, amount, cf, merchant], i) => ({
        bank_account_id: account,
        transaction_date: date,
        description: `row ${i}`,
        amount,
        ...(cf ? { cash_flow_category: cf } : {}),
        ...(merchant ? { merchant_name: merchant } : {}),
      })),
    })
    expect(batch.status, JSON.stringify(batch.body)).toBe(201)
    expect(batch.body.data.errors).toEqual([])
  })
  afterAll(() => sb?.cleanup())

  const run = (args: string[]) => sb.ok(args, { env: { NO_COLOR: '1' } })

  it('cash-flow off a terminal: tab-separated periods with a total row, plain decimals', async () => {
    const r = await run(['reports', 'cash-flow', ...RANGE])
    const [head, ...rows] = tsv(r.stdout)
    const col = (name: string) => head.indexOf(name)
    expect(head.slice(0, 5)).toEqual(['PERIOD', 'PERIOD_START', 'PERIOD_END', 'CURRENCY', 'OPENING_BALANCE'])
    const pick = (names: string[]) => rows.map((row) => names.map((n) => row[col(n)]))
    expect(pick(['PERIOD', 'INFLOWS', 'OUTFLOWS', 'NET', 'TRANSFERS_NET', 'UNCATEGORIZED_NET', 'CLOSING_BALANCE'])).toEqual([
      ['2026-01', '1500.00', '200.50', '1299.50', '0.00', '0.00', '2299.50'],
      ['2026-02', '5000.00', '1234.56', '3765.44', '0.00', '0.00', '6064.94'],
      ['2026-03', '0.00', '99.99', '-99.99', '-300.00', '-99.99', '5664.95'],
      ['total', '6500.00', '1535.05', '4964.95', '-300.00', '-99.99', '5664.95'],
    ])
    expect(rows[3][col('OPENING_BALANCE')]).toBe('1000.00')
    expect(r.stdout).not.toContain('\x1b[')
  })

  it('cash-flow --output json is exactly the data; csv carries the same numbers', async () => {
    const data = await sb.json(['reports', 'cash-flow', ...RANGE, '--account', account, '--output', 'json'])
    expect(data).toMatchObject({
      currency: 'USD',
      from: '2026-01-01',
      to: '2026-03-31',
      interval: 'month',
      bank_account_id: account,
      opening_balance: 1000,
      closing_balance: 5664.95,
      totals: { inflows: 6500, outflows: 1535.05, net: 4964.95 },
      transfers: { inflows: 0, outflows: 300, net: -300 },
    })
    expect(data.periods.map((p: { label: string }) => p.label)).toEqual(['2026-01', '2026-02', '2026-03'])
    const csv = (await run(['reports', 'cash-flow', ...RANGE, '--output', 'csv'])).stdout
      .trimEnd()
      .split('\r\n')
      .map((l) => l.split(','))
    const h = csv[0]
    expect(h).toContain('operations_net')
    const total = csv[csv.length - 1]
    expect([
      total[h.indexOf('period')],
      total[h.indexOf('operations_net')],
      total[h.indexOf('investing_net')],
      total[h.indexOf('financing_net')],
      total[h.indexOf('net')],
    ]).toEqual(['total', '1299.50', '-1234.56', '5000.00', '4964.95'])
  })

  it('cash-flow --chart: labelled in/out bars scaled to 80 columns off a terminal, readable without colour', async () => {
    const r = await run(['reports', 'cash-flow', ...RANGE, '--chart'])
    const lines = r.stdout.trimEnd().split('\n')
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80)
    const bar = (l: string, ch: string) => (l.match(new RegExp(ch, 'g')) ?? []).length
    const feb = lines.findIndex((l) => l.startsWith('2026-02 in'))
    expect(feb).toBeGreaterThan(0)
    // February's inflow (5,000.00) is the largest value: the full bar; its outflow 1,234.56 about a quarter of it
    const full = bar(lines[feb], '█')
    expect(lines[feb]).toMatch(/5,000\.00$/)
    expect(lines[feb + 1]).toMatch(/^\s+out ░+\s+1,234\.56$/)
    expect(Math.abs(bar(lines[feb + 1], '░') - Math.round((full * 123456) / 500000))).toBeLessThanOrEqual(1)
    expect(lines.find((l) => l.startsWith('2026-03 in'))).toMatch(/^2026-03 in\s+0\.00$/)
    expect(r.stdout).toContain('total in 6,500.00, out 1,535.05, net 4,964.95 USD')
    expect(r.stdout).not.toContain('\x1b[')
  })

  it('summary: tab-separated sections off a terminal; json exactly the data', async () => {
    const r = await run(['reports', 'summary', ...RANGE])
    const [head, ...rows] = tsv(r.stdout)
    expect(head).toEqual(['SECTION', 'NAME', 'CURRENCY', 'AMOUNT', 'COUNT'])
    const get = (section: string, name: string) => rows.find((x) => x[0] === section && x[1] === name)
    expect(get('total', 'income')?.[3]).toBe('6500.00')
    expect(get('total', 'expenses')?.[3]).toBe('1535.05')
    expect(get('count', 'transactions')?.[4]).toBe('6')
    expect(get('merchant', 'Bank')?.slice(3)).toEqual(['5000.00', '1'])
    expect(get('account balance', 'Operating (USD)')?.[3]).toBe('5664.95')
    const s = await sb.json(['reports', 'summary', ...RANGE, '--top', '2', '--json'])
    expect(s).toMatchObject({
      income: 6500,
      expenses: 1535.05,
      net: 4964.95,
      transaction_count: 6,
      pending_count: 6,
      transfers: { count: 1, net: -300 },
    })
    expect(s.top_merchants).toEqual([
      { merchant_name: 'Bank', amount: 5000, count: 1 },
      { merchant_name: 'Client', amount: 1500, count: 1 },
    ])
  })

  it('bad input: a usage error for an unknown interval and for from > to (exit 2, both flags named)', async () => {
    expect((await sb.run(['reports', 'cash-flow', '--interval', 'year'])).code).toBe(2)
    const r = await sb.run(['reports', 'cash-flow', '--from', '2026-05-01', '--to', '2026-04-01'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /^error: --from 2026-05-01 --to 2026-04-01: the period would end on 2026-04-01, before it starts on 2026-05-01$/m,
    )
  })

  it('--account by name in any case is that account; an unknown one exits 5 naming --account', async () => {
    for (const report of ['cash-flow', 'summary']) {
      const r = await sb.json<{ bank_account_id: string; currency: string }>([
        'reports',
        report,
        ...RANGE,
        '--account',
        'OPERATING',
        '--json',
      ])
      expect(r, report).toMatchObject({ bank_account_id: account, currency: 'USD' })
      const unknown = await sb.run(['reports', report, '--account', 'Savings'])
      expect(unknown.code, report).toBe(5)
      expect(unknown.stderr).toBe(
        'error: --account: no bank account is named "Savings" (see finctl accounts list; an id needs 6+ hex digits)\n',
      )
      expect(unknown.stdout).toBe('')
    }
  })

  it('cash-flow --interval quarter --output ndjson: the report on one line', async () => {
    const r = await run(['reports', 'cash-flow', ...RANGE, '--interval', 'quarter', '--output', 'ndjson'])
    expect(r.stdout.endsWith('\n')).toBe(true)
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1)
    const data = JSON.parse(r.stdout)
    expect(data).toMatchObject({ interval: 'quarter', totals: { inflows: 6500, outflows: 1535.05, net: 4964.95 } })
    expect(data.periods.map((p: { label: string }) => p.label)).toEqual(['2026-Q1'])
  })

  it('usage errors name the flag: --interval and --top (exit 2); an --as-of that is no time (exit 6)', async () => {
    const interval = await sb.run(['reports', 'cash-flow', '--interval', 'year'])
    expect(interval.code).toBe(2)
    expect(interval.stderr).toContain('--interval year: not one of day, week, month, quarter')
    const top = await sb.run(['reports', 'summary', '--top', 'ten'])
    expect(top.code).toBe(2)
    expect(top.stderr).toBe('error: --top must be a whole number\n')
    for (const report of ['cash-flow', 'summary']) {
      const asOf = await sb.run(['reports', report, '--as-of', 'yesterday'])
      expect(asOf.code, report).toBe(6)
      expect(asOf.stderr).toMatch(/^error: --as-of: /)
      expect(asOf.stdout).toBe('')
    }
  })

  describe('on a terminal (NO_COLOR)', () => {
    async function onTerminal(args: string[], columns: number): Promise<string> {
      const r = await sb.run(args, {
        env: { NO_COLOR: '1' },
        tty: { stdout: true },
        columns,
        now: () => new Date('2026-04-15T12:00:00Z'),
      })
      expect(r.code, r.stderr).toBe(0)
      return r.stdout
    }

    it('a table: periods as rows, categories as columns, grouped amounts right-aligned, a total row', async () => {
      // Wide enough for all ten columns (narrower, columns are left out: the next test, and test/e2e/table-widths.test.ts).
      const out = await onTerminal(['reports', 'cash-flow'], 160)
      // the default range: the last 12 months up to 2026-04-15, April to date included (its -10.00 of operations)
      expect(out).toContain('Cash flow 2025-05-01 .. 2026-04-15 by month; opening balance 1,000.00 USD')
      const lines = out.split('\n')
      expect(lines.find((l) => l.includes('PERIOD'))).toMatch(
        /PERIOD .*OPERATIONS USD .*INVESTING USD .*FINANCING USD .*UNCATEGORIZED USD .*IN USD .*OUT USD .*NET USD .*TRANSFERS USD .*CLOSING USD/,
      )
      const feb = lines.find((l) => l.includes(' 2026-02 '))!
      expect(
        feb
          .split('│')
          .map((c) => c.trim())
          .filter(Boolean),
      ).toEqual(['2026-02', '0.00', '-1,234.56', '5,000.00', '0.00', '5,000.00', '1,234.56', '3,765.44', '0.00', '6,064.94'])
      expect(feb).toMatch(/ {2,}-1,234\.56 │/)
      const total = lines.find((l) => l.includes(' total '))!
      expect(
        total
          .split('│')
          .map((c) => c.trim())
          .filter(Boolean),
      ).toEqual(['total', '1,289.50', '-1,234.56', '5,000.00', '-99.99', '6,500.00', '1,545.05', '4,954.95', '-300.00', '5,654.95'])
      expect(lines.filter((l) => / 20\d\d-\d\d /.test(l))).toHaveLength(12)
      expect(out).not.toContain('\x1b[')
    })

    it('a terminal too narrow for every column leaves out transfers, categories, in and out before it wraps a row', async () => {
      const out = await onTerminal(['reports', 'cash-flow'], 80)
      const head = out.split('\n').find((l) => l.includes('PERIOD'))!
      expect(head).toMatch(/PERIOD .*NET USD .*CLOSING USD/)
      expect(head).not.toContain('TRANSFERS')
      for (const l of out.trimEnd().split('\n')) if (l.startsWith('│') || l.startsWith('┌')) expect(l.length).toBeLessThanOrEqual(80)
    })

    it('the summary: one row per figure, each section named once, grouped amounts', async () => {
      const out = await onTerminal(['reports', 'summary', ...RANGE], 120)
      expect(out).toContain('Summary 2026-01-01 .. 2026-03-31, USD')
      const cells = out
        .split('\n')
        .filter((l) => l.startsWith('│'))
        .map((l) =>
          l
            .split('│')
            .map((c) => c.trim())
            .slice(1, -1),
        )
      expect(cells[0]).toEqual(['SECTION', 'NAME', 'AMOUNT USD', 'COUNT'])
      expect(cells.slice(1, 4)).toEqual([
        ['total', 'income', '6,500.00', ''],
        ['', 'expenses', '1,535.05', ''],
        ['', 'net', '4,964.95', '5'],
      ])
      expect(cells.filter((c) => c[0] === 'merchant')).toHaveLength(1)
      expect(cells.find((c) => c[1] === 'TechStore')).toEqual(['', 'TechStore', '-1,234.56', '1'])
    })

    it('the chart fits the terminal width', async () => {
      for (const width of [60, 140]) {
        const out = await onTerminal(['reports', 'cash-flow', ...RANGE, '--chart'], width)
        const lines = out
          .trimEnd()
          .split('\n')
          .filter((l) => / (in|out) /.test(l) && !l.startsWith('total') && !l.startsWith('█'))
        expect(Math.max(...lines.map((l) => l.length))).toBe(width - 1)
      }
    })
  })
})

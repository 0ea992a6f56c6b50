/**
 * `finctl export --format datev|sie4|saft-no`, `export map` and `export check` in process: a chart
 * of accounts stored once and used, every unmapped category refused at once (exit 6), a text DATEV
 * cannot hold named (exit 6 with --strict; by a close's exports and the pack too), the encodings,
 * and `check` on finctl's files and on broken ones. Golden files: test/jobs/export-charts-golden.test.ts; the built CLI, remote, the XSD
 * and the round trips: test/e2e/export-charts.test.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
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

  it('map show prints the stored map as YAML (and --json with its SHA-256); suggest writes a starting chart; clear removes it', async () => {
    const shown = await sb.ok(['export', 'map', 'show'])
    expect(shown.stdout).toContain('chart: skr03')
    expect(shown.stdout).toContain('adviser: 1001')
    const j = await sb.json<{ sha256: string; map: { chart: string } }>(['export', 'map', 'show', '--json'])
    expect(j.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(j.map.chart).toBe('skr03')
    await sb.ok(['export', 'map', 'suggest', '--chart', 'skr04', '-o', sb.path('skr04.yaml')])
    const suggested = readFileSync(sb.path('skr04.yaml'), 'utf8')
    expect(suggested).toContain('"Girokonto": { number: "1800", name: "Bank Girokonto" }')
    expect(suggested).toContain('revenue: { number: "4200", name: "Erlöse" }')
    const again = await sb.run(['export', 'map', 'suggest', '--chart', 'skr04', '-o', sb.path('skr04.yaml')])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('already exists')
    await sb.ok(['export', 'map', 'clear'])
    expect((await sb.ok(['export', 'map', 'show'])).stderr).toContain('no accounts map is stored')
    await sb.ok(['export', 'map', 'set', sb.path('map.yaml')])
  })

  it('a text longer than its field: named with its line (a warning); --strict fails the export, exit 6, no file', async () => {
    await sb.ok([
      'tx',
      'create',
      '--account',
      'Girokonto',
      '--date',
      '2026-10-25',
      '--amount',
      '-1.00',
      '--description',
      `Lang ${'x'.repeat(70)}`,
      '--category',
      'Office',
      '--accounting-category',
      'operating_expenses',
    ])
    const warned = await sb.run(['export', '--format', 'datev', ...PERIOD, '-o', sb.path('EXTF_warn.csv')])
    expect(warned.code, warned.stderr).toBe(0)
    expect(warned.stderr).toMatch(
      /warning: line 7 \(transaction [0-9a-f-]{36}\): Buchungstext is 75 characters, DATEV takes 60: cut to "Lang x{55}"/,
    )
    const strict = await sb.run(['export', '--format', 'datev', ...PERIOD, '--strict', '-o', sb.path('EXTF_strict.csv')])
    expect(strict.code).toBe(6)
    expect(strict.stderr).toContain('--strict: 1 text the format cannot hold as it is (named above)')
    expect(existsSync(sb.path('EXTF_strict.csv'))).toBe(false)
  })

  it('refusals: a code page to a terminal, --strict or --checksum where they do not apply, a period across fiscal years', async () => {
    for (const format of ['datev', 'sie4']) {
      const r = await sb.run(['export', '--format', format, ...PERIOD], { tty: { stdout: true } })
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('not for a terminal')
    }
    expect((await sb.run(['export', '--format', 'csv', '--strict', ...PERIOD])).stderr).toContain(
      '--strict is for datev, sie4 and saft-no, not csv',
    )
    expect((await sb.run(['export', '--format', 'datev', '--checksum', ...PERIOD])).code).toBe(2)
    const across = await sb.run(['export', '--format', 'sie4', '--from', '2026-06-01', '--to', '2027-01-31', '-o', sb.path('x.se')])
    expect(across.code).toBe(2)
    expect(across.stderr).toContain('a SIE 4 file holds one fiscal year')
  })

  it('check: --json gives the report; a file of no known format is exit 6; a DATEV header off its rules is named', async () => {
    const j = await sb.json<{ format: string; problem_count: number; rows: number }>(['export', 'check', sb.path('EXTF_oct.csv'), '--json'])
    expect(j).toMatchObject({ format: 'datev', problem_count: 0, rows: 4 })
    writeFileSync(sb.path('notes.txt'), 'hello\n')
    const none = await sb.run(['export', 'check', sb.path('notes.txt')])
    expect(none.code).toBe(6)
    expect(none.stderr).toContain('none of the formats export check reads')
    const bad = readFileSync(sb.path('EXTF_oct.csv'), 'latin1').replace(';1001;7;', ';999;7;').replace(/\r\n$/, '\n')
    writeFileSync(sb.path('EXTF_bad.csv'), Buffer.from(bad, 'latin1'))
    const r = await sb.run(['export', 'check', sb.path('EXTF_bad.csv')])
    expect(r.code).toBe(6)
    expect(r.stdout).toContain(':1: field 11 (Beraternummer) is "999", not 1001-9999999')
    expect(r.stdout).toMatch(/:6: the line ends without CR LF/)
    expect(r.stderr).toContain('2 problems')
  })

  it('--as-of writes the export as it stood: the same journal after a row changed', async () => {
    const file = (name: string) => sb.path(name)
    await sb.ok(['export', '--format', 'hledger', ...PERIOD, '-o', file('then.journal')])
    const moment = new Date().toISOString()
    await new Promise((r) => setTimeout(r, 20))
    const id = (await sb.json<Array<{ id: string; description: string }>>(['tx', 'list', ...PERIOD, '--json'])).find(
      (t) => t.description === 'Lizenz',
    )!.id
    await sb.ok(['tx', 'update', id, '--amount', '-59.00'])
    await sb.ok(['export', '--format', 'hledger', ...PERIOD, '-o', file('now.journal')])
    await sb.ok(['export', '--format', 'hledger', ...PERIOD, '--as-of', moment, '-o', file('asof.journal')])
    expect(readFileSync(file('now.journal'), 'utf8')).not.toBe(readFileSync(file('then.journal'), 'utf8'))
    expect(readFileSync(file('asof.journal'), 'utf8')).toBe(readFileSync(file('then.journal'), 'utf8'))
  })

  it("a close's exports and the auditor's pack name a text they cut, with the file it is in", async () => {
    await sb.ok(['export', 'map', 'set', sb.path('map.yaml')])
    const cut = /Buchungstext is 75 characters, DATEV takes 60: cut to "Lang x{55}"/
    const closed = await sb.run(['close', '2026-10', '--force', '--reason', 'test', '--export', 'datev', '--output-dir', sb.path('close')])
    expect(closed.code, closed.stderr).toBe(0)
    expect(closed.stderr).toMatch(new RegExp(`warning: EXTF_books-2026-10\\.csv: line \\d+ \\(transaction [0-9a-f-]{36}\\): ${cut.source}`))
    const pack = await sb.run(['close', 'pack', '2026-10', '-o', sb.path('pack.zip'), '--formats', 'datev'])
    expect(pack.code, pack.stderr).toBe(0)
    expect(pack.stderr).toMatch(
      new RegExp(`warning: journal/EXTF_books-2026-10\\.csv: line \\d+ \\(transaction [0-9a-f-]{36}\\): ${cut.source}`),
    )
  })
})

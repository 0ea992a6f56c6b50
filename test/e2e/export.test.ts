/**
 * End-to-end: `finctl export` through the built CLI, embedded and remote. The journals are read by
 * hledger, ledger and bean-check (CI installs them) and hledger's balances equal `reports summary`;
 * the workbook is read back by a second reader (read-excel-file) and every cell compared with the
 * CSV export; --output never overwrites and leaves nothing behind on a failure.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import readXlsxFile from 'read-excel-file/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, startServe, stopServeAndCleanup, type ServeProcess } from '../helpers/cli.js'

// Without the tools their checks are skipped; under CI=true (which installs them) they fail instead.
const has = (cmd: string) => process.env.CI === 'true' || spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0
const PERIOD = ['--from', '2020-01-01', '--to', '2030-12-31']

describe('finctl export', () => {
  const sb = new Sandbox('export')
  let server: ServeProcess | undefined
  const out = (name: string) => join(sb.dir, name)

  beforeAll(async () => {
    await sb.ok(['init', '--demo', '--no-input'])
    const eur = await sb.json<{ id: string }>([
      'accounts',
      'create',
      '--name',
      'Réserve €',
      '--type',
      'savings',
      '--currency',
      'EUR',
      '--json',
    ])
    for (const [date, amount, rate, description, category] of [
      ['2026-11-02', '-12.34', '1.0823', 'Café "Zürich"; lunch | team', 'Meals'],
      ['2026-11-03', '-0.25', '0.42', '=SUM(A1:A9) (tie)', 'Meals'],
      ['2026-11-04', '2500.00', '1.1', 'Refund\nof deposit', 'Deposits'],
    ])
      await sb.ok([
        'tx',
        'create',
        '--account',
        eur.id,
        '--date',
        date,
        '--amount',
        amount,
        '--exchange-rate',
        rate,
        '--description',
        description,
        '--category',
        category,
        '--tags',
        'q review,trip',
      ])
  }, 240_000)
  afterAll(() => stopServeAndCleanup(server, sb))

  it.skipIf(!has('hledger'))('journals the tools accept, whose balances are the summary', async () => {
    for (const format of ['hledger', 'ledger', 'beancount']) {
      const r = await sb.run(['export', '--format', format, ...PERIOD, '--output', out(`books.${format}`)])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toMatch(new RegExp(`exported 11 transactions of 2020-01-01 to 2030-12-31 as ${format} to `))
    }
    expect(spawnSync('hledger', ['-f', out('books.hledger'), 'check', '--strict'], { encoding: 'utf8' }).stderr).toBe('')
    if (has('ledger')) expect(spawnSync('ledger', ['-f', out('books.ledger'), '--pedantic', 'bal'], { encoding: 'utf8' }).stderr).toBe('')
    if (has('bean-check'))
      expect(spawnSync('bean-check', [out('books.beancount')], { encoding: 'utf8' })).toMatchObject({ status: 0, stderr: '' })
    const summary = await sb.json<{ by_category: Array<{ category: string | null; amount: number }> }>([
      'reports',
      'summary',
      ...PERIOD,
      '--json',
    ])
    const bal = spawnSync('hledger', ['-f', out('books.hledger'), 'bal', '-B', '--flat', '--no-total', '-O', 'csv', 'Meals'], {
      encoding: 'utf8',
    })
    // Meals with an accounting category sit under it, the new ones without one under Expenses.
    const meals = summary.by_category.find((c) => c.category === 'Meals')!.amount
    const lines = bal.stdout.trim().split('\n').slice(1)
    expect(lines.map((l) => l.split('"')[1])).toEqual(['Expenses:Meals', 'Expenses:Operating-Expenses:Meals'])
    const cents = lines.reduce((sum, l) => sum + Math.round(Number(/"(-?[\d.]+) USD"$/.exec(l)![1]) * 100), 0)
    expect(cents).toBe(Math.round(-meals * 100))
  })

  it('a workbook with real dates and numbers, every cell as in the CSV export', async () => {
    await sb.ok(['export', '--format', 'csv', ...PERIOD, '-o', out('tx.csv')])
    await sb.ok(['export', '--format', 'xlsx', ...PERIOD, '--output', out('tx.xlsx')])
    const csv = parse(readFileSync(out('tx.csv'), 'utf8'), { bom: true }) as string[][]
    const sheets = await readXlsxFile(readFileSync(out('tx.xlsx')))
    expect(sheets.map((s) => s.sheet)).toEqual(['Transactions', 'Summary', 'Cash flow'])
    const rows = sheets[0].data
    expect(rows.length).toBe(csv.length)
    expect(rows[0]).toEqual(csv[0])
    const head = csv[0]
    for (let i = 1; i < csv.length; i++)
      for (let j = 0; j < head.length; j++) {
        const want = csv[i][j]
        const got = rows[i][j]
        const where = `${head[j]} of row ${i}`
        if (/date$/.test(head[j]))
          expect(want === '' ? got : (got as unknown as Date).toISOString().slice(0, 10), where).toBe(want === '' ? null : want)
        else if (/amount$|rate$|score$/.test(head[j])) expect(got, where).toBe(want === '' ? null : Number(want))
        else if (head[j] === 'reconciled') expect(got, where).toBe(want === 'true')
        // The CSV guards a formula with a leading '; the workbook holds the text as it is.
        else expect(got, where).toBe(want === '' ? null : want.replace(/^'(?=[=+\-@\t\r])/, ''))
      }
    const summary = await sb.json<{ income: number; expenses: number; transaction_count: number }>([
      'reports',
      'summary',
      ...PERIOD,
      '--json',
    ])
    const s = new Map(sheets[1].data.map((r) => [r[0], r[1]]))
    expect([s.get('income'), s.get('expenses'), s.get('transaction_count')]).toEqual([
      summary.income,
      summary.expenses,
      summary.transaction_count,
    ])
    const flow = await sb.json<{ closing_balance: number; periods: unknown[] }>(['reports', 'cash-flow', ...PERIOD, '--json'])
    const cash = sheets[2].data
    expect(cash.length).toBe(flow.periods.length + 2)
    expect(cash.at(-1)?.at(-1)).toBe(flow.closing_balance)
    expect(cash[1][1]).toBeInstanceOf(Date)
  })

  it('overwrites a file only with --overwrite, and leaves nothing behind when it fails', async () => {
    writeFileSync(out('kept.csv'), 'mine')
    const r = await sb.run(['export', '--format', 'csv', '--output', out('kept.csv')])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`error: --output: ${out('kept.csv')} already exists: give a new path, or --overwrite to replace it`)
    expect(readFileSync(out('kept.csv'), 'utf8')).toBe('mine')
    const replaced = await sb.run(['export', '--format', 'csv', '--output', out('kept.csv'), '--overwrite'])
    expect(replaced.code, replaced.stderr).toBe(0)
    expect(readFileSync(out('kept.csv'), 'utf8')).not.toBe('mine')
    const before = readdirSync(sb.dir).sort()
    const missing = await sb.run([
      'export',
      '--format',
      'hledger',
      '--account',
      '00000000-0000-4000-8000-000000000000',
      '-o',
      out('none.journal'),
    ])
    expect(missing.code).toBe(5)
    expect(readdirSync(sb.dir).sort()).toEqual(before)
    expect((await sb.run(['export', '--format', 'csv', '-o', join(sb.dir, 'no', 'such', 'x.csv')])).code).toBe(2)
    expect((await sb.run(['export', '--format', 'ods'])).code).toBe(2)
    const badMap = out('map.json')
    writeFileSync(badMap, JSON.stringify({ categories: { Meals: 'expenses:meals' } }))
    const m = await sb.run(['export', '--format', 'beancount', '--accounts-map', badMap])
    expect(m.code).toBe(2)
    expect(m.stderr).toContain('--accounts-map: categories.Meals: "expenses:meals" must start with one of Assets')
  })

  it('remote: the same export through finctl serve', async () => {
    server = await startServe(sb, sb.database)
    const key = sb.profiles().profiles.local.api_key!
    sb.remember(key)
    const r = await sb.run(['--base-url', server.url, 'export', '--format', 'csv', ...PERIOD], { env: { FINCTL_API_KEY: key } })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe(readFileSync(out('tx.csv'), 'utf8'))
    expect(existsSync(out('tx.csv'))).toBe(true)
  })
})

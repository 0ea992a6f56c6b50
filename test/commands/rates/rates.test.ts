/**
 * `finctl rates import | list | set | delete` in process (test/helpers/in-process-cli.ts), for a
 * company in EUR: each verb's table and --json, its usage errors (exit 2, the flag named), a rate
 * not found (exit 5), the base currency refused (exit 6). How imported transactions convert with
 * the rates: test/e2e/rates.test.ts.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

interface Rate {
  date: string
  currency: string
  rate: string
  source: string
}

describe('rates, in process', () => {
  let sb: InProcessSandbox
  let ecb: string
  let plain: string

  beforeAll(async () => {
    sb = new InProcessSandbox('rates')
    await sb.ok(['init', '--company', 'Rates Co', '--currency', 'EUR', '--no-input'])
    ecb = sb.path('eurofxref-hist.csv')
    writeFileSync(ecb, 'Date,USD,GBP,\n2026-03-03,1.0800,0.84000,\n2026-03-02,1.0750,N/A,\n')
    plain = sb.path('rates.csv')
    writeFileSync(plain, 'date,currency,rate\n2026-03-04,CHF,1.0642\n')
  })
  afterAll(() => sb?.cleanup())

  it('list: none yet (a note on a terminal)', async () => {
    expect(await sb.json(['rates', 'list', '--json'])).toEqual([])
    expect((await sb.ok(['rates', 'list'], { tty: { stderr: true } })).stderr).toContain(
      'no rates: import some with `finctl rates import FILE`',
    )
  })

  it('import: an ECB file converted to the EUR base; a table of the counts, or --json', async () => {
    const r = await sb.ok(['rates', 'import', ecb])
    expect(r.stdout).toContain('imported\t3')
    expect(r.stdout).toContain('currencies\tGBP USD')
    expect(r.stderr).toContain('imported 3 rates, replaced 0, for 2 currencies from 2026-03-02 to 2026-03-03')
    const again = await sb.json(['rates', 'import', ecb, '--format', 'ecb', '--json'])
    expect(again).toMatchObject({ imported: 0, replaced: 3, skipped: 1, currencies: ['GBP', 'USD'], from: '2026-03-02', to: '2026-03-03' })
    expect(await sb.json(['rates', 'import', plain, '--json'])).toMatchObject({ imported: 1, replaced: 0, currencies: ['CHF'] })
  })

  it('import: usage errors name the flag or the file (exit 2)', async () => {
    const format = await sb.run(['rates', 'import', ecb, '--format', 'xml'])
    expect(format.code).toBe(2)
    expect(format.stderr).toContain('--format xml: not one of ecb, plain')
    const missing = await sb.run(['rates', 'import', sb.path('nope.csv')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('nope.csv')
    const none = await sb.run(['rates', 'import'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("missing required argument 'file'")
  })

  it('list: by date then currency, filtered by --currency (any case) and the period; csv and paging', async () => {
    const usd = await sb.json<Rate[]>(['rates', 'list', '--currency', 'usd', '--json'])
    expect(usd.map((r) => r.date)).toEqual(['2026-03-02', '2026-03-03'])
    expect(Math.abs(Number(usd[1].rate) - 1 / 1.08)).toBeLessThan(1e-12)
    const day = await sb.json<Rate[]>(['rates', 'list', '--from', '2026-03-03', '--to', '2026-03-03', '--json'])
    expect(day.map((r) => r.currency)).toEqual(['GBP', 'USD'])
    const csv = await sb.ok(['rates', 'list', '--output', 'csv'])
    expect(csv.stdout.split('\r\n')[0]).toBe('date,currency,rate,source')
    const page = await sb.ok(['rates', 'list', '--limit', '2'])
    expect(page.stdout.trim().split('\n')).toHaveLength(3)
    expect(page.stderr).toContain('showing 2 of 4: add --all for every row')
    expect(await sb.json<Rate[]>(['rates', 'list', '--limit', '1', '--all', '--json'])).toHaveLength(4)
    const bad = await sb.run(['rates', 'list', '--limit', 'many'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--limit')
  })

  it('set: a rate set or replaced, its record printed; the base currency refused naming --currency (exit 6)', async () => {
    const set = await sb.json<Rate>(['rates', 'set', '--date', '2024-12-31', '--currency', 'chf', '--rate', '1.0642', '--json'])
    expect(set).toMatchObject({ date: '2024-12-31', currency: 'CHF', rate: '1.0642', source: 'manual' })
    const table = await sb.ok(['rates', 'set', '--date', '2024-12-31', '--currency', 'CHF', '--rate', '1.07', '--source', 'bank'])
    expect(table.stdout).toContain('source\tbank')
    expect(table.stderr).toContain('CHF on 2024-12-31: 1.07')
    const base = await sb.run(['rates', 'set', '--date', '2024-12-31', '--currency', 'EUR', '--rate', '1'])
    expect(base.code).toBe(6)
    expect(base.stderr).toMatch(/--currency is the company's base currency EUR/)
    const noRate = await sb.run(['rates', 'set', '--date', '2024-12-31', '--currency', 'CHF'])
    expect(noRate.code).toBe(2)
    expect(noRate.stderr).toContain("required option '--rate <decimal>' not specified")
  })

  it('delete: asks, or --yes; without a terminal and without --yes a usage error; a rate not there is exit 5', async () => {
    const unasked = await sb.run(['rates', 'delete', '--date', '2024-12-31', '--currency', 'CHF'])
    expect(unasked.code).toBe(2)
    expect(unasked.stderr).toContain('--yes')
    const gone = await sb.json(['rates', 'delete', '--date', '2024-12-31', '--currency', 'chf', '--yes', '--json'])
    expect(gone).toMatchObject({ date: '2024-12-31', currency: 'CHF' })
    const again = await sb.run(['rates', 'delete', '--date', '2024-12-31', '--currency', 'CHF', '--yes'])
    expect(again.code).toBe(5)
    expect(again.stderr).toMatch(/^error: /)
  })
})

/**
 * `finctl company` and `finctl categories [list]` in process (test/helpers/in-process-cli.ts): the
 * record and the list, as tables, CSV and --json; the bare group runs its list; usage errors (exit 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('company and categories, in process', () => {
  let sb: InProcessSandbox
  let acct: string

  beforeAll(async () => {
    sb = new InProcessSandbox('company')
    await sb.ok(['init', '--company', 'Acme Ltd', '--currency', 'CHF', '--no-input'])
    acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
  })
  afterAll(() => sb?.cleanup())

  it('company: a record, --json with the same name and currency', async () => {
    const c = await sb.json<{ id: string; name: string; base_currency: string }>(['company', '--json'])
    expect(c).toMatchObject({ name: 'Acme Ltd', base_currency: 'CHF' })
    const table = tsv((await sb.ok(['company'])).stdout)
    expect(table[0]).toEqual(['FIELD', 'VALUE'])
    expect(table).toContainEqual(['name', 'Acme Ltd'])
    expect(table).toContainEqual(['id', c.id])
  })

  it('categories: none in use yet (a note naming the accounting categories on a terminal)', async () => {
    const r = await sb.ok(['categories'], { tty: { stderr: true } })
    expect(r.stdout).toBe('CATEGORY\tACCOUNTING CATEGORY\tCASH FLOW\tTRANSACTIONS\n')
    expect(r.stderr).toMatch(/no categories in use yet; accounting categories: .*operating_expenses/)
  })

  it('categories list: each category in use with its count; the bare group the same; --json and csv', async () => {
    for (const [description, category] of [
      ['Paper', 'Office'],
      ['Pens', 'Office'],
      ['Train', 'Travel'],
    ])
      await sb.ok([
        'tx',
        'create',
        '--account',
        acct,
        '--date',
        '2026-10-01',
        '--amount',
        '-1.00',
        '--description',
        description,
        '--category',
        category,
      ])
    const rows = tsv((await sb.ok(['categories', 'list'])).stdout)
    expect(rows.slice(1).map((r) => [r[0], r[3]])).toEqual([
      ['Office', '2'],
      ['Travel', '1'],
    ])
    expect((await sb.ok(['categories'])).stdout).toBe((await sb.ok(['categories', 'list'])).stdout)
    const j = await sb.json<{ categories: Array<{ name: string; transaction_count: number }>; accounting_categories: string[] }>([
      'categories',
      '--json',
    ])
    expect(j.categories.map((c) => [c.name, c.transaction_count])).toEqual([
      ['Office', 2],
      ['Travel', 1],
    ])
    expect(j.accounting_categories.length).toBeGreaterThan(0)
    const csv = await sb.ok(['categories', 'list', '--output', 'csv'])
    expect(csv.stdout.split('\r\n')[0]).toBe('category,accounting category,cash flow,transactions')
  })

  it('usage errors exit 2: an unknown flag, an unknown output format, a profile that does not exist', async () => {
    const cases: Array<[string[], string]> = [
      [['company', '--bogus'], "unknown option '--bogus'"],
      [['categories', 'list', '--output', 'xml'], '--output xml: not one of table, json, ndjson, csv'],
      [['company', '--profile', 'nope'], 'profile "nope" (--profile) does not exist'],
    ]
    for (const [args, message] of cases) {
      const r = await sb.run(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toContain(message)
    }
  })
})

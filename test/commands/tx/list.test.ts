/**
 * `finctl tx list` in process (test/helpers/in-process-cli.ts; moved from test/e2e/tx.test.ts),
 * without a terminal, over the data set of fixture.ts: one page or --all, each filter, --sort and
 * --limit, json, ndjson, csv and the table, the service's refusal (exit 6), usage errors (exit 2).
 * A terminal's table and progress: test/e2e/tty.test.ts; a reader that goes away: closed-pipe.
 */
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import type { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { type AccountKey, type Fixture, type Tx, UUID, byAmount, byDateDesc, dec, txWorld } from './fixture.js'

describe('tx list, in process', () => {
  let sb: InProcessSandbox
  const accounts = {} as Record<AccountKey | 'scratch', string>
  let fx: Fixture[]
  const only = (pred: (f: Fixture) => boolean) => fx.filter(pred)

  beforeAll(async () => {
    const world = await txWorld('tx-list', { rows: true })
    sb = world.sb
    Object.assign(accounts, world.accounts)
    fx = world.fx
  })
  afterAll(() => sb?.cleanup())

  it('by default prints one page of 50, newest first, and says on stderr that more exist', async () => {
    const expected = [...fx]
      .sort(byDateDesc)
      .slice(0, 50)
      .map((f) => f.id)
    const [json, table] = await Promise.all([sb.run(['tx', 'list', '--json']), sb.run(['tx', 'list'])])
    expect(json.code, json.stderr).toBe(0)
    expect((JSON.parse(json.stdout) as Tx[]).map((t) => t.id)).toEqual(expected)
    expect(table.code, table.stderr).toBe(0)
    const [header, ...rows] = tsv(table.stdout)
    expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'ACCOUNT', 'CATEGORY', 'STATUS'])
    expect(rows.map((r) => r[0])).toEqual(expected)
    expect(table.stderr).toContain('showing the first 50: add --all')
  })

  it("names each row's account in a table and CSV, one page or --all (the names ride with the page)", async () => {
    const names = new Map((await sb.json<Array<{ id: string; name: string }>>(['accounts', 'list', '--json'])).map((x) => [x.id, x.name]))
    const json = await sb.json<Tx[]>(['tx', 'list', '--json', '--limit', '30'])
    const wanted = json.map((t) => names.get(t.bank_account_id))
    expect(new Set(wanted).size).toBeGreaterThan(1)
    expect(
      tsv((await sb.ok(['tx', 'list', '--limit', '30'])).stdout)
        .slice(1)
        .map((r) => r[4]),
    ).toEqual(wanted)
    expect(
      tsv((await sb.ok(['tx', 'list', '--all', '--limit', '30'])).stdout)
        .slice(1, 31)
        .map((r) => r[4]),
    ).toEqual(wanted)
    const csv = parse((await sb.ok(['tx', 'list', '--limit', '30', '--output', 'csv'])).stdout, { columns: true }) as Array<
      Record<string, string>
    >
    expect(csv.map((r) => r.account)).toEqual(wanted)
  })

  it('says nothing more when the page holds every row', async () => {
    const r = await sb.ok(['tx', 'list', '--account', accounts.side])
    const rows = tsv(r.stdout).slice(1)
    expect(rows).toHaveLength(26)
    expect(r.stderr).not.toContain('showing')
  })

  it('off a terminal, the table is tab-separated with exact cells and no total row', async () => {
    const r = await sb.ok(['tx', 'list', '--account', accounts.bulk])
    const [header, ...rows] = tsv(r.stdout)
    expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'ACCOUNT', 'CATEGORY', 'STATUS'])
    const bulk = only((f) => f.account === 'bulk').sort(byDateDesc)
    const names = new Map((await sb.json<Array<{ id: string; name: string }>>(['accounts', 'list', '--json'])).map((a) => [a.id, a.name]))
    const bulkName = names.get(accounts.bulk)
    expect(bulkName).toBeTruthy()
    expect(rows).toEqual(bulk.map((f) => [f.id, f.date, f.description, `${dec(f.minor)} USD`, bulkName, f.category, 'pending']))
    expect(r.stdout).not.toContain('total')
    expect(r.stdout).not.toContain('-819.00') // the sum of the 12 amounts
  })

  it('each filter selects exactly the matching rows', async () => {
    const amounts = [...fx].sort(byAmount)
    const lo = amounts[40].minor
    const hi = amounts[80].minor
    const cases: Array<[string[], (f: Fixture) => boolean]> = [
      [['--account', accounts.side], (f) => f.account === 'side'],
      [['--from', '2026-02-01', '--to', '2026-02-28'], (f) => f.date >= '2026-02-01' && f.date <= '2026-02-28'],
      [['--to', '2026-01-01'], (f) => f.date <= '2026-01-01'],
      [['--status', 'posted'], (f) => f.status === 'posted'],
      [['--category', 'Meals'], (f) => f.category === 'Meals'],
      [['--reconciled'], (f) => f.reconciled],
      [['--unreconciled'], (f) => !f.reconciled],
      [['--min-amount', dec(lo), '--max-amount', dec(hi)], (f) => f.minor >= lo && f.minor <= hi],
      [['--min-amount', '500'], (f) => f.minor >= 50_000],
      [['--max-amount', '-999.5'], (f) => f.minor <= -99_950],
      [['--tag', 'q1'], (f) => f.tags.includes('q1')],
      [['--search', 'Acme'], (f) => f.description.includes('Acme') || f.merchant === 'Acme Corp'],
      [['--search', 'Coffee beans'], (f) => f.description.startsWith('Coffee beans')],
      [
        ['--account', accounts.main, '--category', 'Software', '--status', 'posted', '--from', '2026-02-01'],
        (f) => f.account === 'main' && f.category === 'Software' && f.status === 'posted' && f.date >= '2026-02-01',
      ],
    ]
    const results = await Promise.all(cases.map(([flags]) => sb.run(['tx', 'list', ...flags, '--limit', '1000', '--json'])))
    results.forEach((r, n) => {
      const [flags, pred] = cases[n]
      expect(r.code, `${flags.join(' ')}: ${r.stderr}`).toBe(0)
      const got = JSON.parse(r.stdout) as Tx[]
      const want = only(pred)
      expect(want.length, `fixture for ${flags.join(' ')} selects something`).toBeGreaterThan(0)
      expect(want.length, `fixture for ${flags.join(' ')} leaves something out`).toBeLessThan(fx.length)
      expect(
        got.map((t) => t.id),
        flags.join(' '),
      ).toEqual([...want].sort(byDateDesc).map((f) => f.id))
    })
    // The inclusive bounds: exactly the 41 amounts from the 41st to the 81st smallest.
    const bounded = results[cases.findIndex(([flags]) => flags[0] === '--min-amount' && flags.length === 4)]
    expect(JSON.parse(bounded.stdout)).toHaveLength(41)
  })

  it('--sort amount and -amount order by amount; --limit cuts the page', async () => {
    const [asc, desc, five, seven] = await Promise.all([
      sb.json<Tx[]>(['tx', 'list', '--sort', 'amount', '--limit', '1000', '--json']),
      sb.json<Tx[]>(['tx', 'list', '--sort', '-amount', '--limit', '1000', '--json']),
      sb.json<Tx[]>(['tx', 'list', '--sort', 'amount', '--limit', '5', '--json']),
      sb.json<Tx[]>(['tx', 'list', '--limit', '7', '--json']),
    ])
    const ascending = [...fx].sort(byAmount)
    expect(asc.map((t) => t.id)).toEqual(ascending.map((f) => f.id))
    expect(asc[0].amount).toBe(-1000)
    expect(desc.map((t) => t.id)).toEqual([...fx].sort((a, b) => -byAmount(a, b)).map((f) => f.id))
    expect(five.map((t) => t.amount)).toEqual(ascending.slice(0, 5).map((f) => f.minor / 100))
    expect(seven.map((t) => t.id)).toEqual(
      [...fx]
        .sort(byDateDesc)
        .slice(0, 7)
        .map((f) => f.id),
    )
  })

  it('--all --json is one JSON array of every row, across pages too', async () => {
    const expected = [...fx].sort(byDateDesc).map((f) => f.id)
    const [all, paged] = await Promise.all([
      sb.run(['tx', 'list', '--all', '--json']),
      sb.run(['tx', 'list', '--all', '--limit', '40', '--json']),
    ])
    for (const r of [all, paged]) {
      expect(r.code, r.stderr).toBe(0)
      const rows = JSON.parse(r.stdout) as Tx[]
      expect(rows.map((t) => t.id)).toEqual(expected)
    }
    expect(all.stderr).not.toContain('showing')
  })

  it('--all --output ndjson is one JSON object per line; --all --output csv has one header line', async () => {
    const [nd, csv] = await Promise.all([
      sb.ok(['tx', 'list', '--all', '--limit', '40', '--output', 'ndjson']),
      sb.ok(['tx', 'list', '--all', '--limit', '40', '--sort', 'amount', '--output', 'csv']),
    ])
    const lines = nd.stdout.split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(fx.length)
    expect(lines.map((l) => (JSON.parse(l) as Tx).id)).toEqual([...fx].sort(byDateDesc).map((f) => f.id))

    const rows = csv.stdout.split('\r\n')
    expect(rows.pop()).toBe('')
    // For a spreadsheet: the amount a plain number, its currency a column of its own.
    expect(rows[0]).toBe('id,date,description,amount,currency,account,account_id,category,status')
    expect(rows.filter((l) => l.startsWith('id,'))).toHaveLength(1)
    expect(rows).toHaveLength(fx.length + 1)
    const ascending = [...fx].sort(byAmount)
    expect(rows.slice(1).map((l) => l.slice(0, 36))).toEqual(ascending.map((f) => f.id))
    const first = ascending[0]
    const names = new Map((await sb.json<Array<{ id: string; name: string }>>(['accounts', 'list', '--json'])).map((a) => [a.id, a.name]))
    const account = accounts[first.account as AccountKey]
    expect(rows[1]).toBe(
      [
        first.id,
        first.date,
        first.description,
        dec(first.minor),
        'USD',
        names.get(account),
        account,
        first.category ?? '',
        first.status,
      ].join(','),
    )
    // csv and json agree on every amount
    const json = await sb.json<Tx[]>(['tx', 'list', '--all', '--limit', '40', '--sort', 'amount', '--json'])
    expect(rows.slice(1).map((l) => Number(l.split(',').at(-6)))).toEqual(json.map((t) => t.amount))
  })

  it('--all as a table off a terminal: one header line, every row, no total row', async () => {
    const r = await sb.ok(['tx', 'list', '--all', '--limit', '100'])
    const [header, ...rows] = tsv(r.stdout)
    expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'ACCOUNT', 'CATEGORY', 'STATUS'])
    expect(rows).toHaveLength(fx.length)
    expect(rows.every((row) => UUID.test(row[0]) && row.length === 7)).toBe(true)
    expect(r.stdout).not.toContain('total')
  })

  it('--all with a filter the service refuses exits 6 and writes nothing to stdout (no lone "[" or header)', async () => {
    const results = await Promise.all(
      ['json', 'csv', 'table'].map((format) => sb.run(['tx', 'list', '--all', '--category', 'x'.repeat(300), '--output', format])),
    )
    for (const r of results) {
      expect(r.code, r.stderr).toBe(6)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain('--category must be at most 100 characters')
    }
  })

  it('bad --limit, or --reconciled with --unreconciled, is a usage error (exit 2) that prints no data', async () => {
    const cases = [
      ['--limit', '0'],
      ['--limit', 'abc'],
      ['--limit', '1001'],
      ['--limit', '-5'],
      ['--reconciled', '--unreconciled'],
    ]
    const results = await Promise.all(cases.map((flags) => sb.run(['tx', 'list', ...flags, '--json'])))
    results.forEach((r, n) => {
      expect(r.code, `${cases[n].join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stdout).toBe('')
    })
    expect(results[0].stderr).toContain('--limit must be a whole number from 1 to 1000')
    expect(results[4].stderr).toContain('--reconciled or --unreconciled, not both')
  })
})

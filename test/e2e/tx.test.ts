/**
 * End-to-end: `finctl tx list | get | update | delete | bulk-update` of the built CLI, in its own
 * FINCTL_CONFIG_DIR, without a terminal. The data set (142 transactions with known dates, amounts,
 * categories, tags, statuses) is created in one request through the batch endpoint of a `finctl
 * serve` on the same database; every expectation below is computed from that fixture.
 */
import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, callApi, fastKey, tsv, withServe } from '../helpers/cli.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

type AccountKey = 'main' | 'side' | 'bulk'

interface Fixture {
  account: AccountKey
  date: string
  description: string
  /** Amount in cents. */
  minor: number
  category: string | null
  merchant: string | null
  tags: string[]
  status: 'pending' | 'posted'
  reconciled: boolean
  id: string
}

interface Tx {
  id: string
  transaction_date: string
  description: string
  amount: number
  currency_code: string
  category: string | null
  accounting_category: string | null
  merchant_name: string | null
  status: string
  is_reconciled: boolean
  tags: string[]
  bank_account_id: string
}

/** Cents as the decimal text the CLI takes and prints: -1050 -> "-10.50". */
function dec(minor: number): string {
  const abs = Math.abs(minor)
  return `${minor < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** 130 rows over three months in two accounts, then 12 rows in May in a third for bulk-update. */
function fixtures(): Array<Omit<Fixture, 'id'>> {
  const out: Array<Omit<Fixture, 'id'>> = []
  for (let i = 0; i < 130; i++) {
    out.push({
      account: i % 5 === 4 ? 'side' : 'main',
      date: addDays('2026-01-01', (i * 37) % 90),
      description: i === 5 ? 'Acme refund #5' : i % 10 === 3 ? `Coffee beans #${i}` : `Item #${i}`,
      minor: ((i * 7919) % 200_000) - 100_000,
      category: ['Software', 'Meals', 'Travel', null][i % 4],
      merchant: i % 7 === 0 ? 'Acme Corp' : i % 7 === 1 ? 'Globex' : null,
      tags: i % 6 === 0 ? ['q1', 'review'] : i % 6 === 1 ? ['review'] : [],
      status: i % 3 === 0 ? 'posted' : 'pending',
      reconciled: i % 8 === 0,
    })
  }
  for (let j = 0; j < 12; j++) {
    out.push({
      account: 'bulk',
      date: `2026-05-${String(j + 1).padStart(2, '0')}`,
      description: `Bulk #${j}`,
      minor: -(j + 1) * 1050,
      category: j % 2 === 0 ? 'Fuel' : 'Parking',
      merchant: null,
      tags: j < 4 ? ['keep'] : [],
      status: 'pending',
      reconciled: false,
    })
  }
  return out
}

/** The service's default order: transaction_date descending, then id descending. */
const byDateDesc = (a: Fixture, b: Fixture) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id < b.id ? 1 : -1)
const byAmount = (a: Fixture, b: Fixture) => a.minor - b.minor || (a.id < b.id ? -1 : 1)
const sortedIds = (rows: Array<{ id: string }>) => rows.map((r) => r.id).sort()

describe('tx list, get, update, delete, bulk-update', () => {
  let sb: Sandbox
  let keyId: string
  const accounts = {} as Record<AccountKey | 'scratch', string>
  let fx: Fixture[]
  const only = (pred: (f: Fixture) => boolean) => fx.filter(pred)

  beforeAll(async () => {
    sb = new Sandbox('tx-commands')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-tx-commands\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
    const fast = await fastKey(sb)
    keyId = fast.id

    fx = await withServe(sb, async (server) => {
      const names = { main: 'Operating', side: 'Savings', bulk: 'Bulk', scratch: 'Scratch' } as const
      for (const [k, name] of Object.entries(names)) {
        const r = await callApi(server, fast.key, 'POST', '/api-v1/bank-accounts', { name, account_type: 'checking', currency_code: 'USD' })
        expect(r.status, JSON.stringify(r.body)).toBe(201)
        accounts[k as AccountKey] = r.body.data.id
      }
      const rows = fixtures()
      const batch = await callApi(server, fast.key, 'POST', '/api-v1/transactions/batch', {
        transactions: rows.map((f) => ({
          bank_account_id: accounts[f.account],
          transaction_date: f.date,
          description: f.description,
          amount: dec(f.minor),
          ...(f.category ? { category: f.category } : {}),
          ...(f.merchant ? { merchant_name: f.merchant } : {}),
          tags: f.tags,
        })),
      })
      expect(batch.status, JSON.stringify(batch.body)).toBe(201)
      expect(batch.body.data.errors).toEqual([])
      const created = batch.body.data.created as Tx[]
      expect(created).toHaveLength(rows.length)
      const withIds = rows.map((f, i) => {
        expect(created[i].description).toBe(f.description)
        return { ...f, id: created[i].id }
      })
      for (const [updates, pick] of [
        [{ status: 'posted' }, (f: Fixture) => f.status === 'posted'],
        [{ is_reconciled: true }, (f: Fixture) => f.reconciled],
      ] as const) {
        const ids = withIds.filter(pick).map((f) => f.id)
        const r = await callApi(server, fast.key, 'POST', '/api-v1/transactions/bulk-update', { transaction_ids: ids, updates })
        expect(r.status, JSON.stringify(r.body)).toBe(200)
        expect(r.body.data.updated).toBe(ids.length)
      }
      return withIds
    })
  })
  afterAll(() => sb?.cleanup())

  describe('tx list', () => {
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
      expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'CATEGORY', 'STATUS'])
      expect(rows.map((r) => r[0])).toEqual(expected)
      expect(table.stderr).toContain(`showing 50 of ${fx.length}: add --all`)
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
      expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'CATEGORY', 'STATUS'])
      const bulk = only((f) => f.account === 'bulk').sort(byDateDesc)
      expect(rows).toEqual(bulk.map((f) => [f.id, f.date, f.description, `${dec(f.minor)} USD`, f.category, 'pending']))
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
      expect(rows[0]).toBe('id,date,description,amount,currency,category,status')
      expect(rows.filter((l) => l.startsWith('id,'))).toHaveLength(1)
      expect(rows).toHaveLength(fx.length + 1)
      const ascending = [...fx].sort(byAmount)
      expect(rows.slice(1).map((l) => l.slice(0, 36))).toEqual(ascending.map((f) => f.id))
      const first = ascending[0]
      expect(rows[1]).toBe([first.id, first.date, first.description, dec(first.minor), 'USD', first.category ?? '', first.status].join(','))
      // csv and json agree on every amount
      const json = await sb.json<Tx[]>(['tx', 'list', '--all', '--limit', '40', '--sort', 'amount', '--json'])
      expect(rows.slice(1).map((l) => Number(l.split(',').at(-4)))).toEqual(json.map((t) => t.amount))
    })

    it('--all as a table off a terminal: one header line, every row, no total row', async () => {
      const r = await sb.ok(['tx', 'list', '--all', '--limit', '100'])
      const [header, ...rows] = tsv(r.stdout)
      expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'CATEGORY', 'STATUS'])
      expect(rows).toHaveLength(fx.length)
      expect(rows.every((row) => UUID.test(row[0]) && row.length === 6)).toBe(true)
      expect(r.stdout).not.toContain('total')
    })

    it('--all with a filter the service refuses exits 6 and writes nothing to stdout (no lone "[" or header)', async () => {
      const results = await Promise.all(
        ['json', 'csv', 'table'].map((format) => sb.run(['tx', 'list', '--all', '--status', 'bogus', '--output', format])),
      )
      for (const r of results) {
        expect(r.code, r.stderr).toBe(6)
        expect(r.stdout).toBe('')
        expect(r.stderr).toContain('status')
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

  describe('tx get, update, delete', () => {
    const create = async (description: string, amount: string, extra: string[] = []) =>
      (
        await sb.json<Tx>([
          'tx',
          'create',
          '--account',
          accounts.scratch,
          '--date',
          '2026-06-01',
          '--description',
          description,
          '--amount',
          amount,
          ...extra,
          '--json',
        ])
      ).id
    const get = (id: string) => sb.json(['tx', 'get', id, '--json'])
    let lamp: string

    it('tx get --json has the account {id,name}, statement null and the create entry of the history', async () => {
      lamp = await create('Desk lamp', '-45.00', ['--category', 'Furniture'])
      const t = await get(lamp)
      expect(t).toMatchObject({
        id: lamp,
        description: 'Desk lamp',
        amount: -45,
        category: 'Furniture',
        status: 'pending',
        is_reconciled: false,
      })
      expect(t.bank_account).toEqual({ id: accounts.scratch, name: 'Scratch' })
      expect(t.statement).toBeNull()
      expect(t.history).toHaveLength(1)
      const [entry] = t.history
      expect(entry).toMatchObject({ action: 'create', actor: `key:${keyId}` })
      expect(entry.at).toMatch(ISO)
      expect(entry.changes.amount).toEqual({ before: null, after: -45 })
      expect(entry.changes.description).toEqual({ before: null, after: 'Desk lamp' })
      expect(entry.changes.category).toEqual({ before: null, after: 'Furniture' })
    })

    it('tx get as a table shows the record and its history', async () => {
      const r = await sb.ok(['tx', 'get', lamp])
      const rows = tsv(r.stdout)
      expect(rows).toContainEqual(['amount', '-45.00 USD'])
      expect(rows).toContainEqual(['bank_account', `Scratch (${accounts.scratch})`])
      expect(rows.some((row) => row[2] === 'create' && row[1] === `key:${keyId}`)).toBe(true)
    })

    it('tx update --category, --amount, --tags change the transaction, and each leaves a history entry with before/after', async () => {
      const cat = await sb.run(['tx', 'update', lamp, '--category', 'Office', '--json'])
      expect(cat.code, cat.stderr).toBe(0)
      expect(JSON.parse(cat.stdout)).toMatchObject({ id: lamp, category: 'Office', amount: -45 })
      expect(cat.stderr).toContain(`updated transaction ${lamp}`)
      expect(await sb.json(['tx', 'update', lamp, '--amount', '-50.25', '--json'])).toMatchObject({ amount: -50.25, category: 'Office' })
      expect(await sb.json(['tx', 'update', lamp, '--tags', 'a, b,a', '--json'])).toMatchObject({ tags: ['a', 'b'], amount: -50.25 })

      const t = await get(lamp)
      expect(t).toMatchObject({ category: 'Office', amount: -50.25, tags: ['a', 'b'] })
      expect(t.history.map((e: { action: string }) => e.action)).toEqual(['create', 'update', 'update', 'update'])
      expect(t.history[1]).toMatchObject({ actor: `key:${keyId}` })
      expect(t.history[1].changes).toEqual({ category: { before: 'Furniture', after: 'Office' } })
      expect(t.history[2].changes).toEqual({ amount: { before: -45, after: -50.25 } })
      expect(t.history[3].changes).toEqual({ tags: { before: [], after: ['a', 'b'] } })
    })

    it('a reconciled transaction keeps its amount: exit 6 naming un-reconcile; other fields still change', async () => {
      expect(await sb.json(['tx', 'update', lamp, '--reconciled', 'true', '--json'])).toMatchObject({ is_reconciled: true })
      const r = await sb.run(['tx', 'update', lamp, '--amount', '-1.00'])
      expect(r.code).toBe(6)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(/^error: .*un-reconcile/m)
      // Off a terminal without --json: a FIELD/VALUE table, the amount in fixed decimals as tx create and tx get show it.
      const table = await sb.ok(['tx', 'update', lamp, '--category', 'Lighting'])
      const fields = Object.fromEntries(tsv(table.stdout).slice(1))
      expect(fields).toMatchObject({ id: lamp, category: 'Lighting', amount: '-50.25 USD', is_reconciled: 'true' })
      const t = await get(lamp)
      expect(t.amount).toBe(-50.25)
      expect(t.history).toHaveLength(6)
    })

    it('status goes pending -> posted, never back: exit 6', async () => {
      const id = await create('Stamps', '-3.10')
      expect(await sb.json(['tx', 'update', id, '--status', 'posted', '--json'])).toMatchObject({ status: 'posted' })
      const back = await sb.run(['tx', 'update', id, '--status', 'pending'])
      expect(back.code).toBe(6)
      expect(back.stderr).toContain('cannot go from posted to pending')
      expect((await get(id)).status).toBe('posted')
    })

    it('usage errors (exit 2) and an unknown id (exit 5)', async () => {
      const [none, badBool, unknown] = await Promise.all([
        sb.run(['tx', 'update', lamp]),
        sb.run(['tx', 'update', lamp, '--reconciled', 'maybe']),
        sb.run(['tx', 'update', randomUUID(), '--category', 'X']),
      ])
      expect(none.code).toBe(2)
      expect(none.stderr).toContain('nothing to change')
      expect(badBool.code).toBe(2)
      expect(badBool.stderr).toContain('--reconciled must be true or false')
      expect(unknown.code).toBe(5)
      expect(unknown.stderr).toContain('not found')
      expect((await get(lamp)).history).toHaveLength(6)
    })

    it('tx delete needs --yes without a terminal; with it the transaction is gone (get exits 5)', async () => {
      const id = await create('Mistake', '-9.99')
      const refused = await sb.run(['tx', 'delete', id])
      expect(refused.code).toBe(2)
      expect(refused.stdout).toBe('')
      expect(refused.stderr).toContain('--yes')
      expect((await get(id)).description).toBe('Mistake')

      const deleted = await sb.run(['tx', 'delete', id, '--yes', '--json'])
      expect(deleted.code, deleted.stderr).toBe(0)
      expect(JSON.parse(deleted.stdout)).toEqual({ id, deleted: true })
      expect(deleted.stderr).toContain(`deleted transaction ${id}`)
      const after = await sb.run(['tx', 'get', id])
      expect(after.code).toBe(5)
    })

    it('deleting a reconciled transaction exits 6 and keeps it; an unknown id exits 5', async () => {
      const [reconciled, unknown] = await Promise.all([
        sb.run(['tx', 'delete', lamp, '--yes']),
        sb.run(['tx', 'delete', randomUUID(), '--yes']),
      ])
      expect(reconciled.code).toBe(6)
      expect(reconciled.stderr).toContain('un-reconcile')
      expect(unknown.code).toBe(5)
      expect((await get(lamp)).id).toBe(lamp)
    })
  })

  describe('tx bulk-update', () => {
    /** The 12 rows of the Bulk account, by id. */
    const state = async () =>
      new Map((await sb.json<Tx[]>(['tx', 'list', '--account', accounts.bulk, '--limit', '1000', '--json'])).map((t) => [t.id, t]))
    const bulk = () => only((f) => f.account === 'bulk') // j = 0..11: Fuel when even, -(j+1)*10.50, tags ['keep'] for j < 4
    let before: Map<string, Tx>

    it('--dry-run prints the count and the exact total on stderr and changes nothing', async () => {
      before = await state()
      expect(before.size).toBe(12)
      const r = await sb.run([
        'tx',
        'bulk-update',
        '--account',
        accounts.bulk,
        '--category',
        'Fuel',
        '--max-amount',
        '-40',
        '--set',
        'category=Transport',
        '--dry-run',
      ])
      expect(r.code, r.stderr).toBe(0)
      // Fuel rows j = 4, 6, 8, 10: -52.50 - 73.50 - 94.50 - 115.50
      expect(r.stderr).toContain('dry run: would change 4 transaction(s), total -336.00 USD: set category=Transport')
      const listed = tsv(r.stdout)
        .slice(1)
        .map((row) => row[0])
      expect(listed.sort()).toEqual(sortedIds(bulk().filter((_, j) => j % 2 === 0 && j >= 4)))
      expect(await state()).toEqual(before)
    })

    it('without --yes it exits 2 and changes nothing', async () => {
      const r = await sb.run([
        'tx',
        'bulk-update',
        '--account',
        accounts.bulk,
        '--category',
        'Fuel',
        '--max-amount',
        '-40',
        '--set',
        'category=Transport',
      ])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('--yes')
      expect(r.stderr).toContain('4 transaction(s), total -336.00 USD')
      expect(await state()).toEqual(before)
    })

    it('with filters and --yes it changes exactly the matching rows', async () => {
      const r = await sb.run([
        'tx',
        'bulk-update',
        '--account',
        accounts.bulk,
        '--category',
        'Fuel',
        '--max-amount',
        '-40',
        '--set',
        'category=Transport',
        '--set',
        'accounting_category=operating_expenses',
        '--yes',
        '--json',
      ])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain('updated 4 transaction(s)')
      const changed = JSON.parse(r.stdout) as Tx[]
      const targets = new Set(
        bulk()
          .filter((_, j) => j % 2 === 0 && j >= 4)
          .map((f) => f.id),
      )
      expect(sortedIds(changed)).toEqual([...targets].sort())
      const now = await state()
      for (const [id, t] of now) {
        const was = before.get(id)!
        if (targets.has(id)) {
          expect(t).toMatchObject({ category: 'Transport', accounting_category: 'operating_expenses', amount: was.amount, tags: was.tags })
        } else {
          expect(t).toEqual(was)
        }
      }
      before = now
    })

    it('a filter that matches nothing changes nothing (exit 0)', async () => {
      const r = await sb.run(['tx', 'bulk-update', '--account', accounts.bulk, '--category', 'Nope', '--set', 'category=X', '--yes'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain('no transactions match')
    })

    it('--ids A,B --set add_tags=t --yes adds the tag to exactly those two', async () => {
      const [a, b] = [bulk()[0].id, bulk()[5].id]
      const r = await sb.run(['tx', 'bulk-update', '--ids', `${a},${b}`, '--set', 'add_tags=t', '--yes'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain('updated 2 transaction(s)')
      const now = await state()
      expect(now.get(a)!.tags).toEqual(['keep', 't'])
      expect(now.get(b)!.tags).toEqual(['t'])
      for (const [id, t] of now) if (id !== a && id !== b) expect(t).toEqual(before.get(id))
      before = now
    })

    it('an unknown id among --ids exits 5, names it, and changes nothing (all or nothing)', async () => {
      const ghost = randomUUID()
      const r = await sb.run(['tx', 'bulk-update', '--ids', `${bulk()[1].id},${ghost},${bulk()[2].id}`, '--set', 'add_tags=u', '--yes'])
      expect(r.code).toBe(5)
      expect(r.stderr).toContain(ghost)
      expect(r.stderr).toContain('nothing was changed')
      expect(await state()).toEqual(before)
    })

    it('--ids-file reads one id per line (blank lines and # comments skipped)', async () => {
      const [x, y] = [bulk()[1].id, bulk()[3].id]
      const file = join(sb.dir, 'ids.txt')
      writeFileSync(file, `# two rows\n${x}\n\n${y}  # this one too\n`)
      const r = await sb.run([
        'tx',
        'bulk-update',
        '--ids-file',
        file,
        '--set',
        'merchant_name=Shell',
        '--set',
        'remove_tags=keep',
        '--yes',
      ])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain('updated 2 transaction(s)')
      const now = await state()
      for (const id of [x, y]) expect(now.get(id)).toMatchObject({ merchant_name: 'Shell', tags: [] })
      for (const [id, t] of now) if (id !== x && id !== y) expect(t).toEqual(before.get(id))
      before = now
    })

    it('usage errors exit 2 and change nothing: a field that cannot be bulk-updated, no selection, two selections, no --set', async () => {
      const a = bulk()[0].id
      const cases = [
        ['--ids', a, '--set', 'amount=5', '--yes'],
        ['--set', 'category=X', '--yes'],
        ['--ids', a, '--category', 'Fuel', '--set', 'category=X', '--yes'],
        ['--ids', a, '--yes'],
        ['--ids', a, '--set', 'category', '--yes'],
      ]
      const results = await Promise.all(cases.map((flags) => sb.run(['tx', 'bulk-update', ...flags])))
      results.forEach((r, n) => {
        expect(r.code, `${cases[n].join(' ')}: ${r.stderr}`).toBe(2)
        expect(r.stdout).toBe('')
      })
      expect(results[0].stderr).toContain('amount cannot be bulk-updated')
      expect(results[1].stderr).toContain('exactly one of --ids, --ids-file or list filters')
      expect(results[2].stderr).toContain('exactly one of --ids, --ids-file or list filters')
      expect(results[3].stderr).toContain('--set')
      expect(await state()).toEqual(before)
    })
  })
})

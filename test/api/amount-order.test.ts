/**
 * Amount-sorted pages, read from the (company, amount) index (migration 0011) with the filters
 * checked row by row: these walks mix two companies, two accounts and many equal amounts, and every
 * page must hold only the caller's rows, in (amount, creation) order, each once, whichever filters
 * narrow it. Equal amounts come in the order the rows were created (the rows' seq).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { Transaction } from '../../src/domain/schemas.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

/** Enough rows that a planner could prefer scanning another index and sorting. */
const MANY = 5_000

const AMOUNTS = ['-5.00', '-5.00', '0.01', '12.00', '12.00', '12.00', '-300.10', '7.77', '12.00', '-5.00']

describe.each(MATRIX)('amount order over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let ca: Client
  let savings: string
  const mine: Transaction[] = []

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Amounts A')
    const b = await h.tenant('Amounts B')
    ca = h.client({ apiKey: a.key })
    const cb = h.client({ apiKey: b.key })
    savings = (await ca.accounts.create({ name: 'Savings', account_type: 'savings', currency_code: 'USD' })).id
    const rows = (account: string) =>
      AMOUNTS.map((amount, i) => ({
        bank_account_id: account,
        transaction_date: `2026-0${1 + (i % 3)}-1${i % 10}`,
        description: `row ${i}`,
        amount,
        ...(i % 4 === 0 ? { category: 'Fees' } : {}),
      }))
    // The other company's rows interleave with ours in the amount index.
    await cb.transactions.batch(rows(b.accountId))
    for (const account of [a.accountId, savings]) mine.push(...(await ca.transactions.batch(rows(account))).created)
    await cb.transactions.batch(rows(b.accountId))
  })
  afterAll(async () => {
    await h?.close()
  })

  /** `rows` (in the order they were created) by amount, equal amounts in creation order. */
  const expected = (rows: Transaction[], desc: boolean) => {
    const out = rows
      .map((t, i) => ({ t, i }))
      .sort((x, y) => x.t.amount - y.t.amount || x.i - y.i)
      .map((x) => x.t.id)
    return desc ? out.reverse() : out
  }

  async function walk(query: Record<string, string>): Promise<{ ids: string[]; total: number }> {
    const ids: string[] = []
    let cursor: string | undefined
    let total = -1
    for (let pages = 0; pages < 40; pages++) {
      const page = await ca.transactions.list({ ...query, limit: 3, cursor, include_total: true })
      total = page.pagination!.total
      ids.push(...page.data.map((t) => t.id))
      cursor = page.pagination!.next_cursor ?? undefined
      if (!cursor) break
    }
    return { ids, total }
  }

  it.each([
    ['the whole company', {}, () => mine],
    ['one account', () => ({ bank_account_id: savings }), () => mine.filter((t) => t.bank_account_id === savings)],
    ['an amount range', { min_amount: '-5.00', max_amount: '12.00' }, () => mine.filter((t) => t.amount >= -5 && t.amount <= 12)],
    ['a category', { category: 'Fees' }, () => mine.filter((t) => t.category === 'Fees')],
    ['a date range', { from: '2026-02-01', to: '2026-03-31' }, () => mine.filter((t) => t.transaction_date >= '2026-02-01')],
  ] as const)('pages through %s in (amount, creation) order, both ways, each row once', async (_name, query, rows) => {
    const q = typeof query === 'function' ? query() : query
    for (const sort of ['amount', '-amount']) {
      const got = await walk({ ...q, sort })
      const want = expected(rows(), sort === '-amount')
      expect(want.length).toBeGreaterThan(3)
      expect(got.ids).toEqual(want)
      expect(got.total).toBe(want.length)
    }
  })

  describe(`above ${MANY} matching rows`, () => {
    let cc: Client
    let big: string
    let small: string
    const rows: Transaction[] = []

    beforeAll(async () => {
      const t = await h.tenant('Amounts C')
      cc = h.client({ apiKey: t.key })
      big = t.accountId
      small = (await cc.accounts.create({ name: 'Small', account_type: 'savings', currency_code: 'USD' })).id
      const n = MANY + 1500
      const items = Array.from({ length: n }, (_, i) => ({
        bank_account_id: i % 8 === 0 ? small : big,
        transaction_date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-15`,
        description: `bulk ${i}`,
        // Few distinct amounts: long runs of ties, in creation order.
        amount: `${((i * 7919) % 97) - 48}.${String(i % 3).padStart(2, '0')}`,
      }))
      for (let i = 0; i < n; i += 5000) rows.push(...(await cc.transactions.batch(items.slice(i, i + 5000))).created)
    })

    async function pages(query: Record<string, string>, count: number, limit: number): Promise<{ ids: string[]; total: number }> {
      const ids: string[] = []
      let cursor: string | undefined
      let total = -1
      for (let i = 0; i < count; i++) {
        const page = await cc.transactions.list({ ...query, limit, cursor, include_total: true })
        total = page.pagination!.total
        ids.push(...page.data.map((x) => x.id))
        cursor = page.pagination!.next_cursor ?? undefined
        if (!cursor) break
      }
      return { ids, total }
    }

    it('pages the company and its big account in (amount, creation) order, both ways', async () => {
      for (const sort of ['amount', '-amount']) {
        const all = expected(rows, sort === '-amount')
        const got = await pages({ sort }, 6, 200)
        expect(got.total).toBe(rows.length)
        expect(got.ids).toEqual(all.slice(0, 1200))
        const inBig = expected(
          rows.filter((x) => x.bank_account_id === big),
          sort === '-amount',
        )
        expect(inBig.length).toBeGreaterThan(MANY)
        const gotBig = await pages({ sort, bank_account_id: big }, 3, 300)
        expect(gotBig.total).toBe(inBig.length)
        expect(gotBig.ids).toEqual(inBig.slice(0, 900))
      }
    })

    it('walks a small account to its end', async () => {
      const inSmall = expected(
        rows.filter((x) => x.bank_account_id === small),
        false,
      )
      expect(inSmall.length).toBeLessThan(MANY)
      const got = await pages({ sort: 'amount', bank_account_id: small }, 100, 250)
      expect(got.ids).toEqual(inSmall)
    })
  })

  // Registered on SQLite only (PostgreSQL keeps its company-first index), so no test is skipped.
  if (storeKind === 'sqlite') {
    it('keeps a one-column amount index on SQLite, not the company-first one', async () => {
      const { sql } = await import('kysely')
      const names = (
        await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'transactions'`.execute(h.store.db)
      ).rows.map((r) => r.name)
      expect(names).toContain('transactions_amount')
      expect(names).not.toContain('transactions_company_amount')
    })
  }
})

/**
 * The report totals kept with the rows (src/store/report-totals.ts) on both stores: after
 * creates, batches, a bulk load, statement lines, updates (amounts, labels, dates, currencies and
 * their re-conversion, void) and deletes, the kept totals equal a fresh computation from the rows
 * (rebuildReportTotals), and the reports they feed agree with plain sums over the rows, for whole
 * months and for ranges that cut months.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { rebuildReportTotals } from '../../src/store/report-totals.js'
import { createHarness, STORES, type Harness, type Tenant } from '../helpers/harness.js'

/** Every kept total, as text rows, leaving out groups whose rows are all gone (all sums zero). */
async function kept(h: Harness): Promise<string[]> {
  const day = await sql<Record<string, unknown>>`SELECT * FROM report_day_flows
    WHERE n <> 0 OR inflows <> 0 OR outflows <> 0 OR amount <> 0`.execute(h.store.db)
  const month = await sql<Record<string, unknown>>`SELECT * FROM report_month_groups
    WHERE n <> 0 OR net <> 0 OR inflows <> 0 OR pending <> 0 OR unreconciled <> 0`.execute(h.store.db)
  const text = (table: string, r: Record<string, unknown>) =>
    `${table} ${Object.keys(r)
      .sort()
      .map((k) => `${k}=${String(r[k])}`)
      .join(' ')}`
  return [...day.rows.map((r) => text('day', r)), ...month.rows.map((r) => text('month', r))].sort()
}

const csv = (lines: string[]) => Buffer.from(`Date,Description,Amount\n${lines.join('\n')}\n`).toString('base64')

for (const storeKind of STORES) {
  describe(`report totals on ${storeKind}`, () => {
    let h: Harness
    let t: Tenant
    let c: Client
    let eur: string
    const minRows = process.env.FINCTL_BULK_LOAD_MIN_ROWS
    beforeAll(async () => {
      // A small bulk load sets the indexes aside (SQLite) or goes by COPY (PostgreSQL) as a large one does.
      process.env.FINCTL_BULK_LOAD_MIN_ROWS = '20'
      h = await createHarness('embedded', storeKind)
      t = await h.tenant('Totals')
      c = h.client({ apiKey: t.key })
      eur = (await c.accounts.create({ name: 'Euro', account_type: 'checking', currency_code: 'EUR' })).id
      await c.rates.set('2025-02-01', 'EUR', { rate: '1.0825' })
    }, 120_000)
    afterAll(async () => {
      if (minRows === undefined) delete process.env.FINCTL_BULK_LOAD_MIN_ROWS
      else process.env.FINCTL_BULK_LOAD_MIN_ROWS = minRows
      await h?.close()
    })

    it('the kept totals equal a fresh computation after every kind of write', async () => {
      const row = (i: number, over: Partial<CreateTransactionRequest> = {}): CreateTransactionRequest => ({
        bank_account_id: t.accountId,
        transaction_date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + ((i * 7) % 28)).padStart(2, '0')}`,
        description: `Row ${i}`,
        amount: `${(i % 9) - 5}.${String(i % 100).padStart(2, '0')}`,
        ...(i % 4 ? { category: ['Meals', 'Rent', ''][i % 3], merchant_name: i % 5 ? `Shop ${i % 6}` : '' } : {}),
        ...(i % 11 === 0 ? { cash_flow_category: 'transfer' as const } : {}),
        ...(i % 7 === 0 ? { cash_flow_category: 'investing' as const, accounting_category: 'revenue' as const } : {}),
        ...over,
      })
      // Creates one at a time, a batch, and a bulk load in two batches.
      const one = [await c.transactions.create(row(1)), await c.transactions.create(row(2, { bank_account_id: eur, exchange_rate: '1.1' }))]
      const batch = await c.transactions.batch(Array.from({ length: 30 }, (_, i) => row(100 + i)))
      const bulk = Array.from({ length: 60 }, (_, i) => row(200 + i, { import_ref: `bulk.${i}` }))
      await c.transactions.batchMinimal(bulk.slice(0, 30), { bulkRows: 60 })
      await c.transactions.batchMinimal(bulk.slice(30), { bulkRows: 60, bulkEnd: true })
      // Statement lines become transactions.
      const up = await c.statements.upload({
        bank_account_id: t.accountId,
        file_name: 'totals.csv',
        content_base64: csv(['2025-03-03,Coffee,-4.50', '2025-03-04,Refund,12.00', '2025-04-30,Fee,-1.25']),
      })
      expect((await c.statements.wait(up.id)).status).toBe('completed')
      // Rows in EUR on the base account and on the EUR account, converted at the table's rate.
      const converted = await c.transactions.batch([
        row(300, { currency_code: 'EUR', transaction_date: '2025-02-03' }),
        row(301, { bank_account_id: eur, transaction_date: '2025-02-04' }),
        row(302, { bank_account_id: eur, currency_code: 'GBP', exchange_rate: '1.27' }),
      ])
      const ids = batch.created.map((x) => x.id)
      // Updates: amount, labels (to and from NULL), date across months, status, void, reconciled.
      await c.transactions.update(ids[0], { amount: '-123.45' })
      await c.transactions.update(ids[1], { category: null, merchant_name: null, cash_flow_category: null })
      await c.transactions.update(ids[2], { category: 'Travel', accounting_category: 'operating_expenses' })
      await c.transactions.update(ids[3], { transaction_date: '2024-12-31' })
      await c.transactions.update(ids[4], { status: 'void' })
      await c.transactions.update(ids[5], { status: 'pending' })
      await c.transactions.update(ids[5], { status: 'posted', amount: '7.07' })
      await c.transactions.update(ids[6], { status: 'pending', is_reconciled: true })
      await c.transactions.update(ids[7], { description: 'Only the text' })
      await c.transactions.update(ids[15], { category: 'Alone' })
      await c.transactions.update(ids[16], { is_reconciled: true })
      await c.transactions.bulkUpdate({ transaction_ids: ids.slice(8, 14), updates: { category: 'Bulk', merchant_name: 'Bulk Co' } })
      // Re-conversion: a new date takes that date's rate; a currency change takes its rate.
      await c.rates.set('2025-06-01', 'EUR', { rate: '1.2' })
      await c.transactions.update(converted.created[0].id, { transaction_date: '2025-06-02' })
      await c.transactions.update(one[0].id, { currency_code: 'EUR' })
      // Deletes.
      for (const id of [...ids.slice(20, 24), one[1].id]) await c.transactions.delete(id)

      const before = await kept(h)
      expect(before.length).toBeGreaterThan(20)
      await h.store.writeTransaction((trx) => rebuildReportTotals(trx))
      expect(before).toEqual(await kept(h))
    }, 240_000)

    it('a bulk load keeps them equal batch by batch, with other writes between its batches', async () => {
      const row = (i: number): CreateTransactionRequest => ({
        bank_account_id: t.accountId,
        transaction_date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + ((i * 5) % 28)).padStart(2, '0')}`,
        description: `Load ${i}`,
        amount: `${(i % 7) - 3}.${String(i % 100).padStart(2, '0')}`,
        import_ref: `load.${i}`,
        ...(i % 3 ? { category: ['Meals', 'Rent'][i % 2], merchant_name: `Shop ${i % 4}` } : {}),
        ...(i % 10 === 0 ? { cash_flow_category: 'transfer' as const } : {}),
      })
      const rows = Array.from({ length: 150 }, (_, i) => row(i))
      const fresh = async () => {
        const before = await kept(h)
        await h.store.writeTransaction((trx) => rebuildReportTotals(trx))
        expect(before).toEqual(await kept(h))
      }
      // A load's first batch (SQLite sets the insert trigger aside), then the totals mid-load.
      await c.transactions.batchMinimal(rows.slice(0, 30), { bulkRows: 90 })
      await fresh()
      // Its next batches, a create between them, its end.
      await c.transactions.batchMinimal(rows.slice(30, 60), { bulkRows: 90 })
      await c.transactions.create({ ...row(1000), import_ref: undefined })
      await c.transactions.batchMinimal(rows.slice(60, 90), { bulkRows: 90, bulkEnd: true })
      await fresh()
      // Another load, a create while its first batch has the trigger aside, and one of its rows again.
      await c.transactions.batchMinimal(rows.slice(90, 120), { bulkRows: 60 })
      await c.transactions.create({ ...row(1001), import_ref: undefined })
      await c.transactions.batchMinimal([...rows.slice(119, 150)], { bulkRows: 60, bulkEnd: true })
      await fresh()
    }, 240_000)

    it("writes that insert no rows leave a load's trigger aside; rows inserted beside the load put it back", async () => {
      const row = (i: number): CreateTransactionRequest => ({
        bank_account_id: t.accountId,
        transaction_date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + ((i * 3) % 28)).padStart(2, '0')}`,
        description: `Aside ${i}`,
        amount: `${(i % 5) - 2}.${String(i % 100).padStart(2, '0')}`,
        import_ref: `aside.${i}`,
      })
      const rows = Array.from({ length: 90 }, (_, i) => row(i))
      // SQLite sets the insert trigger aside for a load; PostgreSQL has no such step.
      const triggerThere = async () =>
        (
          await sql<{
            n: number
          }>`SELECT count(*) AS n FROM sqlite_schema WHERE type = 'trigger' AND name = 'report_totals_insert'`.execute(h.store.db)
        ).rows[0].n === 1
      await c.transactions.batchMinimal(rows.slice(0, 30), { bulkRows: 90 })
      if (storeKind === 'sqlite') expect(await triggerThere()).toBe(false)
      // An account and a rate (as a webhook's deliveries or a key's usage): the load keeps adding its
      // batches' totals at once, not row by row through the trigger.
      await c.accounts.create({ name: `Side ${storeKind}`, account_type: 'checking', currency_code: 'USD' })
      await c.rates.set('2025-03-01', 'EUR', { rate: '1.09' })
      if (storeKind === 'sqlite') expect(await triggerThere()).toBe(false)
      await c.transactions.batchMinimal(rows.slice(30, 60), { bulkRows: 90 })
      // A statement's lines go into transactions beside the load: the trigger comes back to count them.
      const up = await c.statements.upload({
        bank_account_id: t.accountId,
        file_name: 'aside.csv',
        content_base64: csv(['2025-05-03,Aside coffee,-3.50', '2025-05-04,Aside refund,9.00']),
      })
      expect((await c.statements.wait(up.id)).status).toBe('completed')
      if (storeKind === 'sqlite') expect(await triggerThere()).toBe(true)
      await c.transactions.batchMinimal(rows.slice(60), { bulkRows: 90, bulkEnd: true })
      const before = await kept(h)
      await h.store.writeTransaction((trx) => rebuildReportTotals(trx))
      expect(before).toEqual(await kept(h))
    }, 240_000)

    it('the reports from the totals agree with plain sums over the rows, for whole months and cut ones', async () => {
      const plain = async (from: string, to: string, accountId?: string) => {
        const r = await sql<{ i: string; o: string; n: string }>`SELECT
            CAST(COALESCE(SUM(CASE WHEN base_amount > 0 THEN base_amount ELSE 0 END), 0) AS TEXT) AS i,
            CAST(COALESCE(SUM(CASE WHEN base_amount < 0 THEN 0 - base_amount ELSE 0 END), 0) AS TEXT) AS o,
            CAST(COUNT(*) AS TEXT) AS n
          FROM transactions t JOIN bank_accounts a ON a.key = t.account_key
          WHERE a.company_id = ${t.companyId} AND t.transaction_date >= ${from} AND t.transaction_date <= ${to}
            AND t.status <> 'void' AND (t.cash_flow_category IS NULL OR t.cash_flow_category <> 'transfer')
            ${accountId === undefined ? sql`` : sql`AND a.id = ${accountId}`}`.execute(h.store.db)
        return { inflows: BigInt(r.rows[0].i), outflows: BigInt(r.rows[0].o), count: Number(r.rows[0].n) }
      }
      const cents = (x: number) => BigInt(Math.round(x * 100))
      for (const [from, to] of [
        ['2025-01-01', '2025-12-31'],
        ['2025-01-15', '2025-03-10'],
        ['2025-02-02', '2025-02-27'],
        ['2024-12-31', '2025-06-30'],
        ['2025-03-01', '2025-04-29'],
      ]) {
        for (const accountId of [undefined, t.accountId]) {
          const want = await plain(from, to, accountId)
          const q = { from, to, ...(accountId ? { bank_account_id: accountId } : {}) }
          const s = await c.reports.summary(q)
          const f = await c.reports.cashFlow(q)
          const got = { inflows: cents(s.income), outflows: cents(s.expenses), count: s.transaction_count - s.transfers.count }
          expect(got, `${from}..${to} ${accountId ?? ''}`).toEqual(want)
          expect({ inflows: cents(f.totals.inflows), outflows: cents(f.totals.outflows) }).toEqual({
            inflows: want.inflows,
            outflows: want.outflows,
          })
        }
      }
      // The summary's balances (from the totals) are the accounts' own (from the rows).
      const s = await c.reports.summary({ from: '2020-01-01', to: '2030-12-31' })
      for (const a of s.accounts) {
        const acc = await c.accounts.get(a.id)
        expect({ balance: a.balance, unconverted: a.unconverted_transactions }).toEqual({
          balance: acc.current_balance,
          unconverted: acc.unconverted_transactions,
        })
      }
    }, 240_000)
  })
}

/**
 * Query plans on SQLite (the part that pins today's plans before the schema changes):
 * the reads that lists, filters, keyset pages, reports, dedup and reconciliation run over
 * `transactions` are recorded as the API runs them, and each is explained (EXPLAIN QUERY PLAN): none
 * may scan the whole table, and the keyset pages and sorted lists may not sort through a temporary
 * B-tree. A query that must scan (free-text search, a filter no index serves) is named below with
 * the reason. A schema change that loses an index these queries need fails here.
 */
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { createHarness, type Harness } from '../helpers/harness.js'

/** Every SQL text better-sqlite3 prepares in this process, in order. */
const prepared: string[] = []
const original = Database.prototype.prepare
beforeAll(() => {
  Database.prototype.prepare = function (this: Database.Database, source: string) {
    prepared.push(source)
    return original.call(this, source)
  } as typeof original
})
afterAll(() => {
  Database.prototype.prepare = original
})

interface Plan {
  sql: string
  plan: string[]
}

describe('query plans of the reads over transactions (SQLite)', () => {
  let h: Harness
  let c: Client
  let account: string
  let plans: Plan[] = []

  beforeAll(async () => {
    // Its own store: a shared one has prepared (and cached) these statements for an earlier file.
    h = await createHarness('embedded', 'sqlite', { own: true })
    const t = await h.tenant('Plans')
    c = h.client({ apiKey: t.key })
    account = t.accountId
    // More rows than the amount sort's threshold, so that the large-table plans are the ones explained.
    const n = 5_000 + 500
    const rows: CreateTransactionRequest[] = Array.from({ length: n }, (_, i) => ({
      bank_account_id: account,
      transaction_date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      description: `Row ${i}`,
      amount: `${(i % 7) - 3}.${String(10 + (i % 80)).padStart(2, '0')}`,
      category: i % 3 ? 'Meals' : 'Rent',
    }))
    for (let i = 0; i < n; i += 1000) await c.transactions.batchMinimal(rows.slice(i, i + 1000))
    const start = prepared.length
    // The reads users run: lists (default sort, by amount, by date ascending), their keyset pages,
    // filters, one transaction, the reports, categories.
    for (const sort of [undefined, 'transaction_date', 'amount', '-amount', 'created_at'] as const) {
      const p1 = await c.transactions.list({ sort, limit: 20 })
      await c.transactions.list({ sort, limit: 20, cursor: p1.pagination?.next_cursor ?? undefined })
    }
    // With its total: the count of an account's rows is planned too (below).
    await c.transactions.list({ bank_account_id: account, limit: 20, include_total: true })
    // The account with its balance, and every account (tx import reads it first); an account in
    // another currency than the base holding a row in a third, which its balance names unconverted.
    const eur = await c.accounts.create({ name: 'Euro', account_type: 'checking', currency_code: 'EUR' })
    await c.transactions.batch([
      {
        bank_account_id: eur.id,
        transaction_date: '2025-01-02',
        description: 'Pounds',
        amount: '-5.00',
        currency_code: 'GBP',
        exchange_rate: '1.25',
      },
    ])
    await c.accounts.get(account)
    await c.accounts.get(eur.id)
    // An account with an opening date: what its opening balance holds (rows dated before it).
    const opened = await c.accounts.create({
      name: 'Opened',
      account_type: 'savings',
      currency_code: 'USD',
      opening_balance_date: '2025-01-01',
    })
    await c.accounts.get(opened.id)
    await c.accounts.list()
    await c.transactions.list({ from: '2025-03-01', to: '2025-03-31', limit: 20 })
    await c.transactions.list({ status: 'pending', limit: 20 })
    await c.transactions.list({ category: 'Rent', limit: 20 })
    const one = (await c.transactions.list({ limit: 1 })).data[0].id
    await c.transactions.get(one)
    // Short ids: a prefix (the id index's range), a suffix (over the company's rows).
    await c.transactions.list({ id_prefix: one.slice(0, 13), limit: 10 })
    await c.transactions.list({ id_suffix: one.slice(-8), limit: 10 })
    await c.reports.summary({ from: '2025-01-01', to: '2025-12-31' })
    await c.reports.cashFlow({ from: '2025-01-01', to: '2025-12-31' })
    await c.reports.summary({ from: '2025-01-01', to: '2025-12-31', bank_account_id: account })
    // A range that cuts months: its whole months from the kept totals, the days at its ends from the rows.
    await c.reports.summary({ from: '2025-01-15', to: '2025-11-20' })
    await c.reports.cashFlow({ from: '2025-01-15', to: '2025-11-20', bank_account_id: account })
    // Dedup: the same rows again by import_ref.
    await c.transactions.batch(rows.slice(0, 5).map((r, i) => ({ ...r, import_ref: `plans.${i}` })))
    await c.transactions.batch(rows.slice(0, 5).map((r, i) => ({ ...r, import_ref: `plans.${i}` })))
    // Reconciliation: a statement whose lines match rows already there, then rows of a CSV that
    // match a statement's lines (tx import's match_statement_lines).
    const csv = `Date,Description,Amount\n2026-02-03,Coffee,-4.50\n2026-02-04,Refund,12.00\n`
    await c.transactions.batch([{ bank_account_id: account, transaction_date: '2026-02-03', description: 'Coffee', amount: '-4.50' }])
    const up = await c.statements.upload({
      bank_account_id: account,
      file_name: 'plans.csv',
      content_base64: Buffer.from(csv).toString('base64'),
    })
    await c.statements.wait(up.id)
    await c.transactions.batchMinimal(
      [{ bank_account_id: account, transaction_date: '2026-02-04', description: 'Refund', amount: '12.00', import_ref: 'plans.refund' }],
      { matchStatementLines: true },
    )
    // finctl export: two pages of a period (the company's, an account's) and the balances before it.
    for (const q of [{}, { bank_account_id: account }]) {
      let n = 0
      for await (const _ of c.exports.transactions({ from: '2025-01-01', to: '2025-12-31', limit: 1000, ...q })) if (++n === 2) break
      await c.exports.openingBalances({ from: '2025-06-01', ...q })
    }
    const texts = [...new Set(prepared.slice(start))].filter(
      (s) => /^\s*select\b/i.test(s) && /\b(transactions|report_day_flows|report_month_groups)\b/i.test(s),
    )
    const db = new Database(h.database, { readonly: true })
    try {
      plans = texts.map((sql) => {
        const params = (sql.match(/\?/g) ?? []).map(() => null)
        const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>
        return { sql, plan: rows.map((r) => r.detail) }
      })
    } finally {
      db.close()
    }
  }, 240_000)
  afterAll(async () => {
    await h?.close()
  })

  /** The plans of the recorded reads whose SQL matches `re` (at least one). */
  const of = (re: RegExp): Plan[] => {
    const found = plans.filter((p) => re.test(p.sql.replace(/\s+/g, ' ')))
    expect(found.length, `no recorded read matches ${re}`).toBeGreaterThan(0)
    return found
  }
  const uses = (re: RegExp, index: string) => {
    for (const p of of(re)) expect(p.plan.join(' | '), p.sql).toMatch(new RegExp(`USING (COVERING )?INDEX ${index}\\b`))
  }

  it('no read scans the table itself: each goes through an index', () => {
    expect(plans.length).toBeGreaterThanOrEqual(20)
    for (const p of plans) {
      for (const line of p.plan) expect(line, p.sql).not.toMatch(/^SCAN (transactions|report_day_flows|report_month_groups)$/)
    }
  })

  it('list pages and their keyset pages come in index order, without sorting', () => {
    // (An id prefix's few rows are read by the id index and sorted: below.)
    const pages = plans.filter(
      // A list page selects the columns it shows (store/shown-transactions.ts), seq first.
      (p) => /^select "transactions"\.("seq", |\* from "transactions")/.test(p.sql) && /limit \?/.test(p.sql) && !/"id" >= \?/.test(p.sql),
    )
    expect(pages.length).toBeGreaterThanOrEqual(14)
    for (const p of pages) expect(p.plan.join(' | '), p.sql).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/)
  })

  it('each filter and sort takes its own index', () => {
    uses(
      /where "transactions"\."company_key" = \? (and \("transactions"\."transaction_date", "transactions"\."seq"\) [<>] \(\?, \?\) )?order by "transactions"\."transaction_date"/,
      'transactions_company_date',
    )
    // (A company's date range; an account's, as the export reads it, is below.)
    uses(
      /^(?!.*"account_key" = \?).*"transactions"\."transaction_date" >= \? and "transactions"\."transaction_date" <= \? order by/,
      'transactions_company_date',
    )
    uses(/order by "transactions"\."amount"/, 'transactions_amount')
    uses(/order by "transactions"\."created_at"/, 'transactions_company_created')
    uses(/"transactions"\."account_key" = \? order by/, 'transactions_account_date')
    // An account's count reads an index of the account alone (the account stands for its company).
    for (const p of of(/count\(\*\) as "n" from "transactions" where "transactions"\."account_key" = \?$/))
      expect(p.plan.join(' | '), p.sql).toMatch(/USING COVERING INDEX transactions_(account_date|report_account)\b/)
    uses(/"transactions"\."status" = \? order by/, 'transactions_company_status_date')
    uses(/"transactions"\."category" = \? order by/, 'transactions_company_category')
    // A short id's prefix is a range of the unique id index, whatever the company's size.
    uses(/"transactions"\."id" >= \? and "transactions"\."id" <= \?/, 'transactions_id')
  })

  it("the export's pages come in date order from a date index; its balances read an index of the period", () => {
    const pages = of(
      /"transaction_date" <= \? (and \(.*\) > \(\?, \?\) )?order by "transactions"\."transaction_date" asc, "transactions"\."seq" asc/,
    )
    expect(pages.length).toBe(4)
    for (const p of pages) {
      expect(p.plan.join(' | '), p.sql).toMatch(/USING INDEX transactions_(company|account)_date\b/)
      expect(p.plan.join(' | '), p.sql).not.toMatch(/TEMP B-TREE/)
    }
    for (const p of of(/CAST\(SUM\(amount\) AS TEXT\).* "transaction_date" < \?/))
      expect(p.plan.join(' | '), p.sql).toMatch(/USING (COVERING )?INDEX transactions_/)
  })

  it('reports read covering indexes; dedup and reconciliation read the unique references', () => {
    // (The export's balances by currency are above.)
    // The reports' kept totals (migration 0018): a company's by its primary key, an account's by its index.
    for (const table of ['report_day_flows', 'report_month_groups']) {
      for (const p of of(new RegExp(`from "${table}" where "company_key" = \\?`)))
        expect(p.plan.join(' | '), p.sql).toMatch(new RegExp(`SEARCH ${table} USING PRIMARY KEY \\(company_key=\\?`))
      for (const p of of(new RegExp(`from "${table}" where "account_key" (=|in) `)))
        expect(p.plan.join(' | '), p.sql).toMatch(new RegExp(`USING (COVERING )?INDEX ${table}_account\\b`))
    }
    // An account's balance (its amounts in its currency: base_amount on an account in the base currency,
    // else its own currency's amounts), and the naming of what it leaves out, read that index alone
    // (migrations 0012, 0013): every such read, and both kinds of account.
    for (const p of of(/where "account_key" in \(\?\) and "status" != \?/))
      expect(p.plan.join(' | '), p.sql).toMatch(/USING COVERING INDEX transactions_report_account\b/)
    of(/SUM\(base_amount\).* where "account_key" in \(\?\) and "status" != \?/)
    of(/THEN amount ELSE 0 END.* where "account_key" in \(\?\) and "status" != \?/)
    of(/where "account_key" in \(\?\) and "status" != \? and "currency_code" != \? group by/)
    for (const p of of(/^select "g"\."cf"/))
      expect(p.plan.join(' | ')).toMatch(/USING COVERING INDEX transactions_report_(company|account)\b/)
    // What an opening balance holds: the days before each account's opening date, by that index.
    for (const p of of(/from "report_day_flows" where \(+"account_key" = \? and "transaction_date" < \?/))
      expect(p.plan.join(' | '), p.sql).toMatch(/USING (COVERING )?INDEX report_day_flows_account\b/)
    uses(/select "id", "import_ref" from "transactions" where "account_key" = \? and "import_ref" in/, 'transactions_import_ref')
    uses(/select "statement_ref" from "transactions" where "account_key" = \? and "statement_ref" in/, 'transactions_statement_ref')
    uses(/INDEXED BY "?transactions_statement_ref/, 'transactions_statement_ref')
    uses(/"bank_statement_id" is null and "status" != \? and "transaction_date" >= \?/, 'transactions_account_date')
    uses(/where "company_key" = \? and "id" = \?/, 'transactions_id')
  })
})

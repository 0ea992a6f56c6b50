/**
 * Migrations 0012 and 0013: transactions_report_account ends with `amount` and `currency_code`, so an
 * account's balance (in its own currency) reads that index alone. A database whose index is as
 * 0011 left it (0013 and 0012 taken back: their `down`, their records and, on SQLite, the
 * user_version) is converted in place by the next opening, on both stores: the index gains the
 * columns, every row and the balance stay, and the balance's query is covered by it.
 */
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { getBankAccount } from '../../src/domain/accounts/bank-accounts.js'
import { migrations } from '../../src/store/migrations/index.js'
import type { Store } from '../../src/store/store.js'
import { appliedMigrations, freshDatabase, seedTenant, STORES, takeBackAfter, txRow, type TestDatabase } from './fixtures.js'

/** The columns of transactions_report_account, in order. */
async function indexColumns(store: Store): Promise<string[]> {
  if (store.dialect === 'sqlite') {
    const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_index_info('transactions_report_account') ORDER BY seqno`.execute(
      store.db,
    )
    return rows.map((r) => r.name)
  }
  const { rows } = await sql<{
    def: string
  }>`SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'transactions_report_account' AND schemaname = current_schema()`.execute(
    store.db,
  )
  return (/\((.*)\)$/.exec(rows[0].def)?.[1] ?? '').split(',').map((c) => c.trim())
}

describe.each(STORES)('migrations 0012 and 0013 on %s', (kind) => {
  const opened: Array<{ database: TestDatabase; store?: Store }> = []
  afterEach(async () => {
    for (const d of opened.splice(0)) {
      await d.store?.close()
      await d.database.remove()
    }
  })

  it('add amount and currency_code to the account report index in place; rows and balances stay; the balance reads the index alone', async () => {
    const d: { database: TestDatabase; store?: Store } = { database: await freshDatabase(kind) }
    opened.push(d)
    let s = (d.store = await d.database.open())
    const t = await seedTenant(s)
    // Every tenth row in EUR at 1.5: it counts by its base amount on this USD account.
    const rows = Array.from({ length: 50 }, (_, i) =>
      i % 10 === 9
        ? txRow(t, {
            amount: 1_000 * (i + 1),
            currency_code: 'EUR',
            exchange_rate: '1.5',
            base_amount: 1_500 * (i + 1),
            import_ref: `r-${i}`,
          })
        : txRow(t, { amount: 1_000 * (i + 1), base_amount: 1_000 * (i + 1), import_ref: `r-${i}` }),
    )
    rows[3] = { ...rows[3], status: 'void' }
    await s.hot.insertTransactions(rows)
    const account = await getBankAccount(s, t.companyId, t.accountId)
    const balance = account.current_balance
    // The opening balance and every base amount that is not void.
    expect(Math.round((balance - account.opening_balance) * 100)).toBe(
      rows.filter((r) => r.status !== 'void').reduce((n, r) => n + r.base_amount, 0),
    )
    expect((await indexColumns(s)).slice(-2)).toEqual(['amount', 'currency_code'])

    // Back to the index of 0011, as a database of the release before has it.
    await takeBackAfter(s, '0011_compact_transactions')
    expect((await indexColumns(s)).at(-1)).toBe('base_amount')
    await s.close()

    s = d.store = await d.database.open()
    expect((await appliedMigrations(s)).map((m) => m.name)).toEqual(Object.keys(migrations(kind)))
    expect(await indexColumns(s)).toEqual([
      'account_key',
      'transaction_date',
      'cash_flow_category',
      'accounting_category',
      'category',
      'merchant_name',
      'status',
      'is_reconciled',
      'base_amount',
      'amount',
      'currency_code',
    ])
    expect((await getBankAccount(s, t.companyId, t.accountId)).current_balance).toBe(balance)
    const counted = await s.db
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(counted.n)).toBe(50)
    if (kind === 'sqlite') {
      const { rows: plan } = await sql<{
        detail: string
      }>`EXPLAIN QUERY PLAN SELECT account_key, sum(CASE WHEN currency_code = 'USD' THEN amount ELSE base_amount END) FROM transactions WHERE account_key IN (${t.accountKey}) AND status != 'void' GROUP BY account_key`.execute(
        s.db,
      )
      expect(plan.map((p) => p.detail).join(' | ')).toMatch(/USING COVERING INDEX transactions_report_account\b/)
    }
  })
})

/**
 * What an export reads (docs/api.md section 7): every transaction of a period in date order, in
 * keyset pages that count nothing but the first (the total rides in the cursor), with the exact
 * rate and base amount a journal needs; and each account's balance before the period, per currency,
 * for the journal's opening entry. Amounts stay integer minor units until the JSON number is made.
 */
import { countAll, groupSum, groupSumOfSign } from '../../store/fragments.js'
import type { Store } from '../../store/store.js'
import { AppError } from '../../kernel/errors.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { convertMinor, formatMinor, minorToNumber } from '../../kernel/money.js'
import { findBankAccount } from '../accounts/bank-accounts.js'
import { baseCurrency } from '../accounts/companies.js'
import { resolveRange } from '../reports/periods.js'
import { heldByOpening, opened } from '../accounts/opening.js'
import { moveHeld } from '../reports/as-of.js'
import { exact } from '../sums.js'
import { companyKey, toTransaction } from '../transaction-rows.js'
import type { Page } from '../transactions/queries.js'
import { asOfDelta } from '../reports/as-of.js'
import { accountsThen } from '../reports/as-of.js'
import { groupsThen, moment, rowsThen } from './as-of.js'
import type {
  ExportAsOf,
  ExportAsOfQuery,
  ExportGroups,
  ExportGroupsQuery,
  ExportTransaction,
  ExportTransactionsQuery,
  OpeningBalances,
  OpeningBalancesQuery,
} from './schemas.js'

/** Where a page ended (date, seq) and the period's row count, taken with the first page. */
type Cursor = [date: string, seq: number, total: number, from: string, to: string]

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url')
}

function decodeCursor(text: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor
    if (!Array.isArray(c) || typeof c[0] !== 'string' || !Number.isSafeInteger(c[1]) || !Number.isSafeInteger(c[2])) throw new Error()
    return c
  } catch {
    throw new AppError('validation_error', 'invalid cursor: pass the next_cursor of the previous page unchanged', {
      details: [{ path: 'cursor', message: 'is not a cursor of this export' }],
    })
  }
}

async function scopeOf(store: Store, companyId: string, accountId: string | undefined) {
  if (accountId === undefined) return { column: 'company_key' as const, value: await companyKey(store, companyId) }
  const account = await findBankAccount(store, companyId, accountId)
  return { column: 'account_key' as const, value: account.key, accountId: account.id }
}

export async function exportTransactions(
  store: Store,
  companyId: string,
  q: ExportTransactionsQuery,
  now: Date,
): Promise<Page<ExportTransaction>> {
  const cursor = q.cursor === undefined ? undefined : decodeCursor(q.cursor)
  // A cursor carries its period: a page walk keeps the range the first page resolved.
  const { from, to } = cursor ? { from: cursor[3], to: cursor[4] } : resolveRange(q, now)
  const limit = q.limit ?? 1000
  const scope = await scopeOf(store, companyId, q.bank_account_id)
  const db = store.db
  const inRange = db
    .selectFrom('transactions')
    .where(`transactions.${scope.column}`, '=', scope.value)
    .where('transactions.transaction_date', '>=', from)
    .where('transactions.transaction_date', '<=', to)
  let page = inRange.selectAll('transactions')
  if (cursor)
    page = page.where((eb) => eb(eb.refTuple('transactions.transaction_date', 'transactions.seq'), '>', eb.tuple(cursor[0], cursor[1])))
  const [stored, total] = await Promise.all([
    page
      .orderBy('transactions.transaction_date', 'asc')
      .orderBy('transactions.seq', 'asc')
      .limit(limit + 1)
      .execute(),
    cursor
      ? cursor[2]
      : inRange
          .select(countAll().as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n)),
  ])
  const rows = await store.tx.decode(db, stored)
  const hasMore = rows.length > limit
  const pageRows = hasMore ? rows.slice(0, limit) : rows
  const base = await baseCurrency(store, companyId)
  const last = pageRows[pageRows.length - 1]
  return {
    data: pageRows.map((r) => ({
      ...toTransaction(r),
      exchange_rate_exact: r.exchange_rate,
      base_amount: minorToNumber(Number(r.base_amount), base),
    })),
    pagination: {
      limit,
      next_cursor: hasMore && last ? encodeCursor([last.transaction_date, last.seq, total, from, to]) : null,
      has_more: hasMore,
      total,
    },
  }
}

export async function openingBalances(store: Store, companyId: string, q: OpeningBalancesQuery): Promise<OpeningBalances> {
  const base = await baseCurrency(store, companyId)
  const scope = await scopeOf(store, companyId, q.bank_account_id)
  return store.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (db) => {
      let accounts = db
        .selectFrom('bank_accounts')
        .select(['id', 'key', 'name', 'account_type', 'currency_code', 'opening_balance', 'opening_balance_date', 'opening_exchange_rate'])
        .where('company_id', '=', companyId)
      if (scope.column === 'account_key') accounts = accounts.where('key', '=', scope.value)
      // As it stood: an account opened since was not there, and its opening balance, date and rate were as then.
      if (q.as_of !== undefined) accounts = accounts.where('created_at', '<=', moment(q.as_of))
      let rows = await accounts.orderBy('created_at', 'asc').orderBy('id', 'asc').execute()
      if (q.as_of !== undefined) rows = await accountsThen(db, companyId, rows, moment(q.as_of))
      const delta =
        q.as_of === undefined ? [] : await asOfDelta(store, db, companyId, await companyKey(store, companyId), scope, base, moment(q.as_of))
      const sums = await db
        .selectFrom('transactions')
        .where(scope.column, '=', scope.value)
        .where('status', '!=', 'void')
        .where('transaction_date', '<', q.from)
        .select(['account_key', 'currency_code', groupSum('amount').as('amount'), groupSum('base_amount').as('base')])
        .groupBy(['account_key', 'currency_code'])
        .orderBy('account_key')
        .orderBy('currency_code')
        .execute()
      // The rows that differ then count as then: taken out as now, put in as then.
      for (const d of delta) {
        if (d.status === 'void' || d.transaction_date >= q.from) continue
        let s = sums.find((x) => Number(x.account_key) === d.account_key && x.currency_code === d.currency_code)
        if (!s) {
          s = { account_key: d.account_key, currency_code: d.currency_code, amount: '0', base: '0' }
          sums.push(s)
        }
        s.amount = String(exact(s.amount) + d.sign * d.amount)
        s.base = String(exact(s.base) + d.sign * d.base_amount)
      }
      const held = await heldByOpening(db, rows, base)
      if (delta.length) moveHeld(held, rows, base, delta)
      const baseExp = currencyExponent(base)
      const movement = (currency: string, amount: bigint, baseAmount: bigint) => ({
        currency_code: currency,
        amount: Number(formatMinor(amount, currencyExponent(currency))),
        base_amount: Number(formatMinor(baseAmount, baseExp)),
      })
      const out: OpeningBalances['accounts'] = []
      for (const r of rows) {
        const exp = currencyExponent(r.currency_code)
        const minor = Number(r.opening_balance)
        let openingBase: number | null = minor
        if (r.currency_code !== base && minor !== 0) {
          // The rate kept with the opening balance, as the reports convert it (accounts/opening-rate.ts).
          const rate = r.opening_exchange_rate
          openingBase = rate === null ? null : convertMinor(minor, exp, rate, baseExp)
        }
        const holds = held.get(Number(r.key))?.currencies ?? []
        // By `from` the opening balance counts, and holds what came before its date: that is left out.
        const taken = opened(r.opening_balance_date, q.from) ? holds : []
        const before = sums
          .filter((s) => Number(s.account_key) === Number(r.key))
          .map((s) => {
            const h = taken.find((x) => x.currency_code === s.currency_code)
            return { currency: s.currency_code, amount: exact(s.amount) - (h?.amount ?? 0n), base: exact(s.base) - (h?.base ?? 0n) }
          })
          .filter((m) => m.amount !== 0n || m.base !== 0n)
        out.push({
          id: r.id,
          name: r.name,
          account_type: r.account_type,
          currency_code: r.currency_code,
          opening_balance: Number(formatMinor(minor, exp)),
          opening_base: openingBase === null ? null : Number(formatMinor(openingBase, baseExp)),
          opening_balance_date: r.opening_balance_date,
          before: before.map((m) => movement(m.currency, m.amount, m.base)),
          held: holds.map((h) => movement(h.currency_code, h.amount, h.base)),
        })
      }
      return { from: q.from, currency: base, accounts: out }
    })
}

/**
 * The period's non-void transactions grouped by bank account, category, accounting and cash-flow
 * category, with their count and the sums of their positive and negative base amounts: what a DATEV,
 * SIE or SAF-T export checks against the chart and writes as balances and totals before its first row.
 */
export async function exportGroups(store: Store, companyId: string, q: ExportGroupsQuery): Promise<ExportGroups> {
  const base = await baseCurrency(store, companyId)
  const scope = await scopeOf(store, companyId, q.bank_account_id)
  const rows = await store.db
    .selectFrom('transactions')
    .where(scope.column, '=', scope.value)
    .where('status', '!=', 'void')
    .where('transaction_date', '>=', q.from)
    .where('transaction_date', '<=', q.to)
    .select([
      'account_key',
      'category',
      'accounting_category',
      'cash_flow_category',
      countAll().as('n'),
      groupSumOfSign('base_amount', 1).as('base_in'),
      groupSumOfSign('base_amount', -1).as('base_out'),
    ])
    .groupBy(['account_key', 'category', 'accounting_category', 'cash_flow_category'])
    .execute()
  const ids = new Map<number, string>()
  for (const a of await store.db.selectFrom('bank_accounts').select(['id', 'key']).where('company_id', '=', companyId).execute())
    ids.set(Number(a.key), a.id)
  const baseExp = currencyExponent(base)
  const now = rows.map((r) => ({
    bank_account_id: ids.get(Number(r.account_key)) ?? '',
    category: r.category,
    accounting_category: r.accounting_category,
    cash_flow_category: r.cash_flow_category,
    count: Number(r.n),
    base_in: Number(formatMinor(exact(r.base_in), baseExp)),
    base_out: Number(formatMinor(exact(r.base_out), baseExp)),
  }))
  const delta =
    q.as_of === undefined
      ? []
      : await asOfDelta(store, store.db, companyId, await companyKey(store, companyId), scope, base, moment(q.as_of))
  const groups = (delta.length ? groupsThen(now, delta, ids, base, q.from, q.to) : now).sort(
    (a, b) =>
      a.bank_account_id.localeCompare(b.bank_account_id) ||
      (a.category ?? '').localeCompare(b.category ?? '') ||
      (a.accounting_category ?? '').localeCompare(b.accounting_category ?? '') ||
      (a.cash_flow_category ?? '').localeCompare(b.cash_flow_category ?? ''),
  )
  return { from: q.from, to: q.to, currency: base, groups }
}

/** The transactions of a period as they stood at `as_of` (as-of.ts): those to leave out of the pages, and those to put in. */
export async function exportAsOf(store: Store, companyId: string, q: ExportAsOfQuery): Promise<ExportAsOf> {
  const base = await baseCurrency(store, companyId)
  const scope = await scopeOf(store, companyId, q.bank_account_id)
  const company = await companyKey(store, companyId)
  return rowsThen(store, store.db, companyId, company, base, {
    from: q.from,
    to: q.to,
    accountKey: scope.column === 'account_key' ? scope.value : undefined,
    asOf: q.as_of,
  })
}

/**
 * An account's balance, in the account's currency (docs/money.md): its opening balance (from its
 * opening date on: opening.ts) plus each non-void transaction counted by its amount in that currency.
 * - A transaction in the account's currency counts by its amount.
 * - One in another currency, on an account in the company's base currency, counts by its base_amount:
 *   its amount converted at its own exchange_rate, half-even, once, when it was written; the very
 *   number the reports add.
 * - One in another currency on an account that is not in the base currency has no rate into the
 *   account's currency (its rate is to the base): it is left out of the balance and named, per
 *   currency, in `unconverted` (how many, and their sum in their own currency), as the reports name
 *   an opening balance they cannot convert. Never added as if it were in the account's currency.
 * `accounts get`, `accounts list` and the summary report's balances all read them here.
 */
import type { Kysely } from 'kysely'
import { dayTotals, exactCount, exactSum, inCurrency, zeroText } from '../../store/fragments.js'
import type { Db } from '../../store/schema.js'
import { exact } from '../sums.js'

export interface Unconverted {
  currency_code: string
  count: number
  /** Their sum, in minor units of `currency_code`. */
  amount: bigint
}

export interface Movement {
  /** What the transactions add to the opening balance, in minor units of the account's currency. */
  net: bigint
  unconverted: Unconverted[]
}

export interface BalanceAccount {
  key: number
  currency_code: string
}

/** Keys per query: well under the bound parameters either dialect takes. */
const CHUNK = 500

/**
 * The movement of each account (by key), counting transactions dated up to and including `upTo`
 * when given. One query per account currency, shaped for the covering index of 0013 (account_key,
 * ..., status, ..., base_amount, amount, currency_code): GROUP BY account_key follows its order.
 */
export async function accountMovements(
  db: Kysely<Db>,
  accounts: readonly BalanceAccount[],
  base: string,
  upTo?: string,
): Promise<Map<number, Movement>> {
  const out = new Map<number, Movement>()
  const byCurrency = new Map<string, number[]>()
  for (const a of accounts) {
    out.set(a.key, { net: 0n, unconverted: [] })
    byCurrency.set(a.currency_code, [...(byCurrency.get(a.currency_code) ?? []), a.key])
  }
  for (const [currency, keys] of byCurrency) {
    // In the base currency, a transaction's base_amount is what it counts for: its amount when it is
    // in the base currency too (rate 1), its conversion otherwise. One sum, as the reports take it.
    const inBase = currency === base
    const withOthers: number[] = []
    for (let i = 0; i < keys.length; i += CHUNK) {
      let q = db
        .selectFrom('transactions')
        .where('account_key', 'in', keys.slice(i, i + CHUNK))
        .where('status', '!=', 'void')
      if (upTo !== undefined) q = q.where('transaction_date', '<=', upTo)
      const rows = await q
        .select(
          inBase
            ? ['account_key', exactSum('base_amount').as('net'), zeroText().as('others')]
            : ['account_key', inCurrency.amount(currency).as('net'), inCurrency.others(currency).as('others')],
        )
        .groupBy('account_key')
        .execute()
      for (const r of rows) {
        out.get(Number(r.account_key))!.net = exact(r.net)
        if (exact(r.others) > 0n) withOthers.push(Number(r.account_key))
      }
    }
    if (withOthers.length) await nameUnconverted(db, out, withOthers, currency, upTo)
  }
  return out
}

/**
 * The same movements as accountMovements, read from the kept day totals (store/report-totals.ts)
 * instead of the rows: what the summary report takes, up to the end of its range. With `companyKey`,
 * `accounts` are all of that company's.
 */
export async function movementsFromTotals(
  db: Kysely<Db>,
  accounts: readonly BalanceAccount[],
  base: string,
  upTo: string,
  companyKey?: number,
): Promise<Map<number, Movement>> {
  const out = new Map<number, Movement>()
  const currencyOf = new Map<number, string>()
  for (const a of accounts) {
    out.set(a.key, { net: 0n, unconverted: [] })
    currencyOf.set(a.key, a.currency_code)
  }
  const keys = [...currencyOf.keys()]
  // Every account of a company (`companyKey` given): one range of the company's totals; else by account.
  const chunks =
    companyKey === undefined
      ? Array.from({ length: Math.ceil(keys.length / CHUNK) }, (_, i) => keys.slice(i * CHUNK, (i + 1) * CHUNK))
      : [[]]
  for (const chunk of chunks) {
    const rows = await db
      .selectFrom('report_day_flows')
      .where((w) => (companyKey === undefined ? w('account_key', 'in', chunk) : w('company_key', '=', companyKey)))
      .where('transaction_date', '<=', upTo)
      .select(['account_key', 'currency_code', ...dayTotals()])
      .groupBy(['account_key', 'currency_code'])
      .orderBy('account_key')
      .orderBy('currency_code')
      .execute()
    for (const r of rows) {
      const m = out.get(Number(r.account_key))
      const currency = currencyOf.get(Number(r.account_key))
      if (m === undefined || currency === undefined) continue
      // The rule above: base_amount on an account in the base currency, else the own currency's amounts.
      if (currency === base) m.net += exact(r.base)
      else if (r.currency_code === currency) m.net += exact(r.amount)
      else if (exact(r.n) > 0n) m.unconverted.push({ currency_code: r.currency_code, count: Number(exact(r.n)), amount: exact(r.amount) })
    }
  }
  return out
}

/** The transactions left out of the balances of `keys` (accounts in `currency`, not the base), per currency. */
async function nameUnconverted(
  db: Kysely<Db>,
  out: Map<number, Movement>,
  keys: number[],
  currency: string,
  upTo: string | undefined,
): Promise<void> {
  for (let i = 0; i < keys.length; i += CHUNK) {
    let q = db
      .selectFrom('transactions')
      .where('account_key', 'in', keys.slice(i, i + CHUNK))
      .where('status', '!=', 'void')
      .where('currency_code', '!=', currency)
    if (upTo !== undefined) q = q.where('transaction_date', '<=', upTo)
    const rows = await q
      .select(['account_key', 'currency_code', exactCount().as('n'), exactSum('amount').as('amount')])
      .groupBy(['account_key', 'currency_code'])
      .orderBy('account_key')
      .orderBy('currency_code')
      .execute()
    for (const r of rows) {
      out.get(Number(r.account_key))!.unconverted.push({
        currency_code: r.currency_code,
        count: Number(exact(r.n)),
        amount: exact(r.amount),
      })
    }
  }
}

/**
 * A transaction's amount in its account's currency (minor units), by the rule above: what a
 * statement line of the account is compared with. Undefined for a transaction left out (unconverted).
 */
export function amountInAccount(
  t: { amount: number; currency_code: string; base_amount: number },
  accountCurrency: string,
  base: string,
): number | undefined {
  if (t.currency_code === accountCurrency) return Number(t.amount)
  return accountCurrency === base ? Number(t.base_amount) : undefined
}

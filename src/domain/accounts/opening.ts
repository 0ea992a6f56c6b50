/**
 * Opening balances hold at their date (docs/money.md): an account's opening balance is
 * its balance at the start of its opening date. It counts from the start of that day on; at an end
 * of day before it, it does not count yet. An account without an opening date counts it from the
 * beginning, as before.
 *
 * No transaction may be dated before the opening date (`checkOpened`, on every write). Transactions
 * written before that rule and dated before it stay: the opening balance, stated at its date, holds
 * them ("held"), so from the opening date on the balance is the opening balance plus what is dated
 * since, and before it the held transactions alone. Every view counts by `balanceOf`.
 */
import type { Kysely } from 'kysely'
import { dayTotals } from '../../store/fragments.js'
import type { Db } from '../../store/schema.js'
import { exact } from '../sums.js'
import type { BalanceAccount, Movement, Unconverted } from './balances.js'
import { opened } from './opening-date.js'

export { beforeOpening, checkOpened, opened } from './opening-date.js'

export interface OpeningAccount extends BalanceAccount {
  /** Minor units of the account's currency. */
  opening_balance: number | bigint
  opening_balance_date: string | null
}

/** The non-void transactions dated before an account's opening date, which its opening balance holds. */
export interface Held extends Movement {
  count: number
  /** Their base amounts' sum, in minor units of the base currency (what the reports counted them for). */
  base: bigint
  /** Per currency they are in: their amounts' sum (minor units of it) and their base amounts'. */
  currencies: Array<{ currency_code: string; amount: bigint; base: bigint }>
}

/** Pairs of (account, opening date) per query: well under the bound parameters either dialect takes. */
const CHUNK = 200

/**
 * What each account's opening balance holds, by key (only accounts that hold something), from the
 * kept day totals (store/report-totals.ts: void rows left out, every write path keeps them).
 * Counted in the account's currency by balances.ts's rule.
 */
export async function heldByOpening(db: Kysely<Db>, accounts: readonly OpeningAccount[], base: string): Promise<Map<number, Held>> {
  const dated = accounts.filter((a) => a.opening_balance_date !== null)
  const out = new Map<number, Held>()
  const currencyOf = new Map(dated.map((a) => [Number(a.key), a.currency_code]))
  for (let i = 0; i < dated.length; i += CHUNK) {
    const chunk = dated.slice(i, i + CHUNK)
    const rows = await db
      .selectFrom('report_day_flows')
      .where((w) => w.or(chunk.map((a) => w.and([w('account_key', '=', a.key), w('transaction_date', '<', a.opening_balance_date!)]))))
      .select(['account_key', 'currency_code', ...dayTotals()])
      .groupBy(['account_key', 'currency_code'])
      .orderBy('account_key')
      .orderBy('currency_code')
      .execute()
    for (const r of rows) {
      const key = Number(r.account_key)
      const n = Number(exact(r.n))
      if (n === 0) continue
      const h = out.get(key) ?? { count: 0, net: 0n, unconverted: [], base: 0n, currencies: [] }
      out.set(key, h)
      const currency = currencyOf.get(key)!
      h.count += n
      h.base += exact(r.base)
      h.currencies.push({ currency_code: r.currency_code, amount: exact(r.amount), base: exact(r.base) })
      if (currency === base) h.net += exact(r.base)
      else if (r.currency_code === currency) h.net += exact(r.amount)
      else h.unconverted.push({ currency_code: r.currency_code, count: n, amount: exact(r.amount) })
    }
  }
  return out
}

/**
 * An account's balance in its currency at the end of `day` (with every transaction when no day is
 * given: `current_balance`), from its movement up to then (balances.ts) and what its opening balance
 * holds. Before the opening date: the transactions alone (none, but for those written before the rule).
 */
export function balanceOf(a: OpeningAccount, moved: Movement, held: Held | undefined, day?: string): Movement {
  if (day !== undefined && !opened(a.opening_balance_date, day)) return moved
  const opening = BigInt(a.opening_balance)
  if (!held) return { net: opening + moved.net, unconverted: moved.unconverted }
  return { net: opening + moved.net - held.net, unconverted: without(moved.unconverted, held.unconverted) }
}

/** `list` less `taken`, per currency; currencies left with nothing dropped. */
function without(list: readonly Unconverted[], taken: readonly Unconverted[]): Unconverted[] {
  return list
    .map((u) => {
      const t = taken.find((x) => x.currency_code === u.currency_code)
      return t ? { ...u, count: u.count - t.count, amount: u.amount - t.amount } : u
    })
    .filter((u) => u.count !== 0)
}

/**
 * The balances a SIE or SAF-T file states before its first entry (#IB/#UB/#RES; SAF-T's opening and
 * closing balances and its totals), worked out from the period's groups and the bank accounts'
 * positions at its start, before a row is read: the rows then stream. Exact, in base minor units.
 */
import type { ExportGroups } from '../schemas.js'
import { minorOf } from './amounts.js'
import type { ChartAccount, ChartMap, Positions } from './chart.js'

export interface AccountBalance {
  account: ChartAccount
  /** At the start of the period. */
  opening: bigint
  /** What the period's entries move. */
  movement: bigint
  /** A balance-sheet account (SIE's #IB/#UB) rather than a result account (#RES). */
  balance: boolean
}

export interface ChartBalances {
  /** Every account the file names, by number. */
  accounts: AccountBalance[]
  /** Entries the file holds: the non-void transactions, and the opening balances brought in during the period. */
  entries: number
  /** The sum of every entry's debit side (= its credit side). */
  debit: bigint
}

/**
 * Whether a category's account is a balance-sheet account, by its chart's classes: BAS and the
 * Norwegian accounts 1 and 2 (and any chart not named); SKR03 0, 1 and 9; SKR04 0 to 3 and 9.
 */
export function isBalanceNumber(number: string, chart: string | undefined): boolean {
  const c = number[0]
  if (chart === 'skr03') return c === '0' || c === '1' || c === '9'
  if (chart === 'skr04') return c === '0' || c === '1' || c === '2' || c === '3' || c === '9'
  return c === '1' || c === '2'
}

const byNumber = (a: AccountBalance, b: AccountBalance) => a.account.number.localeCompare(b.account.number, 'en', { numeric: true })

export function chartBalances(chart: ChartMap, groups: ExportGroups['groups'], pos: Positions, base: string): ChartBalances {
  const accounts = new Map<string, AccountBalance>()
  const at = (a: ChartAccount | undefined, role: 'bank' | 'opening' | 'counter' = 'counter'): AccountBalance => {
    if (!a) throw new Error('an account without a number reached the balances (the map was checked before)')
    const had = accounts.get(a.number)
    if (had) {
      if (role !== 'counter') had.balance = true
      return had
    }
    const b = { account: a, opening: 0n, movement: 0n, balance: role !== 'counter' || isBalanceNumber(a.number, chart.file.chart) }
    accounts.set(a.number, b)
    return b
  }
  let entries = 0
  let debit = 0n
  let openingTotal = 0n
  for (const [id, minor] of pos.start) {
    if (minor === 0n) continue
    at(chart.bank(id), 'bank').opening += minor
    openingTotal += minor
  }
  if (openingTotal !== 0n) at(chart.opening, 'opening').opening -= openingTotal
  for (const l of pos.later) {
    at(chart.bank(l.bankId), 'bank').movement += l.base
    at(chart.opening, 'opening').movement -= l.base
    entries++
    debit += l.base < 0n ? -l.base : l.base
  }
  for (const g of groups) {
    const inMinor = BigInt(minorOf(g.base_in, base))
    const outMinor = BigInt(minorOf(g.base_out, base))
    at(chart.bank(g.bank_account_id), 'bank').movement += inMinor + outMinor
    if (g.category === null && !g.accounting_category) {
      if (inMinor !== 0n) at(chart.counter({ ...g, amount: 1 }).account).movement -= inMinor
      if (outMinor !== 0n || inMinor === 0n) at(chart.counter({ ...g, amount: -1 }).account).movement -= outMinor
    } else at(chart.counter({ ...g, amount: 0 }).account).movement -= inMinor + outMinor
    entries += g.count
    debit += inMinor - outMinor
  }
  return { accounts: [...accounts.values()].sort(byNumber), entries, debit }
}

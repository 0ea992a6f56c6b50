/**
 * A running balance as evidence: whether a column moves, from one row to the next, by exactly the
 * amounts a reading of the file gives. A bank writes the balance after each row (or, as ASN, before
 * it), its rows oldest or newest first; a row without a balance (a pending one) carries its amount
 * to the next row that has one; rows of another currency or account chain on their own. The plan
 * chooses a reading by it (money-readings.ts) and the map stage checks every row with it.
 */

/** Where the balance stands against its row's amount, and the order of the rows. */
export type ChainOrder = 'after, oldest first' | 'after, newest first' | 'before, oldest first' | 'before, newest first'

export const CHAIN_ORDERS: readonly ChainOrder[] = [
  'after, oldest first',
  'after, newest first',
  'before, oldest first',
  'before, newest first',
]

/**
 * How a balance moves with money in: `held` (a bank account's balance rises), `owed` (a card's or
 * a loan's balance owed falls when money comes in).
 */
export type BalanceSense = 'held' | 'owed'

export interface ChainBreak {
  line: number
  /** The balance the amounts lead to, and the one the row writes (both in the chain's units). */
  expected: number
  found: number
}

export interface ChainResult {
  order: ChainOrder
  /** Pairs of rows with a balance each that were compared, and those that chain. */
  pairs: number
  held: number
  firstBreak?: ChainBreak
}

interface GroupState {
  /** The first and the last row with a balance: what it shows, and how far that row moved it. */
  first?: { balance: number; moved: number }
  last?: { balance: number; moved: number }
  /** The last balance seen, or undefined before the first (or after a row without an amount). */
  prev?: number
  /** Amounts of the rows after the last balance up to this one (after-window) and from it up to the one before (before-window). */
  sinceAfter: number
  sinceBefore: number
}

/** One order's tally. */
interface Tally {
  order: ChainOrder
  pairs: number
  held: number
  firstBreak?: ChainBreak
}

/** Follows the rows of a file in its order, for every order asked, and counts the pairs that chain. */
export class ChainCheck {
  private readonly groups = new Map<string, GroupState>()
  private readonly tallies: Tally[]
  private readonly sign: 1 | -1

  constructor(orders: readonly ChainOrder[], sense: BalanceSense = 'held') {
    this.tallies = orders.map((order) => ({ order, pairs: 0, held: 0 }))
    this.sign = sense === 'held' ? 1 : -1
  }

  /**
   * One row: its amount as money into the account (undefined: the row has none readable, which
   * breaks the chain there and starts it again), its balance (undefined: the row shows none) and
   * its group (a currency or an account of a file of several).
   */
  add(line: number, amount: number | undefined, balance: number | undefined, group = ''): void {
    let g = this.groups.get(group)
    if (!g) {
      g = { sinceAfter: 0, sinceBefore: 0 }
      this.groups.set(group, g)
    }
    if (amount === undefined) {
      g.prev = undefined
      return
    }
    const moved = this.sign * amount
    g.sinceAfter += moved
    if (balance !== undefined && g.prev !== undefined) {
      for (const t of this.tallies) {
        const expected = g.prev + expectedMove(t.order, g.sinceAfter, g.sinceBefore)
        t.pairs++
        if (expected === balance) t.held++
        else t.firstBreak ??= { line, expected, found: balance }
      }
    }
    if (balance !== undefined) {
      g.first ??= { balance, moved }
      g.last = { balance, moved }
      g.prev = balance
      g.sinceAfter = 0
      g.sinceBefore = moved
    } else g.sinceBefore += moved
  }

  /**
   * The balances before the first row and after the last one, as money held (an owed balance turned
   * round), in the first order asked; undefined for a file of several groups.
   */
  ends(): { opening: number; closing: number } | undefined {
    if (this.groups.size !== 1 || !this.tallies[0]) return undefined
    const g = [...this.groups.values()][0]
    if (!g.first || !g.last) return undefined
    const { first, last } = g
    const [opening, closing] = {
      'after, oldest first': [first.balance - first.moved, last.balance],
      'after, newest first': [last.balance - last.moved, first.balance],
      'before, oldest first': [first.balance, last.balance + last.moved],
      'before, newest first': [last.balance, first.balance + first.moved],
    }[this.tallies[0].order]
    return { opening: this.sign * opening, closing: this.sign * closing }
  }

  /** Where the first order asked broke first, without building the results. */
  get firstBreak(): ChainBreak | undefined {
    return this.tallies[0]?.firstBreak
  }

  results(): ChainResult[] {
    return this.tallies.map((t) => ({
      order: t.order,
      pairs: t.pairs,
      held: t.held,
      ...(t.firstBreak ? { firstBreak: t.firstBreak } : {}),
    }))
  }
}

/**
 * How far the balance moves from the last one written to this row's: oldest first, by the rows
 * after the last balance up to this one (balance after each row) or from it up to the one before
 * (balance before); newest first, the same backwards.
 */
function expectedMove(order: ChainOrder, sinceAfter: number, sinceBefore: number): number {
  switch (order) {
    case 'after, oldest first':
      return sinceAfter
    case 'before, oldest first':
      return sinceBefore
    case 'after, newest first':
      return -sinceBefore
    case 'before, newest first':
      return -sinceAfter
  }
}

/** The orders the dates allow: oldest first when they rise, newest first when they fall, all when they do not tell. */
export function ordersOfDates(dates: Array<string | null>): readonly ChainOrder[] {
  let rising = 0
  let falling = 0
  let last: string | undefined
  for (const d of dates) {
    if (!d) continue
    if (last !== undefined) {
      if (d > last) rising++
      else if (d < last) falling++
    }
    last = d
  }
  if (rising > 0 && falling === 0) return CHAIN_ORDERS.filter((o) => o.endsWith('oldest first'))
  if (falling > 0 && rising === 0) return CHAIN_ORDERS.filter((o) => o.endsWith('newest first'))
  return CHAIN_ORDERS
}

/** Whether a chain is evidence of a running balance: two pairs at least, four in five of them chaining. */
export function chains(r: ChainResult): boolean {
  return r.held >= 2 && r.held * 5 >= r.pairs * 4
}

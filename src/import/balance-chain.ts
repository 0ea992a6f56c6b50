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
  /** The last balance the chain holds at, or undefined before the first (or after a row without an amount). */
  prev?: number
  /** Amounts of the rows after the last balance up to this one (after-window) and from it up to the one before (before-window). */
  sinceAfter: number
  sinceBefore: number
  /** The day of the rows being read, the balance the day starts from (at its edge), and each of its rows' balance before and after it. */
  day?: string
  edge?: number
  rows: Array<{ before: number; after: number }>
  /** A row of this day the chain broke on, kept until the day's edges say whether its rows merely stand in another order. */
  pending?: ChainBreak
  /** The last row with a balance, where the chain starts again after a day that does not hold. */
  lastRow?: { balance: number; moved: number }
  /** Pairs of rows compared inside this day, and those that chained as they stand. */
  dayPairs: number
  dayHeld: number
  /** Some day's rows stood in another order than the balance moved: the file's ends are not its first and last row's. */
  reordered?: boolean
}

/** One order's tally, and its chain in each group of rows. */
interface Tally {
  order: ChainOrder
  pairs: number
  held: number
  firstBreak?: ChainBreak
  groups: Map<string, GroupState>
}

/** Rows of one day kept to check its edges: past them, a break inside the day is final. */
const DAY_ROWS = 10_000

/**
 * Follows the rows of a file in its order, for every order asked, and counts the pairs that chain.
 * Rows of one day in another order than the bank booked them (a file sorted again by date) break
 * the chain inside the day only: such a day holds when its balances do as a set, each row's balance
 * before it the one after another row, but for the day's first (the balance it starts from) and last.
 */
export class ChainCheck {
  private readonly tallies: Tally[]
  private readonly sign: 1 | -1

  constructor(orders: readonly ChainOrder[], sense: BalanceSense = 'held') {
    this.tallies = orders.map((order) => ({ order, pairs: 0, held: 0, groups: new Map() }))
    this.sign = sense === 'held' ? 1 : -1
  }

  /**
   * One row: its amount as money into the account (undefined: the row has none readable, which
   * breaks the chain there and starts it again), its balance (undefined: the row shows none), its
   * group (a currency or an account of a file of several) and its day (ISO date, when known).
   */
  add(line: number, amount: number | undefined, balance: number | undefined, group = '', day?: string): void {
    for (const t of this.tallies) this.follow(t, line, amount, balance, group, day)
  }

  /** The rows are over: a day still open is judged by its edges. */
  end(): void {
    for (const t of this.tallies) for (const g of t.groups.values()) this.closeDay(t, g)
  }

  private follow(t: Tally, line: number, amount: number | undefined, balance: number | undefined, group: string, day?: string): void {
    let g = t.groups.get(group)
    if (!g) {
      g = { sinceAfter: 0, sinceBefore: 0, rows: [], dayPairs: 0, dayHeld: 0 }
      t.groups.set(group, g)
    }
    if (day !== g.day) {
      this.closeDay(t, g)
      g.day = day
      g.edge = g.prev
      g.rows = []
      g.dayPairs = 0
      g.dayHeld = 0
    }
    if (amount === undefined) {
      if (g.pending) this.settle(t, g, false)
      g.prev = undefined
      g.edge = undefined
      return
    }
    const moved = this.sign * amount
    g.sinceAfter += moved
    const after = t.order.startsWith('after')
    if (balance === undefined) {
      // A row without a balance inside a day that broke: the day's edges cannot be told.
      if (g.pending) g.rows.length = DAY_ROWS + 1
      g.sinceBefore += moved
      return
    }
    if (g.rows.length <= DAY_ROWS)
      g.rows.push(after ? { before: balance - moved, after: balance } : { before: balance, after: balance + moved })
    g.lastRow = { balance, moved }
    let anchor = true
    if (g.prev !== undefined) {
      const expected = g.prev + expectedMove(t.order, g.sinceAfter, g.sinceBefore)
      t.pairs++
      g.dayPairs++
      if (expected === balance) {
        t.held++
        g.dayHeld++
      } else if (day !== undefined && after) {
        // Inside a day the rows may stand in another order: judged when the day ends.
        g.pending ??= { line, expected, found: balance }
        anchor = false
      } else t.firstBreak ??= { line, expected, found: balance }
    }
    if (anchor && !g.pending) {
      g.first ??= { balance, moved }
      g.last = { balance, moved }
      g.prev = balance
      g.sinceAfter = 0
      g.sinceBefore = moved
    } else g.sinceBefore += moved
  }

  /** The day of a group ends: a break inside it stands unless its balances hold as a set from its edge. */
  private closeDay(t: Tally, g: GroupState): void {
    if (!g.pending) return
    const ends = g.rows.length <= DAY_ROWS ? dayEnds(g.rows) : undefined
    const oldest = t.order.endsWith('oldest first')
    // Oldest first the day starts from the edge and ends at its last balance; newest first the other way round.
    // The file's first day has no edge before it: its balances holding as a set is all there is to check.
    const holds = ends !== undefined && (g.edge === undefined || (oldest ? ends.start === g.edge : ends.end === g.edge))
    this.settle(t, g, holds)
    if (holds && ends) {
      const at = oldest ? ends.end : ends.start
      g.prev = at
      g.sinceAfter = 0
      g.sinceBefore = 0
      g.last = { balance: at, moved: 0 }
      g.reordered = true
    } else if (g.lastRow) {
      // A break stands: the chain starts again at the day's last balance, as after any break.
      g.prev = g.lastRow.balance
      g.sinceAfter = 0
      g.sinceBefore = g.lastRow.moved
    }
  }

  private settle(t: Tally, g: GroupState, holds: boolean): void {
    if (!g.pending) return
    if (holds) t.held += g.dayPairs - g.dayHeld
    else t.firstBreak ??= g.pending
    g.pending = undefined
  }

  /**
   * The balances before the first row and after the last one, as money held (an owed balance turned
   * round), in the first order asked; undefined for a file of several groups or days in another order.
   */
  ends(): { opening: number; closing: number } | undefined {
    const t = this.tallies[0]
    if (t?.groups.size !== 1) return undefined
    const g = [...t.groups.values()][0]
    if (!g.first || !g.last || g.reordered) return undefined
    const { first, last } = g
    const [opening, closing] = {
      'after, oldest first': [first.balance - first.moved, last.balance],
      'after, newest first': [last.balance - last.moved, first.balance],
      'before, oldest first': [first.balance, last.balance + last.moved],
      'before, newest first': [last.balance, first.balance + first.moved],
    }[t.order]
    return { opening: this.sign * opening, closing: this.sign * closing }
  }

  /** Where the first order asked broke first, without building the results (a day still open not judged yet). */
  get firstBreak(): ChainBreak | undefined {
    return this.tallies[0]?.firstBreak
  }

  results(): ChainResult[] {
    this.end()
    return this.tallies.map((t) => ({
      order: t.order,
      pairs: t.pairs,
      held: t.held,
      ...(t.firstBreak ? { firstBreak: t.firstBreak } : {}),
    }))
  }
}

/**
 * A day's first balance and last, when its rows' balances hold as a set: each row's balance
 * before it is another's after it, but for one (where the day starts) and one after (where it ends).
 */
function dayEnds(rows: Array<{ before: number; after: number }>): { start: number; end: number } | undefined {
  const count = new Map<number, number>()
  for (const r of rows) {
    count.set(r.before, (count.get(r.before) ?? 0) + 1)
    count.set(r.after, (count.get(r.after) ?? 0) - 1)
  }
  let start: number | undefined
  let end: number | undefined
  for (const [value, n] of count) {
    if (n === 0) continue
    if (n === 1 && start === undefined) start = value
    else if (n === -1 && end === undefined) end = value
    else return undefined
  }
  return start !== undefined && end !== undefined ? { start, end } : undefined
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

/**
 * A running balance as evidence (src/import/balance-chain.ts): whether a column follows the amounts
 * from row to row, the balance after each row or before it, the rows oldest or newest first, a row
 * without a balance carried to the next, groups apart, a balance owed, and a day whose rows stand in
 * another order than the bank booked them (a file sorted again by date).
 */
import { describe, expect, it } from 'vitest'
import { CHAIN_ORDERS, ChainCheck, chains, ordersOfDates, type ChainOrder } from '../../src/import/balance-chain.js'

type Row = [amount: number | undefined, balance: number | undefined, day?: string, group?: string]

function run(rows: Row[], orders: readonly ChainOrder[] = CHAIN_ORDERS, sense: 'held' | 'owed' = 'held') {
  const c = new ChainCheck(orders, sense)
  rows.forEach(([a, b, day, group], i) => {
    c.add(i + 1, a, b, group, day)
  })
  return { results: Object.fromEntries(c.results().map((r) => [r.order, r])), ends: c.ends() }
}

describe('a running balance', () => {
  it('after each row, oldest first: every pair chains, and the ends are the balances around the file', () => {
    const r = run(
      [
        [-485, 249515],
        [215000, 464515],
        [-30000, 434515],
      ],
      ['after, oldest first'],
    )
    expect(r.results['after, oldest first']).toEqual({ order: 'after, oldest first', pairs: 2, held: 2 })
    expect(r.ends).toEqual({ opening: 250000, closing: 434515 })
  })

  it('newest first, before each row (ASN), and a balance owed each chain in their own order only', () => {
    const newest = run([
      [-3890, 629353],
      [41280, 633243],
      [-9600, 591963],
    ])
    expect(newest.results['after, newest first'].held).toBe(2)
    expect(newest.results['after, oldest first'].held).toBe(0)
    const before = run([
      [-2500, 125000],
      [-350, 122500],
      [210000, 122150],
    ])
    expect(before.results['before, oldest first'].held).toBe(2)
    // A card: a charge of 56.20 raises the balance owed.
    const owed = run(
      [
        [-5620, 47620],
        [-7105, 54725],
        [42000, 12725],
      ],
      ['after, oldest first'],
      'owed',
    )
    expect(owed.results['after, oldest first'].held).toBe(2)
    expect(owed.ends).toEqual({ opening: -42000, closing: -12725 })
  })

  it('a break is named by its line and both figures; a row without a balance carries its amount to the next', () => {
    const r = run(
      [
        [-100, 900],
        [-50, undefined],
        [-25, 825],
        [10, 845],
      ],
      ['after, oldest first'],
    )
    expect(r.results['after, oldest first']).toEqual({
      order: 'after, oldest first',
      pairs: 2,
      held: 1,
      firstBreak: { line: 4, expected: 835, found: 845 },
    })
  })

  it('rows of two currencies chain each on their own', () => {
    const r = run(
      [
        [100, 1100, undefined, 'EUR'],
        [-5, 95, undefined, 'USD'],
        [-100, 1000, undefined, 'EUR'],
        [5, 100, undefined, 'USD'],
      ],
      ['after, oldest first'],
    )
    expect(r.results['after, oldest first']).toMatchObject({ pairs: 2, held: 2 })
  })

  it('a day whose rows stand in another order holds when its balances do as a set; a file sorted again by date holds', () => {
    // Booked 10, 20, 30 on 03-02 (balances 115, 135, 165); the file lists them 30, 10, 20.
    const day = run(
      [
        [5, 105, '2026-03-01'],
        [30, 165, '2026-03-02'],
        [10, 115, '2026-03-02'],
        [20, 135, '2026-03-02'],
        [-35, 130, '2026-03-03'],
      ],
      ['after, oldest first'],
    )
    // Row by row 105 + 30 is 135, not the 165 the row writes; as a set the day holds: 105->115, 115->135, 135->165.
    expect(day.results['after, oldest first']).toMatchObject({ pairs: 4, held: 4 })
    expect(day.results['after, oldest first'].firstBreak).toBeUndefined()
    expect(day.ends).toBeUndefined()
    // A newest-first export sorted by date, oldest first, in a spreadsheet: each day's rows still newest first.
    const sorted = run(
      [
        [-20, 980, '2026-03-01'],
        [-10, 1000, '2026-03-01'],
        [50, 1040, '2026-03-02'],
        [10, 990, '2026-03-02'],
      ],
      ['after, oldest first'],
    )
    expect(sorted.results['after, oldest first'].firstBreak).toBeUndefined()
  })

  it('a day whose balances do not hold even as a set is a break, at its first row that broke', () => {
    const r = run(
      [
        [5, 105, '2026-03-01'],
        [30, 165, '2026-03-02'],
        [10, 115, '2026-03-02'],
        [21, 135, '2026-03-02'],
        [-35, 130, '2026-03-03'],
      ],
      ['after, oldest first'],
    )
    expect(r.results['after, oldest first'].firstBreak).toEqual({ line: 2, expected: 135, found: 165 })
  })

  it('the dates say the order; evidence needs two pairs, four in five chaining', () => {
    expect(ordersOfDates(['2026-03-01', '2026-03-01', '2026-03-02'])).toEqual(['after, oldest first', 'before, oldest first'])
    expect(ordersOfDates(['2026-03-02', '2026-03-01'])).toEqual(['after, newest first', 'before, newest first'])
    expect(ordersOfDates(['2026-03-02', '2026-03-01', '2026-03-05'])).toEqual(CHAIN_ORDERS)
    expect(chains({ order: 'after, oldest first', pairs: 1, held: 1 })).toBe(false)
    expect(chains({ order: 'after, oldest first', pairs: 5, held: 4 })).toBe(true)
    expect(chains({ order: 'after, oldest first', pairs: 5, held: 3 })).toBe(false)
  })
})

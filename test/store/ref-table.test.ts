/** The bulk load's in-memory table of import_refs (ref-table.ts) and the slot arithmetic it shares with the occurrence counter. */
import { describe, expect, it } from 'vitest'
import { firstSlot, overFull, slotsFor } from '../../src/kernel/hash-slots.js'
import { RefTable, refHash } from '../../src/store/ref-table.js'

describe('hash slots', () => {
  it('sizes a table two thirds full with its entries, so that an eighth more still fit; at least 1,024 slots, any length', () => {
    expect(slotsFor(0)).toBe(1024)
    expect(slotsFor(1_000_000)).toBe(1_500_000)
    for (const n of [1, 682, 683, 5000, 997_814, 1_000_000, 3_000_001]) {
      const slots = slotsFor(n)
      expect(overFull(n, slots), `${n}`).toBe(false)
      // An estimate short by an eighth: the table does not grow.
      expect(overFull(Math.floor((n * 9) / 8), slots), `${n}`).toBe(false)
      // Past three quarters it is full.
      expect(overFull(Math.floor((slots * 3) / 4) + 1, slots), `${n}`).toBe(true)
    }
  })

  it('puts every 32-bit hash in a slot of the table, the highest ones too', () => {
    for (const slots of [1024, 1_333_334, 2 ** 31 - 1, 2 ** 32 - 1]) {
      for (const h of [0, 1, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, -1]) {
        const i = firstSlot(h, slots)
        expect(Number.isInteger(i)).toBe(true)
        expect(i).toBeGreaterThanOrEqual(0)
        expect(i).toBeLessThan(slots)
      }
    }
    // Spread: hashes over the whole range land over the whole table.
    expect(firstSlot(0, 1000)).toBe(0)
    expect(firstSlot(0xffffffff, 1000)).toBe(999)
    expect(firstSlot(0x80000000, 1000)).toBe(500)
  })
})

describe('RefTable', () => {
  it('finds each ref it holds, confirms it by its row, and answers 0 for refs it does not hold', () => {
    const n = 50_000
    const refs = Array.from({ length: n }, (_, i) => `REF${i}`)
    // Sized for fewer than it gets: it grows on the way.
    const t = new RefTable(1000)
    for (const [i, r] of refs.entries()) t.add(refHash(r), i + 1)
    expect(t.size).toBe(n)
    const same = (seq: number, ref: string) => refs[seq - 1] === ref
    for (let i = 0; i < n; i += 13) expect(t.find(refHash(refs[i]), refs[i], same)).toBe(i + 1)
    for (let i = n; i < n + 2000; i++) expect(t.find(refHash(`REF${i}`), `REF${i}`, same)).toBe(0)
  })

  it('tells apart two refs that share a hash, by the row each slot names', () => {
    const t = new RefTable()
    const h = refHash('a')
    t.add(h, 7)
    t.add(h, 9)
    const refsBySeq = new Map([
      [7, 'a'],
      [9, 'not a, same hash'],
    ])
    const same = (seq: number, ref: string) => refsBySeq.get(seq) === ref
    expect(t.find(h, 'not a, same hash', same)).toBe(9)
    expect(t.find(h, 'a', same)).toBe(7)
    expect(t.find(h, 'b', same)).toBe(0)
  })

  it('refuses a seq that does not fit its 32 bits', () => {
    const t = new RefTable()
    expect(() => t.add(1, 0)).toThrow(RangeError)
    expect(() => t.add(1, 2 ** 32)).toThrow(RangeError)
  })
})

import { describe, expect, it } from 'vitest'
import { z } from 'zod'

// A copy of the module of this file's own (its URL differs by the query): its clock, the last
// millisecond and counter, starts at nought, whatever ids the files before made in this worker, and
// the far times below stay out of theirs (the shared project of vitest.config.ts, isolate: false).
const ownCopy = '../../src/kernel/ids.js?own-clock'
const { uuidv7 } = (await import(ownCopy)) as typeof import('../../src/kernel/ids.js')

describe('uuidv7', () => {
  it('is an RFC 9562 version 7 UUID that carries its millisecond', () => {
    const t = Date.UTC(2026, 10, 22, 12, 0, 0)
    const id = uuidv7(t)
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(z.uuid().safeParse(id).success).toBe(true)
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(t)
  })

  it('each id carries its own millisecond as the time moves on, its counter in the version group', () => {
    // In 2027 (later than any id made before in this file), across a carry out of the first group's
    // last digits (…ffff -> …0000).
    const base = 0x1a2_ffff_fffe
    for (let i = 0; i < 6; i++) {
      const t = base + i
      const id = uuidv7(t)
      expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16), id).toBe(t)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    }
    // Within one millisecond the counter (12 bits after the version) counts up by one.
    const t = base + 100
    const counters = Array.from({ length: 50 }, () => parseInt(uuidv7(t).slice(15, 18), 16))
    for (let i = 1; i < counters.length; i++) expect(counters[i]).toBe((counters[i - 1] + 1) & 0xfff)
  })

  it('ids made one after another sort in the order they were made, also within one millisecond', () => {
    const t = Date.now() + 10_000
    const ids = Array.from({ length: 5000 }, () => uuidv7(t))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('carries fresh random bits in every id (62 of them after the variant), across pool refills', () => {
    const ids = Array.from({ length: 3000 }, (_, i) => uuidv7(Date.UTC(2026, 0, 1) + i))
    const randB = ids.map((id) => id.slice(19))
    expect(new Set(randB).size).toBe(ids.length)
    // Every hex digit position of rand_b takes many values: the bytes are not left zero or constant.
    for (let pos = 1; pos < 17; pos++) {
      if (randB[0][pos] === '-') continue
      expect(new Set(randB.map((r) => r[pos])).size).toBeGreaterThan(8)
    }
  })
})

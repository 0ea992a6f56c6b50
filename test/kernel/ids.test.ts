import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { uuidv7 } from '../../src/kernel/ids.js'

describe('uuidv7', () => {
  it('is an RFC 9562 version 7 UUID that carries its millisecond', () => {
    const t = Date.UTC(2026, 10, 22, 12, 0, 0)
    const id = uuidv7(t)
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(z.uuid().safeParse(id).success).toBe(true)
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(t)
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

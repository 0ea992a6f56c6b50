import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { bitsOf, OccurrenceCounter } from '../../src/import/occurrences.js'

const digest = (s: string) => createHash('sha256').update(s).digest('base64url')

describe('OccurrenceCounter', () => {
  it('numbers identical identities 1, 2, 3 and keeps each identity apart, through many growths', () => {
    const c = new OccurrenceCounter()
    const n = 50_000
    for (let i = 0; i < n; i++) expect(c.next(digest(`row ${i}`))).toBe(1)
    for (let i = 0; i < n; i += 7) expect(c.next(digest(`row ${i}`))).toBe(2)
    expect(c.next(digest('row 0'))).toBe(3)
    expect(c.next(digest('row 1'))).toBe(2)
    expect(c.size).toBe(n)
  })

  it('holds the rows it is sized for without growing, and grows past them', () => {
    const n = 100_000
    const c = new OccurrenceCounter(n)
    const slots = c.slots
    expect(slots * 3).toBeGreaterThanOrEqual(n * 4)
    expect(slots).toBeLessThan((n * 8) / 3)
    for (let i = 0; i < n; i++) c.next(digest(`row ${i}`))
    expect(c.slots).toBe(slots)
    for (let i = n; c.size * 4 <= slots * 3; i++) c.next(digest(`row ${i}`))
    expect(c.slots).toBe(slots * 2)
    for (let i = 0; i < n; i += 997) expect(c.next(digest(`row ${i}`))).toBe(2)
    // Unsized, it starts small.
    expect(new OccurrenceCounter().slots).toBe(1024)
  })

  it('agrees with a Map of full digests on a file with many repeats', () => {
    const c = new OccurrenceCounter()
    const m = new Map<string, number>()
    let seed = 7
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      const key = `fee ${seed % 3000}`
      const d = digest(key)
      const want = (m.get(key) ?? 0) + 1
      m.set(key, want)
      expect(c.next(d)).toBe(want)
    }
  })

  it('counts past 255 occurrences of one identity (a daily fee over years), beside identities seen once', () => {
    const c = new OccurrenceCounter()
    for (let i = 1; i <= 1000; i++) {
      expect(c.next(digest('daily fee'))).toBe(i)
      expect(c.next(digest(`row ${i}`))).toBe(1)
    }
    expect(c.next(digest('daily fee'))).toBe(1001)
    expect(c.size).toBe(1001)
  })
})

describe('OccurrenceCounter.release', () => {
  it('gives the table memory back at once and starts counting again', () => {
    const c = new OccurrenceCounter()
    for (let i = 0; i < 200_000; i++) c.next(digest(`row ${i}`))
    const before = process.memoryUsage().arrayBuffers
    c.release()
    // 2^19 slots of 9 bytes: 4.7 MB, freed by the release itself, not by a later collection.
    expect(before - process.memoryUsage().arrayBuffers).toBeGreaterThan(4_000_000)
    expect(c.size).toBe(0)
    expect(c.next(digest('row 7'))).toBe(1)
    expect(c.next(digest('row 7'))).toBe(2)
  })
})

describe('bitsOf', () => {
  it('reads the first 64 bits of a base64url digest as the bytes give them (big-endian)', () => {
    for (let i = 0; i < 2000; i++) {
      const bytes = createHash('sha256').update(`row ${i}`).digest()
      const text = bytes.toString('base64url')
      expect([bitsOf(text, 0), bitsOf(text, 32)]).toEqual([bytes.readUInt32BE(0), bytes.readUInt32BE(4)])
    }
    // Every bit of both words, and the two ends of the alphabet.
    const ones = Buffer.alloc(32, 0xff).toString('base64url')
    expect([bitsOf(ones, 0), bitsOf(ones, 32)]).toEqual([0xffffffff, 0xffffffff])
    const zeros = Buffer.alloc(32).toString('base64url')
    expect([bitsOf(zeros, 0), bitsOf(zeros, 32)]).toEqual([0, 0])
    const mixed = Buffer.from([0x80, 0, 0, 1, 0x80, 0, 0, 1, 0xfb, 0xff]).toString('base64url')
    expect([bitsOf(mixed, 0), bitsOf(mixed, 32)]).toEqual([0x80000001, 0x80000001])
  })
})

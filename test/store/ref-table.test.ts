/** The bulk load's in-memory table of import_refs (sqlite/ref-table.ts) and the slot arithmetic it shares with the occurrence counter. */
import Database from 'better-sqlite3'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { firstSlot, overFull, slotsFor } from '../../src/kernel/hash-slots.js'
import { parseRefText, RefTable, refHash, refTextSql } from '../../src/store/sqlite/ref-table.js'

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

/** Rows as the loader's query writes them: `seq bytes ref`, one after another. */
const asText = (rows: Array<[number, string]>) => rows.map(([seq, ref]) => `${seq} ${Buffer.byteLength(ref)} ${ref}`).join('')

describe('parseRefText: the refs of a bulk load read as one text (sqlite/bulk-load.ts)', () => {
  const ref = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9._:-]{1,64}$/),
    // Not refs the API takes, but text the column could hold: spaces, digits, newlines, any code point.
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.constantFrom('1 2 3', '12 ', ' ', '😀', 'é€😀x', '\n'),
  )

  it("gives each row's seq and the hash refHash gives its ref, for any refs", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 2 ** 32 - 1 }), ref), { maxLength: 200 }), fc.nat(5), (rows, at) => {
        const hashes = new Uint32Array(rows.length + at)
        const seqs = new Uint32Array(rows.length + at)
        expect(parseRefText(asText(rows), rows.length, hashes, seqs, at)).toBe(at + rows.length)
        expect([...hashes.slice(at)]).toEqual(rows.map(([, r]) => refHash(r)))
        expect([...seqs.slice(at)]).toEqual(rows.map(([s]) => s))
      }),
      { numRuns: 500 },
    )
  })

  it('throws on a text that is not as many such rows: the loader then reads row by row', () => {
    const rows: Array<[number, string]> = [
      [1, 'a.1'],
      [22, 'b.2'],
    ]
    const text = asText(rows)
    const parse = (t: string, n: number) => parseRefText(t, n, new Uint32Array(4), new Uint32Array(4), 0)
    expect(parse(text, 2)).toBe(2)
    expect(() => parse(text, 1)).toThrow()
    expect(() => parse(text, 3)).toThrow()
    expect(() => parse(text.slice(0, -1), 2)).toThrow()
    expect(() => parse(`${text}x`, 2)).toThrow()
    expect(() => parse('1 4 abc', 1)).toThrow()
    expect(() => parse('0 1 a', 1)).toThrow()
    expect(() => parse('x 1 a', 1)).toThrow()
    expect(() => parse(`${2 ** 32} 1 a`, 1)).toThrow()
  })

  it("reads back the text SQLite writes for an account's refs, chunk after chunk, multibyte refs too", () => {
    const db = new Database(':memory:')
    try {
      db.exec('CREATE TABLE transactions (seq INTEGER PRIMARY KEY, account_key INTEGER NOT NULL, import_ref TEXT)')
      db.exec('CREATE UNIQUE INDEX transactions_import_ref ON transactions (account_key, import_ref)')
      const refs = ['a.1', 'b 2', 'é€😀', '', 'line\nbreak', ...Array.from({ length: 300 }, (_, i) => `REF.${i}`)]
      const ins = db.prepare('INSERT INTO transactions (account_key, import_ref) VALUES (?, ?)')
      for (const r of refs) ins.run(7, r)
      ins.run(7, null)
      ins.run(8, 'other account')
      const expected = db
        .prepare('SELECT seq, import_ref FROM transactions WHERE account_key = 7 AND import_ref IS NOT NULL')
        .raw()
        .all() as Array<[number, string]>
      const first = db.prepare(refTextSql(false))
      const next = db.prepare(refTextSql(true))
      // Both read the unique index, not the table.
      for (const [sql, params] of [
        [refTextSql(false), [7, 64]],
        [refTextSql(true), [7, 'a', 64]],
      ] as const)
        expect(
          (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join(' | '),
        ).toMatch(/USING COVERING INDEX transactions_import_ref/)
      const hashes = new Uint32Array(expected.length)
      const seqs = new Uint32Array(expected.length)
      let n = 0
      let last: string | undefined
      for (;;) {
        const chunk = (last === undefined ? first.get(7, 64) : next.get(7, last, 64)) as { text: string; last: string; n: number }
        if (chunk.n === 0) break
        n = parseRefText(chunk.text, chunk.n, hashes, seqs, n)
        last = chunk.last
      }
      expect(n).toBe(expected.length)
      const got = new Map([...seqs].map((s, i) => [s, hashes[i]]))
      expect(got).toEqual(new Map(expected.map(([s, r]) => [s, refHash(r)])))
    } finally {
      db.close()
    }
  })
})

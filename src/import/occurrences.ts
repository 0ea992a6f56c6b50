/**
 * Occurrence numbers of identical rows in one file: how many times each row identity has been
 * seen so far. A file of a million distinct rows has a million identities, so this is the one
 * structure of an import that grows with the file, and a Map of digest strings costs many times
 * more an entry. This open-addressing table keeps 64 bits of each identity's SHA-256 digest and a
 * one-byte count in typed arrays: 9 bytes a slot, at most three quarters of the slots used
 * (kernel/hash-slots.ts), outside the JavaScript heap's garbage collection (its size for a million
 * rows: docs/performance.md). The few identities seen more than 254 times (a fee charged every day for years) keep
 * their count in a Map instead.
 *
 * It is sized from the rows the file is expected to hold (the plan's count or estimate, with room
 * for an estimate short by an eighth), so that it does not grow while the import runs: a growth
 * holds the old slots and the new at once, and the last growths of a million-row file each raised
 * the import's peak RSS. A file with more rows than expected grows it as before.
 *
 * Two different identities that share 64 bits (about 3 in 100 million for a million-row file)
 * only share a counter: the second gets occurrence 2 instead of 1. Its import_ref still carries
 * 132 bits of its own digest, so it is never mistaken for the other row.
 */
import { firstSlot, overFull, slotsFor } from '../kernel/hash-slots.js'

/** The value of each base64url character (RFC 4648 §5), by its code. */
const SEXTET = new Uint8Array(128)
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].entries()) SEXTET[c.charCodeAt(0)] = i

/**
 * The 32 bits from bit `from` (0 or 32) of the bytes that base64url text `b64` encodes, as an
 * unsigned number: the same as reading them from the bytes (big-endian). Each character holds six
 * bits, so bits 0-31 are characters 0-4 and the top two bits of character 5, bits 32-63 its low
 * four bits, characters 6-9 and the top four bits of character 10.
 */
export function bitsOf(b64: string, from: 0 | 32): number {
  const c = (i: number) => SEXTET[b64.charCodeAt(i) & 127]
  if (from === 0) return ((c(0) << 26) | (c(1) << 20) | (c(2) << 14) | (c(3) << 8) | (c(4) << 2) | (c(5) >>> 4)) >>> 0
  return (((c(5) & 15) << 28) | (c(6) << 22) | (c(7) << 16) | (c(8) << 10) | (c(9) << 4) | (c(10) >>> 2)) >>> 0
}

export class OccurrenceCounter {
  private hi: Uint32Array<ArrayBuffer>
  private lo: Uint32Array<ArrayBuffer>
  /** 0: an empty slot; 1 to 254: the count; 255: the count is in `many`. */
  private counts: Uint8Array<ArrayBuffer>
  private readonly many = new Map<string, number>()
  private used = 0

  /** `expected`: the identities the file is expected to hold (its rows); the table holds them without growing. */
  constructor(expected = 0) {
    const n = slotsFor(expected)
    this.hi = new Uint32Array(n)
    this.lo = new Uint32Array(n)
    this.counts = new Uint8Array(n)
  }

  /**
   * Count one more occurrence of the identity whose SHA-256 digest, in base64url, starts with
   * `digest`; returns its number (1, 2, …). Its first 64 bits are the identity's key here.
   */
  next(digest: string): number {
    const hi = bitsOf(digest, 0)
    // 0/0 marks an empty slot.
    const lo = bitsOf(digest, 32) || 1
    const n = this.counts.length
    let i = firstSlot(lo, n)
    for (;;) {
      if (this.counts[i] === 0) {
        this.hi[i] = hi
        this.lo[i] = lo
        this.counts[i] = 1
        if (overFull(++this.used, n)) this.grow()
        return 1
      }
      if (this.hi[i] === hi && this.lo[i] === lo) {
        const c = this.counts[i]
        if (c < 254) {
          this.counts[i] = c + 1
          return c + 1
        }
        const key = `${hi}:${lo}`
        const count = c === 254 ? 255 : this.many.get(key)! + 1
        this.counts[i] = 255
        this.many.set(key, count)
        return count
      }
      if (++i === n) i = 0
    }
  }

  get size(): number {
    return this.used
  }

  /** Slots in the table; at most three quarters are used. */
  get slots(): number {
    return this.counts.length
  }

  /**
   * Give the table's memory back at once, not at some later collection: the file has been read to
   * its end, and the import still waits for its last batches and the indexes a bulk load set aside.
   * The counter is empty afterwards.
   */
  release(): void {
    for (const a of [this.hi, this.lo, this.counts]) a.buffer.transfer(0)
    const n = slotsFor(0)
    this.hi = new Uint32Array(n)
    this.lo = new Uint32Array(n)
    this.counts = new Uint8Array(n)
    this.many.clear()
    this.used = 0
  }

  private grow(): void {
    const { hi, lo, counts } = this
    const n = counts.length * 2
    this.hi = new Uint32Array(n)
    this.lo = new Uint32Array(n)
    this.counts = new Uint8Array(n)
    for (let j = 0; j < counts.length; j++) {
      if (counts[j] === 0) continue
      let i = firstSlot(lo[j], n)
      while (this.counts[i] !== 0) if (++i === n) i = 0
      this.hi[i] = hi[j]
      this.lo[i] = lo[j]
      this.counts[i] = counts[j]
    }
  }
}

/**
 * The import_refs of one bank account during a bulk load (bulk-load.ts), in memory: what the
 * unique index (account_key, import_ref) answers the rest of the time, without its cost. A file whose
 * rows are not in date order would insert each row on a random page of that index, three times
 * slower than without it (docs/performance.md, "Bulk loads set indexes aside"). Here each ref costs
 * a probe of a typed array.
 *
 * Open addressing over two typed arrays: a 32-bit hash of the ref and the row's seq, 8 bytes a slot,
 * at most three quarters full (kernel/hash-slots.ts: a million refs in 12 MB). A hash is not proof:
 * every slot whose hash matches is checked against the row it names (`same(seq)`, one lookup by
 * rowid), so two refs that share a hash are told apart, and a row deleted meanwhile no longer
 * answers for its ref.
 */

import { firstSlot, overFull, slotsFor } from '../../kernel/hash-slots.js'

/** FNV-1a's starting value and prime (32 bits), which refHash and any reader hashing refs in place (parseRefText) share. */
export const FNV_OFFSET = 0x811c9dc5
export const FNV_PRIME = 0x01000193

/** FNV-1a over the UTF-16 code units of `ref`. */
export function refHash(ref: string): number {
  let h = FNV_OFFSET
  for (let i = 0; i < ref.length; i++) {
    h ^= ref.charCodeAt(i)
    h = Math.imul(h, FNV_PRIME)
  }
  return h >>> 0
}

/** Seqs are kept in 32 bits: a table past this is not loaded this way (the caller keeps the index). */
export const MAX_SEQ = 0xffff_ffff

export class RefTable {
  private hashes: Uint32Array
  /** 0: an empty slot (SQLite's rowids start at 1). */
  private seqs: Uint32Array
  private used = 0

  constructor(expected = 0) {
    const n = slotsFor(expected)
    this.hashes = new Uint32Array(n)
    this.seqs = new Uint32Array(n)
  }

  get size(): number {
    return this.used
  }

  /**
   * The seq of the row holding `ref` (whose hash is `hash`), as `same(seq, ref)` confirms; 0 when
   * there is none. `same` takes the ref as an argument so that a caller passes one function for
   * every ref, not a closure a row.
   */
  find(hash: number, ref: string, same: (seq: number, ref: string) => boolean): number {
    const n = this.seqs.length
    for (let i = firstSlot(hash, n); ; i = i + 1 === n ? 0 : i + 1) {
      const seq = this.seqs[i]
      if (seq === 0) return 0
      if (this.hashes[i] === hash && same(seq, ref)) return seq
    }
  }

  /** Remember that row `seq` holds a ref of this hash. */
  add(hash: number, seq: number): void {
    if (seq <= 0 || seq > MAX_SEQ) throw new RangeError(`seq ${seq} out of range`)
    if (overFull(this.used + 1, this.seqs.length)) this.grow()
    this.put(hash, seq)
    this.used++
  }

  private put(hash: number, seq: number): void {
    const n = this.seqs.length
    let i = firstSlot(hash, n)
    while (this.seqs[i] !== 0) if (++i === n) i = 0
    this.hashes[i] = hash
    this.seqs[i] = seq
  }

  private grow(): void {
    const { hashes, seqs } = this
    this.hashes = new Uint32Array(seqs.length * 2)
    this.seqs = new Uint32Array(seqs.length * 2)
    for (let j = 0; j < seqs.length; j++) if (seqs[j] !== 0) this.put(hashes[j], seqs[j])
  }
}

/**
 * A chunk of an account's refs as one text (loadRefs), read from the unique index in its order:
 * parameters the account key, then (`next`) the last ref of the chunk before, then the chunk's rows.
 */
export function refTextSql(next: boolean): string {
  return `SELECT group_concat(seq || ' ' || length(CAST(import_ref AS BLOB)) || ' ' || import_ref, '') AS text,
            max(import_ref) AS last, count(*) AS n
          FROM (SELECT seq, import_ref FROM transactions
                WHERE account_key = ? AND ${next ? 'import_ref > ?' : 'import_ref IS NOT NULL'} ORDER BY import_ref LIMIT ?)`
}

/**
 * Rows written as `seq bytes ref` one after another (bytes: the ref's length in UTF-8), as loadRefs
 * reads them: each ref's hash (refHash, over its UTF-16 code units, without making its string) into
 * `hashes` and its seq into `seqs`, from place `at`. Exactly `rows` rows, or it throws. The next place.
 */
export function parseRefText(text: string, rows: number, hashes: Uint32Array, seqs: Uint32Array, at: number): number {
  const end = text.length
  let i = 0
  for (let r = 0; r < rows; r++) {
    let seq = 0
    let c = text.charCodeAt(i)
    if (!(c >= 48 && c <= 57)) throw new Error('refs: a seq expected')
    for (; c >= 48 && c <= 57; c = text.charCodeAt(++i)) seq = seq * 10 + (c - 48)
    if (c !== 32 || seq <= 0 || seq > MAX_SEQ) throw new Error('refs: a seq expected')
    let bytes = 0
    c = text.charCodeAt(++i)
    if (!(c >= 48 && c <= 57)) throw new Error('refs: a length expected')
    for (; c >= 48 && c <= 57; c = text.charCodeAt(++i)) bytes = bytes * 10 + (c - 48)
    if (c !== 32) throw new Error('refs: a length expected')
    i++
    let h = FNV_OFFSET
    while (bytes > 0) {
      if (i >= end) throw new Error('refs: cut short')
      c = text.charCodeAt(i++)
      h = Math.imul(h ^ c, FNV_PRIME)
      // The code point's UTF-8 bytes: a surrogate pair (both its halves hashed) is one of 4 bytes.
      if (c < 0x80) bytes -= 1
      else if (c < 0x800) bytes -= 2
      else if (c >= 0xd800 && c <= 0xdbff && i < end) {
        h = Math.imul(h ^ text.charCodeAt(i++), FNV_PRIME)
        bytes -= 4
      } else bytes -= 3
    }
    if (bytes !== 0) throw new Error('refs: lengths disagree')
    hashes[at] = h >>> 0
    seqs[at++] = seq
  }
  if (i !== end) throw new Error('refs: more text than rows')
  return at
}

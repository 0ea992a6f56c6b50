/**
 * Occurrence numbers of identical rows in one file: how many times each row identity has been
 * seen so far. A file of a million distinct rows has a million identities, so this is the one
 * structure of an import that grows with the file; a Map of digest strings took about 100 bytes an
 * entry. This open-addressing table keeps 64 bits of each identity's SHA-256 digest and a one-byte
 * count in typed arrays: 9 bytes a slot, between a quarter and half of the slots used, so 18 to 36
 * MB for a million rows, outside the JavaScript heap's garbage collection. The few identities seen
 * more than 254 times (a fee charged every day for years) keep their count in a Map instead.
 *
 * Two different identities that share 64 bits (about 3 in 100 million for a million-row file)
 * only share a counter: the second gets occurrence 2 instead of 1. Its import_ref still carries
 * 132 bits of its own digest, so it is never mistaken for the other row.
 */
export class OccurrenceCounter {
  private hi = new Uint32Array(1024)
  private lo = new Uint32Array(1024)
  /** 0: an empty slot; 1 to 254: the count; 255: the count is in `many`. */
  private counts = new Uint8Array(1024)
  private readonly many = new Map<string, number>()
  private used = 0

  /** Count one more occurrence of the identity whose digest starts with `digest`; returns its number (1, 2, …). */
  next(digest: Uint8Array): number {
    const hi = ((digest[0] << 24) | (digest[1] << 16) | (digest[2] << 8) | digest[3]) >>> 0
    // 0/0 marks an empty slot.
    const lo = ((digest[4] << 24) | (digest[5] << 16) | (digest[6] << 8) | digest[7]) >>> 0 || 1
    const mask = this.counts.length - 1
    let i = lo & mask
    for (;;) {
      if (this.counts[i] === 0) {
        this.hi[i] = hi
        this.lo[i] = lo
        this.counts[i] = 1
        if (++this.used * 2 > this.counts.length) this.grow()
        return 1
      }
      if (this.hi[i] === hi && this.lo[i] === lo) {
        const c = this.counts[i]
        if (c < 254) {
          this.counts[i] = c + 1
          return c + 1
        }
        const key = `${hi}:${lo}`
        const n = c === 254 ? 255 : this.many.get(key)! + 1
        this.counts[i] = 255
        this.many.set(key, n)
        return n
      }
      i = (i + 1) & mask
    }
  }

  get size(): number {
    return this.used
  }

  /**
   * Give the table's memory back at once (18 to 36 MB for a million rows), not at some later
   * collection: the file has been read to its end, and the import still waits for its last batches
   * and the indexes a bulk load set aside. The counter is empty afterwards.
   */
  release(): void {
    for (const a of [this.hi, this.lo, this.counts]) a.buffer.transfer(0)
    this.hi = new Uint32Array(1024)
    this.lo = new Uint32Array(1024)
    this.counts = new Uint8Array(1024)
    this.many.clear()
    this.used = 0
  }

  private grow(): void {
    const { hi, lo, counts } = this
    const n = counts.length * 2
    this.hi = new Uint32Array(n)
    this.lo = new Uint32Array(n)
    this.counts = new Uint8Array(n)
    const mask = n - 1
    for (let j = 0; j < counts.length; j++) {
      if (counts[j] === 0) continue
      let i = lo[j] & mask
      while (this.counts[i] !== 0) i = (i + 1) & mask
      this.hi[i] = hi[j]
      this.lo[i] = lo[j]
      this.counts[i] = counts[j]
    }
  }
}

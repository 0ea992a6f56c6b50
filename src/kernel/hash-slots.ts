/**
 * Sizing and addressing of the open-addressing tables that an import keeps per row (the file's
 * occurrence counter, the bulk load's table of refs): typed arrays of any length, at most three
 * quarters full, probed linearly. Any length, not a power of two: sized for a million rows, a
 * power of two doubles the table for a few more (2,097,152 slots where 1,500,000 do), and these
 * tables are a large part of an import's memory.
 */

/**
 * Slots for `expected` entries (at least 1,024): two thirds full with them, so that an expected count
 * that falls short by up to an eighth still fits under the three quarters (overFull) without a
 * growth. It is often an estimate: a large file's rows are estimated from the length of its first
 * rows, and a file of 1,000,000 rows whose first rows were its longest was estimated at 997,814;
 * sized to that at three quarters, both tables grew as the last rows came in, and a growth holds the
 * old slots and the new at once, for a moment, which set the import's peak RSS.
 */
export function slotsFor(expected: number): number {
  return Math.max(1024, Math.ceil((expected * 3) / 2))
}

/** Whether a table of `slots` slots holding `used` entries is past three quarters full. */
export function overFull(used: number, slots: number): boolean {
  return used * 4 > slots * 3
}

/**
 * The first slot to probe for a 32-bit hash in a table of `slots` slots: the hash scaled to the
 * table (its high bits decide), which needs no power-of-two length. Always below `slots`: the
 * product is below slots * 2^32, and rounding it to a double moves it by far less than `slots`.
 */
export function firstSlot(hash: number, slots: number): number {
  return Math.floor(((hash >>> 0) * slots) / 4294967296)
}

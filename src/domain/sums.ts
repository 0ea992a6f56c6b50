/**
 * Exact sums of minor units taken by the database: read back as text (`exactSum` and the like in
 * store/fragments.ts: PostgreSQL answers SUM(bigint) as numeric, SQLite as a 64-bit integer) and
 * parsed here into a BigInt. The reports and the account balances read their sums through these.
 */

/** An exact integer from a database value (text, number or bigint). */
export function exact(v: unknown): bigint {
  if (typeof v === 'bigint') return v
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`inexact integer from the database: ${v}`)
    return BigInt(v)
  }
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v)
  throw new Error(`not an integer from the database: ${String(v)}`)
}

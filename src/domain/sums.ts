/**
 * Exact sums of minor units taken by the database: read back as text (`CAST(SUM(..) AS TEXT)`) and
 * parsed into a BigInt, exact on both dialects (PostgreSQL answers SUM(bigint) as numeric, SQLite
 * as a 64-bit integer). The reports and the account balances read their sums through these.
 */
import { sql, type RawBuilder } from 'kysely'

export const sumText = (e: RawBuilder<unknown>): RawBuilder<string> => sql<string>`CAST(COALESCE(SUM(${e}), 0) AS TEXT)`

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

/**
 * The integer keys of companies and bank accounts (migration 0011), what transactions refer to.
 * Each is taken from a counter in `settings`, in the transaction that inserts the row: a key is never
 * given twice, not even after its account is deleted, so a key seen once always names that account.
 */
import { sql, type Kysely } from 'kysely'
import { KEY_COUNTERS } from './migrations/0011_compact_transactions.js'
import type { Db } from './schema.js'

/** The next key of `table`, inside the caller's write transaction `db`. */
export async function nextKey(db: Kysely<Db>, table: keyof typeof KEY_COUNTERS): Promise<number> {
  const r = await sql<{ value: string }>`INSERT INTO settings (key, value) VALUES (${KEY_COUNTERS[table]}, '1')
    ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(settings.value AS INTEGER) + 1 AS TEXT)
    RETURNING value`.execute(db)
  return Number(r.rows[0].value)
}

/**
 * 0019 lets a key be rolled: `rolled_to` on the old key names its successor, `rolled_from` on
 * the successor names the old key, and `revoke_at` is when the old key's grace ends. From that moment
 * the old key is refused and reads as revoked at `revoke_at`; the housekeeping writes it into
 * `revoked_at`. Null on keys that were never rolled.
 */
import type { AnyDb } from './common.js'

const COLUMNS = ['rolled_to', 'rolled_from', 'revoke_at'] as const

export async function up(db: AnyDb): Promise<void> {
  for (const c of COLUMNS) await db.schema.alterTable('api_keys').addColumn(c, 'text').execute()
}

export async function down(db: AnyDb): Promise<void> {
  for (const c of COLUMNS) await db.schema.alterTable('api_keys').dropColumn(c).execute()
}

/**
 * 0048 keeps on each close and reopen who made it by name (the user's email, the key's name: their
 * ids alone tell a reader nothing), and on a forced close what it was forced over: each statement
 * whose balance differed from the books, each account's open points (docs/closing.md, "Closing a
 * month"), and the names of the company and its accounts then, so that `verify --close` tells a
 * rename from a change of the period's data. Closes made before name their actor from the users and
 * keys there now.
 */
import { sql } from 'kysely'
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('period_closes').addColumn('actor_name', 'text').execute()
  await db.schema.alterTable('period_closes').addColumn('forced_over', 'text').execute()
  await db.schema.alterTable('period_closes').addColumn('names', 'text').execute()
  await sql`UPDATE period_closes SET actor_name = (SELECT email FROM users WHERE 'user:' || users.id = period_closes.actor)
    WHERE actor LIKE 'user:%'`.execute(db)
  await sql`UPDATE period_closes SET actor_name = (SELECT name FROM api_keys WHERE 'key:' || api_keys.id = period_closes.actor)
    WHERE actor LIKE 'key:%'`.execute(db)
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('period_closes').dropColumn('names').execute()
  await db.schema.alterTable('period_closes').dropColumn('forced_over').execute()
  await db.schema.alterTable('period_closes').dropColumn('actor_name').execute()
}

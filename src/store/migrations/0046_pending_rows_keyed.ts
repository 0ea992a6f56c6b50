/**
 * 0046 keeps a review's pending rows without a foreign key to import_reviews, and on SQLite in one
 * B-tree ordered by (batch_id, line) (WITHOUT ROWID) instead of a table and its primary key's index:
 * an apply deletes its batch's rows as one range of one tree, with no parent looked up a row
 * (docs/performance.md, "Review before it lands"). Nothing deletes a review's row without its
 * pending rows (an apply, a discard and the sweep delete them together), and no company or batch
 * is ever deleted, so the cascade it had never ran.
 *
 * SQLite runs a migration outside a transaction (0011): this one takes a write transaction of its
 * own and does nothing if it finds the table rebuilt already (killed after its commit).
 */
import { sql } from 'kysely'
import type { AnyDb, Dialect } from './common.js'

const COLUMNS = 'batch_id text NOT NULL, line integer NOT NULL, body text NOT NULL'

async function rebuild(db: AnyDb, keyed: boolean): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db)
  await run('BEGIN IMMEDIATE')
  try {
    const found = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'import_pending_rows'`.execute(
      db,
    )
    if (/WITHOUT ROWID/i.test(found.rows[0]?.sql ?? '') !== keyed) {
      await run(
        keyed
          ? `CREATE TABLE import_pending_rows_new (${COLUMNS}, CONSTRAINT import_pending_rows_pk PRIMARY KEY (batch_id, line)) WITHOUT ROWID`
          : `CREATE TABLE import_pending_rows_new (batch_id text NOT NULL REFERENCES import_reviews (batch_id) ON DELETE CASCADE, line integer NOT NULL, body text NOT NULL, CONSTRAINT import_pending_rows_pk PRIMARY KEY (batch_id, line))`,
      )
      await run('INSERT INTO import_pending_rows_new (batch_id, line, body) SELECT batch_id, line, body FROM import_pending_rows')
      await run('DROP TABLE import_pending_rows')
      await run('ALTER TABLE import_pending_rows_new RENAME TO import_pending_rows')
    }
    await run('COMMIT')
  } catch (e) {
    await run('ROLLBACK')
    throw e
  }
}

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return rebuild(db, true)
  // PostgreSQL named the constraint itself: whatever foreign key the table has goes.
  const fks = await sql<{ conname: string }>`SELECT conname FROM pg_constraint
    WHERE conrelid = 'import_pending_rows'::regclass AND contype = 'f'`.execute(db)
  for (const { conname } of fks.rows) await sql`ALTER TABLE import_pending_rows DROP CONSTRAINT ${sql.id(conname)}`.execute(db)
}

export async function down(db: AnyDb, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return rebuild(db, false)
  await sql`ALTER TABLE import_pending_rows ADD FOREIGN KEY (batch_id) REFERENCES import_reviews (batch_id) ON DELETE CASCADE`.execute(db)
}

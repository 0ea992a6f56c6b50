/**
 * Writing the outbox (docs/events.md): events go in inside the database transaction of the change
 * they describe. On PostgreSQL a writer first takes a per-company advisory lock held to its commit,
 * so a company's events commit in the order of their `seq`: a reader paging by `seq` never sees a
 * later event before an earlier one commits (SQLite has one writer at a time anyway).
 */
import { sql, type Kysely } from 'kysely'
import type pg from 'pg'
import type { Db, NewEventRow } from './schema.js'
import type { Dialect } from './store.js'

/** The advisory lock's first key: the outbox's, beside the company's hash as the second. */
export const EVENTS_LOCK_CLASS = 51
const LOCK_CLASS = EVENTS_LOCK_CLASS

export const EVENT_COLUMNS = 'id, company_id, type, object_id, actor, created_at, data, packed_ids'
const COLUMNS = EVENT_COLUMNS

const listeners = new Set<() => void>()

/**
 * Call `listener` when this process writes events (a hint, given before the commit: a reader that
 * finds nothing yet looks again a little later). Answers the function that stops it.
 */
export function onEventsWritten(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Tell this process's listeners that events were written. */
export function eventsWritten(): void {
  for (const l of listeners) l()
}

/** Insert events inside an open kysely transaction `trx`. */
export async function insertEvents(trx: Kysely<Db>, dialect: Dialect, rows: readonly NewEventRow[]): Promise<void> {
  if (rows.length === 0) return
  if (dialect === 'postgres') {
    for (const company of new Set(rows.map((r) => r.company_id)))
      await sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${company}))`.execute(trx)
  }
  await trx.insertInto('events').values(rows).execute()
  eventsWritten()
}

/** The same on a raw pg client inside its own BEGIN (the COPY path of postgres/bulk-load.ts). */
export async function insertEventsPg(client: pg.PoolClient, rows: readonly NewEventRow[]): Promise<void> {
  // In a fixed order: a group commit's events may be of several companies.
  for (const company of [...new Set(rows.map((r) => r.company_id))].sort())
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, company])
  // One statement for them all: a group commit's events (postgres/grouped-inserts.ts) go in with one round trip.
  const params: unknown[] = []
  const values: string[] = []
  for (const r of rows) {
    const at = params.length
    values.push(`($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6}, $${at + 7}, $${at + 8})`)
    params.push(r.id, r.company_id, r.type, r.object_id ?? null, r.actor, r.created_at, r.data, r.packed_ids ?? null)
  }
  await client.query(`INSERT INTO events (${COLUMNS}) VALUES ${values.join(', ')}`, params)
  eventsWritten()
}

/** The SQL of a prepared SQLite insert of one event (named parameters, as better-sqlite3 binds an object). */
export const SQLITE_INSERT_EVENT = `INSERT INTO events (${COLUMNS}) VALUES (@id, @company_id, @type, @object_id, @actor, @created_at, @data, @packed_ids)`

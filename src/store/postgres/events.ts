/**
 * PostgreSQL's events (../events.ts): a writer first takes a per-company advisory lock held to its
 * commit, so a company's events commit in the order of their `seq` (SQLite has one writer at a time).
 */
import { type Kysely, sql } from 'kysely'
import type pg from 'pg'
import { EVENT_COLUMNS, eventsWritten } from '../events.js'
import type { Db, NewEventRow } from '../schema.js'

/** The advisory lock's first key: the outbox's, beside the company's hash as the second. */
export const EVENTS_LOCK_CLASS = 51

/** Inside a write transaction, before its events go in: each company's lock (DialectAdapter.lockEventOrder). */
export async function lockEventOrder(trx: Kysely<Db>, companyIds: ReadonlySet<string>): Promise<void> {
  for (const company of companyIds) await sql`SELECT pg_advisory_xact_lock(${EVENTS_LOCK_CLASS}, hashtext(${company}))`.execute(trx)
}

/** insertEvents on a raw pg client inside its own BEGIN (the COPY path of bulk-load.ts). */
export async function insertEventsPg(client: pg.PoolClient, rows: readonly NewEventRow[]): Promise<void> {
  // In a fixed order: a group commit's events may be of several companies.
  for (const company of [...new Set(rows.map((r) => r.company_id))].sort())
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [EVENTS_LOCK_CLASS, company])
  // One statement for them all: a group commit's events (grouped-inserts.ts) go in with one round trip.
  const params: unknown[] = []
  const values: string[] = []
  for (const r of rows) {
    const at = params.length
    values.push(`($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6}, $${at + 7}, $${at + 8})`)
    params.push(r.id, r.company_id, r.type, r.object_id ?? null, r.actor, r.created_at, r.data, r.packed_ids ?? null)
  }
  await client.query(`INSERT INTO events (${EVENT_COLUMNS}) VALUES ${values.join(', ')}`, params)
  eventsWritten()
}

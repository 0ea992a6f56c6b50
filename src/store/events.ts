/**
 * Writing the outbox (docs/events.md): events go in inside the database transaction of the change
 * they describe, a company's committing in the order of their `seq` (the dialect's
 * `lockEventOrder`): a reader paging by `seq` never sees a later event before an earlier one commits.
 */
import type { Kysely } from 'kysely'
import type { DialectAdapter } from './dialect-adapter.js'
import type { Db, NewEventRow } from './schema.js'

export const EVENT_COLUMNS = 'id, company_id, type, object_id, actor, created_at, data, packed_ids'

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
export async function insertEvents(trx: Kysely<Db>, adapter: DialectAdapter, rows: readonly NewEventRow[]): Promise<void> {
  if (rows.length === 0) return
  await adapter.lockEventOrder(trx, new Set(rows.map((r) => r.company_id)))
  await trx.insertInto('events').values(rows).execute()
  eventsWritten()
}

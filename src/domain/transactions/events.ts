/** The events of transactions (docs/events.md): one per single change, one per batch with counts and ids. */
import type { NewEventRow } from '../../store/schema.js'
import type { InsertedRows } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { eventRow } from '../events.js'
import type { Transaction } from '../schemas.js'

export function createdEvent(actor: Actor, t: Transaction, now: Date): NewEventRow {
  return eventRow(actor, 'transaction.created', t.id, t, now)
}

export function updatedEvent(actor: Actor, t: Transaction, changed: string[], now: Date): NewEventRow {
  return eventRow(actor, 'transaction.updated', t.id, { ...t, changed_fields: changed }, now)
}

export function deletedEvent(actor: Actor, t: Transaction, now: Date): NewEventRow {
  return eventRow(actor, 'transaction.deleted', t.id, { ...t, deleted: true }, now)
}

export interface BatchCounts {
  /** Rows refused by validation (not written). */
  errors: number
  /** Rows paired with a statement's transactions instead of created. */
  matched?: number
}

/**
 * The one event of a batch create (an import's batch): the ids of the rows that went in and the
 * counts; none when nothing was created. Built from the insert's answer inside its transaction.
 */
export function importedEvent(actor: Actor, rows: number, inserted: InsertedRows, counts: BatchCounts, now: Date): NewEventRow | undefined {
  const matched = counts.matched ?? 0
  if (inserted.size === 0 && matched === 0) return undefined
  return eventRow(
    actor,
    'transactions.imported',
    null,
    {
      created: inserted.size,
      duplicates: rows - inserted.size - matched,
      errors: counts.errors,
      ...(counts.matched !== undefined ? { matched } : {}),
      transaction_ids: inserted.ids(),
    },
    now,
  )
}

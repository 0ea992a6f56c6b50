/**
 * Audit history of transactions: who (key or user), when, what action, and each changed field
 * with its value before and after. Entries are written in the same database transaction as the change.
 */
import type { Kysely } from 'kysely'
import { AUDITED_TRANSACTION_FIELDS } from '../../kernel/transaction-fields.js'
import type { Db, NewAuditEntryRow } from '../../store/schema.js'
import type { Actor } from '../actor.js'
import { actorId } from '../actor.js'
import type { AuditEntry, Transaction } from '../schemas.js'

export type AuditAction = AuditEntry['action']
export type Changes = Record<string, { before: unknown; after: unknown }>

const AUDITED = AUDITED_TRANSACTION_FIELDS

/** The fields that differ between two versions of a transaction (null for a side that does not exist). */
export function diff(before: Transaction | null, after: Transaction | null): Changes {
  const changes: Changes = {}
  // A delete (a revert writes one a row): every field whose JSON is not null, without comparing texts.
  if (before && !after) return deletedFields(before, changes)
  for (const field of AUDITED) {
    const b = before ? before[field] : null
    const a = after ? after[field] : null
    if (JSON.stringify(b) !== JSON.stringify(a)) changes[field] = { before: b ?? null, after: a ?? null }
  }
  return changes
}

function deletedFields(before: Transaction, changes: Changes): Changes {
  for (const field of AUDITED) {
    const b = before[field]
    if (b !== null && !(typeof b === 'number' && !Number.isFinite(b))) changes[field] = { before: b ?? null, after: null }
  }
  return changes
}

export type CreationAction = Extract<AuditAction, 'create' | 'batch_create' | 'statement_import'>
const CREATIONS: ReadonlySet<AuditAction> = new Set<CreationAction>(['create', 'batch_create', 'statement_import'])

/** Whether an entry's action is a transaction's creation. */
export function isCreation(action: string): boolean {
  return CREATIONS.has(action as AuditAction)
}

/** Who created a transaction, how and when: its created_by, created_via and created_at columns. */
export interface Creation {
  created_by?: string | null
  created_via?: string | null
  created_at: string
}

/**
 * The entry of a transaction's creation. A transaction says who created it and how in its own
 * columns (created_by, created_via: no audit row per imported row), and its values are not stored
 * again (they would double the size of every row): `history` rebuilds them from the current row by
 * undoing, newest first, the later entries, each of which records what it changed. Exact, because
 * every change of a transaction writes its entry in the same database transaction as the change.
 * Rows created before those columns existed (both null) have this entry in audit_entries instead.
 */
function creationEntry(row: Creation): AuditEntry | undefined {
  if (!row.created_by || !row.created_via || !CREATIONS.has(row.created_via as AuditAction)) return undefined
  return { at: row.created_at, actor: row.created_by, action: row.created_via as CreationAction, changes: {} }
}

/**
 * The creation entry to keep in audit_entries when the transaction itself goes (deleteTransaction
 * writes it just before the delete entry, dated when the transaction was created), so the trail of
 * a deleted transaction still says who created it and how. Nothing for an older row, whose
 * creation entry is there already.
 */
export function creationRow(companyId: string, transactionId: string, row: Creation): NewAuditEntryRow | undefined {
  const e = creationEntry(row)
  return e && { company_id: companyId, transaction_id: transactionId, actor: e.actor, action: e.action, changes: '{}', created_at: e.at }
}

/**
 * A deleted row's one entry (a revert writes one a row): the `delete` entry with its creation
 * (`created_at`, `created_by`, `created_via`), which the entry `creationRow` gives would otherwise
 * record, then every field. Its `changes` are flat, each field's value before the delete (after is
 * null for every one), a third of the bytes of `{ "before": ..., "after": null }` each
 * (docs/audit.md, "Rows in the chain"); `readChanges` gives them back in the usual form.
 */
export function deletionRow(actor: Actor, transactionId: string, row: Creation, before: Transaction, now: Date): NewAuditEntryRow {
  const created = creationEntry(row)
  // Without a creation to record, the usual form (the flat one is told by its `created_at`).
  if (!created) return auditRow(actor, 'delete', transactionId, deletedFields(before, {}), now)
  const flat: Record<string, unknown> = { created_at: created.at, created_by: created.actor, created_via: created.action }
  for (const field of AUDITED) {
    const b = before[field]
    if (b !== null && !(typeof b === 'number' && !Number.isFinite(b))) flat[field] = b ?? null
  }
  return {
    company_id: actor.companyId,
    transaction_id: transactionId,
    actor: actorId(actor),
    action: 'delete',
    changes: JSON.stringify(flat),
    created_at: now.toISOString(),
  }
}

/**
 * An entry's `changes` as stored, in the usual form (each field's before and after): a `delete`
 * entry whose `created_at` is a plain value is the flat form deletionRow writes, each value the
 * field's before, its after null. Every reader of entries takes them through here.
 */
export function readChanges(action: string, changes: string): Changes {
  const c = JSON.parse(changes) as Record<string, unknown>
  if (action !== 'delete' || typeof c.created_at !== 'string') return c as Changes
  const out: Changes = {}
  for (const field in c) out[field] = { before: c[field], after: null }
  return out
}

/** The creation a `delete` entry records beside the fields (deletionRow), or undefined for a delete entry without it. */
export function creationInDeletion(e: {
  action: string
  changes: Record<string, { before: unknown } | undefined>
}): AuditEntry | undefined {
  if (e.action !== 'delete') return undefined
  const at = e.changes.created_at?.before
  const by = e.changes.created_by?.before
  const via = e.changes.created_via?.before
  if (typeof at !== 'string') return undefined
  return creationEntry({
    created_at: at,
    created_by: typeof by === 'string' ? by : null,
    created_via: typeof via === 'string' ? via : null,
  })
}

export function auditRow(actor: Actor, action: AuditAction, transactionId: string, changes: Changes, now: Date): NewAuditEntryRow {
  return {
    company_id: actor.companyId,
    transaction_id: transactionId,
    actor: actorId(actor),
    action,
    changes: JSON.stringify(changes),
    created_at: now.toISOString(),
  }
}

/**
 * A transaction's entries, oldest first: its creation (from `creation`, its row's columns, or from
 * audit_entries for older rows and rows deleted beside a creation entry, or, for a row deleted by
 * deletionRow, from its `delete` entry), then the entries of its changes. `current` (the row as it
 * is now; none for a deleted row, rebuilt from its `delete` entry) fills in the values of the creation.
 */
export async function history(
  db: Kysely<Db>,
  companyId: string,
  transactionId: string,
  creation: Creation | null,
  current?: Transaction,
): Promise<AuditEntry[]> {
  const rows = await db
    .selectFrom('audit_entries')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('transaction_id', '=', transactionId)
    .orderBy('id', 'asc')
    .execute()
  const entries: AuditEntry[] = rows.map((r) => ({
    at: r.created_at,
    actor: r.actor,
    action: r.action as AuditAction,
    changes: readChanges(r.action, r.changes),
  }))
  // A row deleted with deletionRow: its creation is in its `delete` entry.
  const created = (creation && creationEntry(creation)) ?? (entries.some((e) => isCreation(e.action)) ? undefined : foldedCreation(entries))
  if (created) entries.unshift(created)
  if (current || (created && !creation)) {
    const state: Record<string, unknown> = { ...current }
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]
      if (CREATIONS.has(e.action) && Object.keys(e.changes).length === 0) {
        e.changes = diff(null, state as unknown as Transaction)
        break
      }
      for (const [field, c] of Object.entries(e.changes)) state[field] = c.before
    }
  }
  return entries
}

function foldedCreation(entries: readonly AuditEntry[]): AuditEntry | undefined {
  for (const e of entries) {
    const c = creationInDeletion(e)
    if (c) return c
  }
  return undefined
}

/**
 * The lock date in the audit chain (docs/audit.md, "The lock date in the chain"): each close and
 * reopen chains an entry (`lock_date_changed`, the close record's id in `transaction_id` as
 * `period_close:ID`) whose `changes` hold the lock date it set. `verifyLockDate` compares the
 * company's lock date with the last such entry, so a lock date set or cleared by SQL is found like
 * an edit of an entry.
 */
import type { Kysely } from 'kysely'
import type { Db, NewAuditEntryRow } from './schema.js'

export const LOCK_ACTION = 'lock_date_changed'

export interface LockChange {
  /** The close or reopen that set it (null: the lock date as migration 0049 found it). */
  period_close_id: number | null
  period: string | null
  action: 'close' | 'reopen' | null
  lock_date: string | null
  previous_lock_date: string | null
}

export function lockEntry(companyId: string, actor: string, change: LockChange, at: string): NewAuditEntryRow {
  return {
    company_id: companyId,
    transaction_id: `period_close:${change.period_close_id ?? 'found'}`,
    actor,
    action: LOCK_ACTION,
    changes: JSON.stringify(change),
    created_at: at,
  }
}

export interface LockBreak {
  entry_id: number | null
  message: string
}

/** The company's lock date against the last lock entry of its chain: null when they agree. */
export async function verifyLockDate(db: Kysely<Db>, companyId: string): Promise<LockBreak | null> {
  const company = await db.selectFrom('companies').select('lock_date').where('id', '=', companyId).executeTakeFirst()
  const now = company?.lock_date ?? null
  const last = await db
    .selectFrom('audit_entries')
    .select(['id', 'changes', 'created_at'])
    .where('company_id', '=', companyId)
    .where('action', '=', LOCK_ACTION)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!last)
    return now === null
      ? null
      : { entry_id: null, message: `the lock date is ${now}, but the audit chain records no close that set it: it was set outside finctl` }
  let change: Partial<LockChange> = {}
  try {
    change = JSON.parse(last.changes) as LockChange
  } catch {}
  const then = change.lock_date ?? null
  if (then === now) return null
  const what = change.action && change.period ? `the ${change.action} of ${change.period}` : 'the lock date found by migration 0049'
  return {
    entry_id: Number(last.id),
    message: `the lock date is ${now ?? 'not set (nothing closed)'}, but the audit chain's last change of it (entry #${Number(last.id)}, ${what}, ${last.created_at}) set ${then ?? 'none'}: it was changed outside finctl`,
  }
}

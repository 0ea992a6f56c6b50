/**
 * 0049 chains the lock dates already there (docs/audit.md, "The lock date in the chain"): one entry
 * per close and reopen recorded (actor `finctl`), then, where the company's lock date is not the one
 * the last of them set, one entry with the lock date as found, so that `verify` starts from it.
 */
import type { Kysely } from 'kysely'
import { appendAudit } from '../audit-chain.js'
import { lockEntry } from '../lock-entries.js'
import type { Db, NewAuditEntryRow } from '../schema.js'
import type { AnyDb, Dialect, DialectAdapter } from './common.js'

export async function up(db: AnyDb, _dialect: Dialect, adapter: DialectAdapter): Promise<void> {
  const k = db as Kysely<Db>
  const now = new Date().toISOString()
  const closes = await k.selectFrom('period_closes').selectAll().orderBy('company_id').orderBy('id').execute()
  const companies = await k.selectFrom('companies').select(['id', 'lock_date']).orderBy('id').execute()
  const rows: NewAuditEntryRow[] = []
  for (const c of companies) {
    const mine = closes.filter((r) => r.company_id === c.id)
    for (const r of mine)
      rows.push(
        lockEntry(
          c.id,
          'finctl',
          {
            period_close_id: Number(r.id),
            period: r.period,
            action: r.action,
            lock_date: r.lock_date,
            previous_lock_date: r.previous_lock_date,
          },
          now,
        ),
      )
    const last = mine.length ? mine[mine.length - 1].lock_date : null
    if ((c.lock_date ?? null) !== last)
      rows.push(
        lockEntry(
          c.id,
          'finctl',
          { period_close_id: null, period: null, action: null, lock_date: c.lock_date, previous_lock_date: last },
          now,
        ),
      )
  }
  if (rows.length) await appendAudit(k, adapter.sql, rows)
}

/** The entries stay: they are chained, and an older finctl's verify sees them as any other entry. */
export async function down(): Promise<void> {}

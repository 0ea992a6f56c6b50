/**
 * What a proposal is bound to (docs/people.md, "Approval policies"): the state it was made against,
 * read when it is proposed and checked again inside the approval's write transaction. A step whose
 * state moved is refused naming what moved, and the proposal fails.
 */
import type { z } from '@hono/zod-openapi'
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { monthEnd, monthOf, previousMonth } from '../accounts/period-lock.js'
import type { ReopenStepEffect } from './step-schemas.js'

/** Every month a reopen of `month` opens while the lock date is `lock`: from the month through the lock date's. */
export function monthsOpened(month: string, lock: string): string[] {
  const out: string[] = []
  for (let m = monthOf(lock); m >= month; m = previousMonth(m)) out.unshift(m)
  return out
}

/** The month's latest close record, or undefined (a month locked by a later month's close has none). */
export function latestClose(db: Kysely<Db>, companyId: string, month: string) {
  return db
    .selectFrom('period_closes')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('period', '=', month)
    .where('action', '=', 'close')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

type ReopenEffect = z.infer<typeof ReopenStepEffect>

/**
 * A reopen is bound to the lock date it found (so to the months it opens) and to the close it undoes:
 * the month reopened and closed again since, or a later month closed, and it is refused.
 */
export async function requireReopenUnmoved(store: Store, trx: Kysely<Db>, companyId: string, effect: ReopenEffect): Promise<void> {
  let q = trx.selectFrom('companies').select('lock_date').where('id', '=', companyId)
  if (store.sql.rowLocks) q = q.forUpdate()
  const lock = (await q.executeTakeFirst())?.lock_date ?? null
  const month = effect.month
  // Not closed any more: the reopen itself refuses it, saying so.
  if (lock === null || lock < monthEnd(month)) return
  if (effect.lock_date !== undefined && lock !== effect.lock_date) {
    const opens = monthsOpened(month, lock)
    const shown = effect.opens ?? []
    const more = opens.filter((m) => !shown.includes(m))
    throw new AppError(
      'conflict',
      `the lock date moved since the reopen of ${month} was proposed: it was ${effect.lock_date ?? 'none'}, it is ${lock ?? 'none'} now${more.length ? `, so it would also open ${more.join(', ')}, which the proposal never showed` : ''}`,
    )
  }
  const close = await latestClose(trx, companyId, month)
  const proposed = effect.close?.id ?? null
  const now = close ? Number(close.id) : null
  if (now !== proposed)
    throw new AppError(
      'conflict',
      now === null
        ? `the close of ${month} the reopen undoes (record ${proposed}) is no longer there`
        : `${month} was reopened and closed again since the reopen was proposed: its close is record ${now} of ${close?.created_at}${proposed === null ? '' : `, not record ${proposed} of ${effect.close?.created_at}`}, with figures the proposal never showed`,
    )
}

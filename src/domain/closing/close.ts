/**
 * Closing a month and reopening it (docs/closing.md): the company's lock date moves, and each move is
 * recorded in period_closes with who did it and why. The lock itself is enforced where transactions
 * change (accounts/period-lock.ts).
 */
import type { Store } from '../../store/store.js'
import type { PeriodClosesTable } from '../../store/schema.js'
import { lockEntry } from '../../store/lock-entries.js'
import type { Selectable } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import { GENESIS } from '../../store/audit-chain.js'
import { actorId, type Actor } from '../actor.js'
import { monthEnd, previousMonth } from '../accounts/period-lock.js'
import { closeStatus, notReadyWords } from './status.js'
import type { CloseRecord, CloseRequest, CloseStatus, ForcedOver } from './schemas.js'
import { eventRow, recordEvents } from '../events.js'
import { monthContents, recordContents } from './contents.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { formatMinor, parseAmount } from '../../kernel/money.js'
import type { Db } from '../../store/schema.js'
import type { Kysely } from 'kysely'

/** Who by name: the user's email, the key's name. */
export async function actorName(db: Kysely<Db>, actor: Actor): Promise<string | null> {
  const row =
    actor.kind === 'api_key'
      ? await db
          .selectFrom('api_keys')
          .select('name')
          .where('id', '=', actor.keyId ?? '')
          .executeTakeFirst()
      : await db
          .selectFrom('users')
          .select('email as name')
          .where('id', '=', actor.userId ?? '')
          .executeTakeFirst()
  return row?.name ?? null
}

/** The names a close keeps: a rename later is told from a change of the period's data (verify --close). */
export async function namesNow(db: Kysely<Db>, companyId: string): Promise<{ company: string; accounts: Record<string, string> }> {
  const company = await db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirst()
  const accounts = await db.selectFrom('bank_accounts').select(['id', 'name']).where('company_id', '=', companyId).orderBy('id').execute()
  return { company: company?.name ?? '', accounts: Object.fromEntries(accounts.map((a) => [a.id, a.name])) }
}

/** What a month that is not ready is closed over: each statement that differs from the books, each account's open points. */
function forcedOver(status: CloseStatus): ForcedOver {
  // The status's amounts are JSON numbers; read back exactly as decimals of their currency.
  const decimal = (n: number, currency: string) => {
    const exp = currencyExponent(currency)
    const r = parseAmount(n, exp)
    return r.ok ? formatMinor(r.minor, exp) : String(n)
  }
  const notReady = status.accounts.filter((a) => !a.ready)
  return {
    statements: notReady
      .filter((a) => a.statement && a.difference !== null && a.difference !== 0 && a.book_balance !== null)
      .map((a) => ({
        statement_id: a.statement!.id,
        bank_account_id: a.id,
        bank_account: a.name,
        period_end: a.statement!.period_end,
        currency_code: a.currency_code,
        closing_balance: decimal(a.statement!.closing_balance, a.currency_code),
        book_balance: decimal(a.book_balance!, a.currency_code),
        difference: decimal(a.difference!, a.currency_code),
      })),
    accounts: notReady.map((a) => ({ bank_account_id: a.id, bank_account: a.name, blockers: a.blockers })),
    documents_missing: status.document_policy.require_documents ? status.company.documents_missing : 0,
  }
}

type PeriodClose = Selectable<PeriodClosesTable>

export function toRecord(r: Selectable<PeriodClosesTable>): CloseRecord {
  return {
    id: Number(r.id),
    period: r.period,
    action: r.action,
    lock_date: r.lock_date,
    previous_lock_date: r.previous_lock_date,
    actor: r.actor,
    actor_name: r.actor_name ?? null,
    reason: r.reason,
    forced: Number(r.forced) === 1,
    forced_over: r.forced_over ? (JSON.parse(r.forced_over) as ForcedOver) : null,
    created_at: r.created_at,
    chain_head: r.chain_head_hash ? { id: r.chain_head_id === null ? null : Number(r.chain_head_id), hash: r.chain_head_hash } : null,
  }
}

/** The lock date a close or reopen set, chained in the audit (store/lock-entries.ts): `verify` finds one set any other way. */
async function chainLockDate(
  store: Store,
  trx: Kysely<Db>,
  r: Pick<PeriodClose, 'company_id' | 'period' | 'action' | 'lock_date' | 'previous_lock_date' | 'actor' | 'created_at'> & { id: number },
): Promise<void> {
  const change = {
    period_close_id: r.id,
    period: r.period,
    action: r.action,
    lock_date: r.lock_date,
    previous_lock_date: r.previous_lock_date,
  }
  await store.writes.appendAudit(trx, [lockEntry(r.company_id, r.actor, change, r.created_at)])
}

/** Closing takes a login whose role has `close` (owner, accountant) or an API key with the `close` scope. */
export async function requireCloser(_store: Store, actor: Actor, reopening: boolean): Promise<void> {
  if (actor.kind === 'api_key') {
    if (reopening)
      throw new AppError('forbidden', 'reopening a closed month takes a login (finctl login) with the close scope, not an API key')
    if (!actor.scopes.includes('close')) throw new AppError('forbidden', 'this API key lacks the close scope needed to close a month')
    return
  }
  // The session's scopes are its role's as of this request (auth.ts): owner and accountant have close.
  if (!actor.scopes.includes('close'))
    throw new AppError(
      'forbidden',
      `only a login whose role has the close scope (owner, accountant) may ${reopening ? 'reopen' : 'close'} a month`,
    )
}

/** The company row, locked for the change (PostgreSQL: FOR UPDATE; SQLite's write transaction is exclusive). */
async function lockCompany(store: Store, trx: Parameters<Parameters<Store['writeTransaction']>[0]>[0], companyId: string) {
  let q = trx.selectFrom('companies').select('lock_date').where('id', '=', companyId)
  if (store.sql.rowLocks) q = q.forUpdate()
  const row = await q.executeTakeFirst()
  if (!row) throw new AppError('not_found', 'company not found')
  return row.lock_date ?? null
}

export interface CloseResult {
  record: CloseRecord
  status: CloseStatus
}

/**
 * Close a month: the lock date becomes its last day. Refused (not_ready) while `close status` finds
 * the month not ready, unless `force` with a reason; refused (conflict) when a later month is closed.
 */
export async function closeMonth(store: Store, actor: Actor, month: string, req: CloseRequest, now: Date): Promise<CloseResult> {
  await requireCloser(store, actor, false)
  const end = monthEnd(month)
  if (req.force && !req.reason)
    throw new AppError('validation_error', 'reason: is required with force: say why the month is closed although not ready', {
      details: [{ path: 'reason', message: 'is required with force' }],
    })
  if (end >= now.toISOString().slice(0, 10))
    throw new AppError('validation_error', `month: ${month} has not ended yet: only a past month can be closed`, {
      details: [{ path: 'month', message: 'has not ended yet' }],
    })
  const status = await closeStatus(store, actor.companyId, month, now)
  if (!status.ready && !req.force)
    throw new AppError(
      'not_ready',
      `${month} is not ready to close: ${notReadyWords(status)} (see finctl close status --month ${month}; --force closes anyway)`,
    )
  const record = await store.writeTransaction(async (trx) => {
    const previous = await lockCompany(store, trx, actor.companyId)
    if (previous !== null && previous > end)
      throw new AppError('conflict', `the books are closed through ${previous} already, after ${month}: nothing to do`)
    if (previous === end) throw new AppError('conflict', `${month} is closed already (the lock date is ${end})`)
    await trx.updateTable('companies').set({ lock_date: end }).where('id', '=', actor.companyId).execute()
    // The chain's head as of this close: `verify --close` later checks that the chain still leads to it.
    const head = await trx
      .selectFrom('audit_chain_heads')
      .select(['last_id', 'hash'])
      .where('company_id', '=', actor.companyId)
      .executeTakeFirst()
    const headId = head && Number(head.last_id) > 0 ? Number(head.last_id) : null
    const row = {
      company_id: actor.companyId,
      period: month,
      action: 'close' as const,
      lock_date: end,
      previous_lock_date: previous,
      actor: actorId(actor),
      actor_name: await actorName(trx, actor),
      reason: req.reason ?? null,
      forced: req.force && !status.ready ? 1 : 0,
      forced_over: req.force && !status.ready ? JSON.stringify(forcedOver(status)) : null,
      names: JSON.stringify(await namesNow(trx, actor.companyId)),
      created_at: now.toISOString(),
      chain_head_id: headId,
      chain_head_hash: head?.hash ?? GENESIS,
    }
    const { id } = await trx.insertInto('period_closes').values(row).returning('id').executeTakeFirstOrThrow()
    // Read after the lock date moved: on PostgreSQL the writes in flight have committed by now.
    await recordContents(trx, Number(id), await monthContents(store, trx, actor.companyId, month))
    await chainLockDate(store, trx, { ...row, id: Number(id) })
    const record = toRecord({ ...row, id, rows_count: null, rows_sha256: null, figures: null })
    await recordEvents(store, trx, [eventRow(actor, 'period.closed', month, record, now)])
    return record
  })
  return { record, status: { ...status, lock_date: end, closed: true } }
}

/** Reopen a month (a login with close: owner, accountant): the lock date goes back to the last day of the month before it. */
export async function reopenMonth(store: Store, actor: Actor, month: string, reason: string, now: Date): Promise<CloseRecord> {
  await requireCloser(store, actor, true)
  return store.writeTransaction((trx) => reopenIn(store, trx, actor, month, reason, now))
}

/** The reopen's writes inside the caller's write transaction (an approved proposal applies it with its decision). */
export async function reopenIn(
  store: Store,
  trx: Parameters<Parameters<Store['writeTransaction']>[0]>[0],
  actor: Actor,
  month: string,
  reason: string,
  now: Date,
  approval?: object,
): Promise<CloseRecord> {
  const end = monthEnd(month)
  const back = monthEnd(previousMonth(month))
  {
    const previous = await lockCompany(store, trx, actor.companyId)
    if (previous === null || previous < end)
      throw new AppError(
        'conflict',
        `${month} is not closed (${previous ? `the lock date is ${previous}` : 'no month is closed'}): nothing to reopen`,
      )
    await trx.updateTable('companies').set({ lock_date: back }).where('id', '=', actor.companyId).execute()
    const row = {
      company_id: actor.companyId,
      period: month,
      action: 'reopen' as const,
      lock_date: back,
      previous_lock_date: previous,
      actor: actorId(actor),
      actor_name: await actorName(trx, actor),
      reason,
      forced: 0,
      forced_over: null,
      names: null,
      created_at: now.toISOString(),
      chain_head_id: null,
      chain_head_hash: null,
    }
    const { id } = await trx.insertInto('period_closes').values(row).returning('id').executeTakeFirstOrThrow()
    await chainLockDate(store, trx, { ...row, id: Number(id) })
    const record = toRecord({ ...row, id, rows_count: null, rows_sha256: null, figures: null })
    // Applied on approval: the event names the proposal and its proposer beside the approver (its actor).
    await recordEvents(store, trx, [eventRow(actor, 'period.reopened', month, approval ? { ...record, approval } : record, now)])
    return record
  }
}

/** Every close and reopen of the company, the latest first. */
export async function listCloses(store: Store, companyId: string): Promise<CloseRecord[]> {
  const rows = await store.db
    .selectFrom('period_closes')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('id', 'desc')
    .limit(1000)
    .execute()
  return rows.map(toRecord)
}

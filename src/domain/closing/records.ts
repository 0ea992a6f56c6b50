/**
 * What a close leaves to check later (docs/closing.md): the exports written for the closed month,
 * attached to its close record, and `verify --close`, which asks whether the audit chain still leads
 * to the head recorded at the close and whether the month is still closed. Exports are checked again
 * by the CLI (it writes them; the service only keeps their hashes).
 */
import type { Kysely, Selectable } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import { verifyChain } from '../../store/audit-chain.js'
import { verifyLockDate } from '../../store/lock-entries.js'
import type { CloseExportsTable, Db, PeriodClosesTable } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import { monthEnd } from '../accounts/period-lock.js'
import { namesNow, requireCloser, toRecord } from './close.js'
import type { CloseExport, CloseExportRequest, CloseVerification } from './schemas.js'
import { compareContents, monthContents, type MonthContents, type MonthFigure } from './contents.js'

/** Ids listed per kind of change (the counts cover them all). */
const SHOWN = 100
/** Audit entries read at a time. */
const PAGE = 5_000

/** The month's rows now against those its close recorded. */
async function checkContents(
  db: Kysely<Db>,
  close: Selectable<PeriodClosesTable>,
  now: MonthContents,
  month: string,
): Promise<CloseVerification['contents']> {
  const base = {
    rows_now: now.rows.size,
    sha256_now: now.sha256,
    figures_now: now.figures,
  }
  if (close.rows_sha256 === null)
    return {
      ...base,
      recorded: false,
      rows_then: null,
      sha256_then: null,
      figures_then: null,
      inserted: [],
      edited: [],
      deleted: [],
      changed: 0,
      message: null,
    }
  const same = close.rows_sha256 === now.sha256
  const c = same ? { inserted: [], edited: [], deleted: [] } : await compareContents(db, Number(close.id), now)
  const changed = c.inserted.length + c.edited.length + c.deleted.length
  const words = (n: number, what: string) => (n ? [`${n} ${n === 1 ? 'row' : 'rows'} ${what}`] : [])
  return {
    ...base,
    recorded: true,
    rows_then: Number(close.rows_count),
    sha256_then: close.rows_sha256,
    figures_then: JSON.parse(close.figures ?? '[]') as MonthFigure[],
    inserted: c.inserted.slice(0, SHOWN),
    edited: c.edited.slice(0, SHOWN),
    deleted: c.deleted.slice(0, SHOWN),
    changed,
    message: changed
      ? `${month}'s transactions: ${[
          ...words(c.inserted.length, `inserted (${c.inserted.slice(0, 3).join(', ')}${c.inserted.length > 3 ? ', ...' : ''})`),
          ...words(c.edited.length, `edited (${c.edited.slice(0, 3).join(', ')}${c.edited.length > 3 ? ', ...' : ''})`),
          ...words(c.deleted.length, `deleted (${c.deleted.slice(0, 3).join(', ')}${c.deleted.length > 3 ? ', ...' : ''})`),
        ].join('; ')} since the close`
      : same
        ? null
        : `${month}'s rows hash differently than at the close`,
  }
}

function toExport(r: Selectable<CloseExportsTable>): CloseExport {
  return {
    id: Number(r.id),
    close_id: Number(r.close_id),
    format: r.format,
    file_name: r.file_name,
    sha256: r.sha256,
    bytes: Number(r.bytes),
    rows: Number(r.rows),
    from: r.period_from,
    to: r.period_to,
    accounts_map_sha256: r.accounts_map_sha256,
    actor: r.actor,
    created_at: r.created_at,
  }
}

/** The names changed since the close, from those it kept (none kept: none named). */
function renamedSince(kept: string | null, now: Awaited<ReturnType<typeof namesNow>>): CloseVerification['renamed'] {
  if (!kept) return { company: null, accounts: [] }
  const then = JSON.parse(kept) as Awaited<ReturnType<typeof namesNow>>
  return {
    company: then.company !== now.company ? { at_close: then.company, now: now.company } : null,
    accounts: Object.entries(then.accounts)
      .filter(([id, name]) => id in now.accounts && now.accounts[id] !== name)
      .map(([id, name]) => ({ bank_account_id: id, at_close: name, now: now.accounts[id] })),
  }
}

/** The month's latest close, or a 404 naming the month. */
export async function lastClose(db: Kysely<Db>, companyId: string, month: string) {
  const row = await db
    .selectFrom('period_closes')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('period', '=', month)
    .where('action', '=', 'close')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!row) throw new AppError('not_found', `${month} was never closed (finctl close history lists the closes)`)
  return row
}

/** Attach an export to the month's latest close; the month must still be closed and the period inside it. */
export async function attachExport(store: Store, actor: Actor, month: string, req: CloseExportRequest, now: Date): Promise<CloseExport> {
  await requireCloser(store, actor, false)
  const close = await lastClose(store.db, actor.companyId, month)
  const company = await store.db.selectFrom('companies').select('lock_date').where('id', '=', actor.companyId).executeTakeFirst()
  const end = monthEnd(month)
  if (!company?.lock_date || company.lock_date < end)
    throw new AppError('conflict', `${month} is not closed now (it was reopened): close it again before attaching exports`)
  if (req.from < `${month}-01` || req.to > end || req.from > req.to)
    throw new AppError(
      'validation_error',
      `from, to: an export attached to ${month} must cover days within ${month}-01..${end}, from on or before to`,
      {
        details: [{ path: 'from', message: `must be within ${month}-01..${end}` }],
      },
    )
  const row = {
    close_id: Number(close.id),
    company_id: actor.companyId,
    format: req.format,
    file_name: req.file_name,
    sha256: req.sha256,
    bytes: req.bytes,
    rows: req.rows,
    period_from: req.from,
    period_to: req.to,
    accounts_map_sha256: req.accounts_map_sha256 ?? null,
    actor: actorId(actor),
    created_at: now.toISOString(),
  }
  const { id } = await store.db.insertInto('close_exports').values(row).returning('id').executeTakeFirstOrThrow()
  return toExport({ ...row, id })
}

/** Audit entries after entry `headId` about one of `ids` (at most SHOWN), read a page at a time. */
async function auditAfterClose(
  db: Kysely<Db>,
  companyId: string,
  headId: number,
  ids: ReadonlySet<string>,
): Promise<CloseVerification['audit_after_close']> {
  const found: CloseVerification['audit_after_close'] = []
  let after = headId
  for (;;) {
    const page = await db
      .selectFrom('audit_entries')
      .select(['id', 'transaction_id', 'action', 'created_at'])
      .where('company_id', '=', companyId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute()
    for (const e of page)
      if (ids.has(e.transaction_id)) {
        found.push({ id: Number(e.id), transaction_id: e.transaction_id, action: e.action, created_at: e.created_at })
        if (found.length === SHOWN) return found
      }
    if (page.length < PAGE) return found
    after = Number(page[page.length - 1].id)
  }
}

/**
 * The month's latest close checked against today, on one snapshot: the chain intact, its entry that
 * was the head at the close still there with the same hash, the lock date still covering the month.
 */
export function verifyClose(store: Store, companyId: string, month: string): Promise<CloseVerification> {
  return store.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (db) => {
      const close = await lastClose(db, companyId, month)
      const record = toRecord(close)
      const chain = await verifyChain(db, companyId)
      let headFound = true
      let message = chain.broken?.message ?? null
      const head = record.chain_head
      if (head?.id != null) {
        const entry = await db
          .selectFrom('audit_entries')
          .select('hash')
          .where('id', '=', head.id)
          .where('company_id', '=', companyId)
          .executeTakeFirst()
        headFound = entry?.hash === head.hash
        if (!headFound)
          message = `audit entry #${head.id}, the chain's head when ${month} was closed, ${entry ? 'no longer has the hash recorded then' : 'was removed'}${message ? `; ${message}` : ''}`
      }
      const company = await db.selectFrom('companies').select('lock_date').where('id', '=', companyId).executeTakeFirst()
      const reopenRow = await db
        .selectFrom('period_closes')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('action', '=', 'reopen')
        .where('id', '>', close.id)
        .where('lock_date', '<', monthEnd(month))
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst()
      const exports = await db.selectFrom('close_exports').selectAll().where('close_id', '=', close.id).orderBy('id', 'asc').execute()
      // Those of earlier closes of the month: a file in a folder may be one of them, written before a reopen.
      const earlier = await db
        .selectFrom('close_exports as e')
        .innerJoin('period_closes as c', 'c.id', 'e.close_id')
        .selectAll('e')
        .select('c.created_at as closed_at')
        .where('c.company_id', '=', companyId)
        .where('c.period', '=', month)
        .where('c.id', '<', close.id)
        .orderBy('e.id', 'desc')
        .execute()
      const lock = await verifyLockDate(db, companyId)
      const now = await monthContents(store, db, companyId, month)
      const contents = await checkContents(db, close, now, month)
      const ids = new Set([...now.rows.keys(), ...contents.deleted])
      const auditAfter = head ? await auditAfterClose(db, companyId, head.id ?? 0, ids) : []
      return {
        month,
        record,
        chain: { intact: chain.intact, head_found: headFound, message },
        still_closed: !!company?.lock_date && company.lock_date >= monthEnd(month),
        lock: { intact: lock === null, message: lock?.message ?? null },
        renamed: renamedSince(close.names, await namesNow(db, companyId)),
        reopened: reopenRow ? toRecord(reopenRow) : null,
        exports: exports.map(toExport),
        earlier_exports: earlier.map((e) => ({ ...toExport(e), closed_at: e.closed_at })),
        contents,
        audit_after_close: auditAfter,
      }
    })
}

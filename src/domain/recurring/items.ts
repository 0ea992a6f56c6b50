/**
 * Recurring items (docs/forecast.md): `detect` finds series in the history and keeps them as
 * suggestions (replacing the last detection's), `accept` makes one an item the forecast counts
 * (again: the same answer, nothing written), `add` makes one by hand, `delete` removes one. An
 * accepted item whose next payment is overdue (its date and tolerance passed) is marked missed.
 */
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { currencyExponent } from '../../kernel/currencies.js'
import { notFound, validation } from '../../kernel/errors.js'
import { uuidv7 } from '../../kernel/ids.js'
import { minorToNumber, parseAmount } from '../../kernel/money.js'
import type { Db, RecurringItemsTable } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { findBankAccount } from '../accounts/bank-accounts.js'
import { baseCurrency } from '../accounts/companies.js'
import { eventRow, recordEvents } from '../events.js'
import { companyKey } from '../transaction-rows.js'
import { DEFAULT_DETECT, detectSeries, type Series } from './detect.js'
import { matchKey } from './normalize.js'
import { dayOfMonth, fromDay, nearestSlot, type Schedule, slotDay, toDay } from './schedule.js'
import { type PayeeGroup, scanHistory } from './scan.js'
import type { AddRecurringRequest, DetectRequest, DetectResult, RecurringItem, RecurringListQuery } from './schemas.js'

type Row = RecurringItemsTable
/** How many of the transactions an item rests on it keeps. */
const BASED_ON = 24
/** How far back a list looks for an accepted item's newer payments. */
const LOOK_BACK_DAYS = 400

export function scheduleOf(r: Pick<Row, 'interval' | 'anchor_date' | 'anchor_day'>): Schedule {
  return {
    interval: r.interval as Schedule['interval'],
    anchor: toDay(r.anchor_date),
    day: r.anchor_day === null ? null : Number(r.anchor_day),
  }
}

/** The next date due after the last payment seen (or the first slot from the anchor for an item never seen). */
export function nextDue(r: Pick<Row, 'interval' | 'anchor_date' | 'anchor_day' | 'date_tolerance'>, lastSeen: string | null): number {
  const s = scheduleOf(r)
  if (lastSeen === null) return slotDay(s, 0) >= s.anchor ? slotDay(s, 0) : slotDay(s, 1)
  const { k } = nearestSlot(s, toDay(lastSeen))
  return slotDay(s, k + 1)
}

/** A transaction's words that an item's key may name: its merchant (as written and as words) and its description's words. */
function keysOf(merchant: string | null, description: string): string[] {
  const out = [matchKey(null, description).slice(2)]
  if (merchant) out.push(merchant.trim().toLowerCase(), matchKey(null, merchant).slice(2))
  return out
}

/** Whether an amount is the item's, within its tolerance (same sign, same currency). */
export function amountFits(item: Pick<Row, 'amount' | 'amount_tolerance'>, amount: number): boolean {
  const a = Number(item.amount)
  if (Math.sign(a) !== Math.sign(amount)) return false
  const tol = Number(item.amount_tolerance)
  return tol === 0 ? a === amount : Math.abs(amount - a) * 100 <= Math.abs(a) * tol
}

interface Seen {
  last: string | null
}

/** The newest payment of each accepted item since its last one, read from the recent rows. */
async function newerPayments(
  db: Kysely<Db>,
  store: Store,
  companyId: string,
  rows: readonly Row[],
  today: string,
): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>(rows.map((r) => [r.id, { last: r.last_seen }]))
  const live = rows.filter((r) => r.status === 'accepted')
  if (live.length === 0) return seen
  const since = fromDay(
    Math.max(toDay(today) - LOOK_BACK_DAYS, Math.min(...live.map((r) => toDay(r.last_seen ?? r.anchor_date) - Number(r.date_tolerance)))),
  )
  const company = await companyKey(store, companyId, db)
  const base = await baseCurrency(store, companyId, db)
  const txs = await db
    .selectFrom('transactions')
    .select(['transaction_date', 'amount', 'currency_code', 'merchant_name', 'description'])
    .where('company_key', '=', company)
    .where('transaction_date', '>=', since)
    .where('transaction_date', '<=', today)
    .where('status', '!=', 'void')
    // Only amounts an item could take, read from the reports' covering index (base_amount is the
    // amount in the base currency): a few rows looked up instead of every recent one.
    .where((eb) =>
      eb.or(
        live.map((r) => {
          if (r.currency_code !== base) return eb('currency_code', '=', r.currency_code)
          const a = Number(r.amount)
          const slack = Math.ceil((Math.abs(a) * Number(r.amount_tolerance)) / 100)
          return eb.and([eb('base_amount', '>=', a - slack), eb('base_amount', '<=', a + slack)])
        }),
      ),
    )
    .execute()
  const byKey = new Map<string, Row[]>()
  for (const r of live) {
    const k = r.match_key.slice(2)
    byKey.set(k, [...(byKey.get(k) ?? []), r])
  }
  for (const t of txs) {
    for (const k of new Set(keysOf(t.merchant_name, t.description))) {
      for (const r of byKey.get(k) ?? []) {
        if (t.currency_code !== r.currency_code || !amountFits(r, Number(t.amount))) continue
        const s = seen.get(r.id)!
        // An item never seen counts payments from its first date (less the tolerance) on.
        const after = r.last_seen ?? fromDay(toDay(r.anchor_date) - Number(r.date_tolerance) - 1)
        if (t.transaction_date > after && (s.last === null || t.transaction_date > s.last)) s.last = t.transaction_date
      }
    }
  }
  return seen
}

function toItem(r: Row, seen: Seen | undefined, today: string): RecurringItem {
  const last = seen?.last ?? r.last_seen
  const due = nextDue(r, last)
  const tol = Number(r.date_tolerance)
  const notSeenBy = fromDay(due + tol)
  const ended = r.ends_on !== null && fromDay(due) > r.ends_on
  const missed =
    r.status === 'accepted' && !ended && notSeenBy < today
      ? { expected: fromDay(due), not_seen_by: notSeenBy, message: `${r.name} not seen by ${notSeenBy}` }
      : null
  return {
    id: r.id,
    status: r.status as RecurringItem['status'],
    source: r.source as RecurringItem['source'],
    name: r.name,
    match_key: r.match_key,
    interval: r.interval as RecurringItem['interval'],
    anchor_date: r.anchor_date,
    day_of_month: r.anchor_day === null ? null : Number(r.anchor_day),
    amount: minorToNumber(Number(r.amount), r.currency_code),
    currency: r.currency_code,
    amount_tolerance: Number(r.amount_tolerance),
    date_tolerance: tol,
    bank_account_id: r.bank_account_id,
    category: r.category,
    first_seen: r.first_seen,
    last_seen: last,
    occurrences: Number(r.occurrences),
    missed_in_history: 0,
    next_expected: fromDay(due),
    missed,
    transactions: JSON.parse(r.based_on) as string[],
    ends_on: r.ends_on,
    created_at: r.created_at,
    accepted_at: r.accepted_at,
  }
}

/** A detected series' id: the same payee, currency, direction and interval give the same id on every run. */
function seriesId(companyId: string, parts: readonly string[]): string {
  const h = createHash('sha256')
    .update([companyId, ...parts].join('\u0000'))
    .digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

export async function detectRecurring(store: Store, actor: Actor, q: DetectRequest, now: Date): Promise<DetectResult> {
  const companyId = actor.companyId
  const company = await companyKey(store, companyId)
  const scan = await scanHistory(store.db, company, q.from)
  const opts = {
    dateTolerance: q.date_tolerance ?? DEFAULT_DETECT.dateTolerance,
    amountTolerance: q.amount_tolerance ?? DEFAULT_DETECT.amountTolerance,
    minOccurrences: q.min_occurrences ?? DEFAULT_DETECT.minOccurrences,
    historyEnd: scan.end ?? 0,
  }
  const found: Array<{ id: string; group: PayeeGroup; series: Series }> = []
  const taken = new Set<string>()
  for (const g of scan.groups.values()) {
    for (const series of detectSeries(g.occurrences, opts)) {
      let id = seriesId(companyId, [g.key, g.currency, String(g.sign), series.schedule.interval])
      for (let i = 2; taken.has(id); i++) id = seriesId(companyId, [g.key, g.currency, String(g.sign), series.schedule.interval, String(i)])
      taken.add(id)
      found.push({ id, group: g, series })
    }
  }
  // The ids of the transactions each rests on (its latest ones), read by seq.
  const refs = found.flatMap((f) => f.series.occurrences.slice(-BASED_ON).map((o) => o.ref))
  const idOf = new Map<number, string>()
  for (let i = 0; i < refs.length; i += 500) {
    const rows = await store.db
      .selectFrom('transactions')
      .select(['seq', 'id'])
      .where('seq', 'in', refs.slice(i, i + 500))
      .execute()
    for (const r of rows) idOf.set(Number(r.seq), store.tx.idText(r.id))
  }
  const accounts = new Map(
    (await store.db.selectFrom('bank_accounts').select(['id', 'key']).where('company_id', '=', companyId).execute()).map((a) => [
      Number(a.key),
      a.id,
    ]),
  )
  const ts = now.toISOString()
  const today = ts.slice(0, 10)
  const rows: Row[] = found.map(({ id, group, series }) => {
    const occ = series.occurrences
    return {
      id,
      company_id: companyId,
      status: 'suggested',
      source: 'detected',
      name: group.label.trim().slice(0, 100),
      match_key: group.key,
      interval: series.schedule.interval,
      anchor_date: fromDay(series.schedule.anchor),
      anchor_day: series.schedule.day,
      amount: series.typical,
      currency_code: group.currency,
      amount_tolerance: opts.amountTolerance,
      date_tolerance: series.tolerance,
      bank_account_id: accounts.get(group.accountKey) ?? null,
      category: group.category,
      first_seen: fromDay(occ[0].day),
      last_seen: fromDay(occ[occ.length - 1].day),
      occurrences: occ.length,
      based_on: JSON.stringify(
        occ
          .slice(-BASED_ON)
          .map((o) => idOf.get(o.ref))
          .filter((x) => x !== undefined),
      ),
      ends_on: null,
      created_at: ts,
      updated_at: ts,
      accepted_at: null,
    }
  })
  const missedInHistory = new Map(found.map((f) => [f.id, f.series.missed]))
  const items = await store.writeTransaction(async (trx) => {
    await trx.deleteFrom('recurring_items').where('company_id', '=', companyId).where('status', '=', 'suggested').execute()
    const accepted = new Map(
      (
        await trx.selectFrom('recurring_items').selectAll().where('company_id', '=', companyId).where('status', '=', 'accepted').execute()
      ).map((r) => [r.id, r]),
    )
    const out: Row[] = []
    for (const r of rows) {
      const a = accepted.get(r.id)
      if (a) {
        // Found again: what it rests on moves on; what was accepted (amount, interval) stays.
        const seen = { last_seen: r.last_seen, first_seen: r.first_seen, occurrences: r.occurrences, based_on: r.based_on, updated_at: ts }
        await trx.updateTable('recurring_items').set(seen).where('id', '=', a.id).execute()
        out.push({ ...a, ...seen })
        continue
      }
      await trx.insertInto('recurring_items').values(r).execute()
      out.push(r)
    }
    return out
  })
  return {
    scanned: scan.scanned,
    payees: scan.groups.size,
    items: items
      .map((r) => ({ ...toItem(r, undefined, today), missed_in_history: missedInHistory.get(r.id) ?? 0 }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
  }
}

async function rowOf(db: Kysely<Db>, companyId: string, id: string): Promise<Row> {
  const r = await db.selectFrom('recurring_items').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst()
  if (!r) throw notFound('recurring item')
  return r
}

export async function acceptRecurring(store: Store, actor: Actor, id: string, now: Date): Promise<RecurringItem> {
  const today = now.toISOString().slice(0, 10)
  const row = await store.writeTransaction(async (trx) => {
    const r = await rowOf(trx, actor.companyId, id)
    if (r.status === 'accepted') return r
    const ts = now.toISOString()
    await trx.updateTable('recurring_items').set({ status: 'accepted', accepted_at: ts, updated_at: ts }).where('id', '=', id).execute()
    const accepted = { ...r, status: 'accepted', accepted_at: ts, updated_at: ts }
    await recordEvents(store, trx, [eventRow(actor, 'recurring.accepted', id, toItem(accepted, undefined, today), now)])
    return accepted
  })
  const seen = await newerPayments(store.db, store, actor.companyId, [row], today)
  return toItem(row, seen.get(row.id), today)
}

export async function addRecurring(store: Store, actor: Actor, body: AddRecurringRequest, now: Date): Promise<RecurringItem> {
  const companyId = actor.companyId
  const currency = body.currency ?? (await baseCurrency(store, companyId))
  const amount = parseAmount(body.amount, currencyExponent(currency))
  if (!amount.ok) throw validation('amount', amount.message)
  if (amount.minor === 0) throw validation('amount', 'must not be 0')
  if (body.ends_on !== undefined && body.ends_on < body.start) throw validation('ends_on', `must be on or after \`start\` (${body.start})`)
  if (body.bank_account_id !== undefined) await findBankAccount(store, companyId, body.bank_account_id)
  const key = matchKey(null, body.match ?? body.name)
  if (key.length <= 2)
    throw validation(body.match === undefined ? 'name' : 'match', 'needs a word without digits to find its transactions by')
  const monthBased = ['monthly', 'quarterly', 'yearly'].includes(body.interval)
  const ts = now.toISOString()
  const row: Row = {
    id: uuidv7(now.getTime()),
    company_id: companyId,
    status: 'accepted',
    source: 'manual',
    name: body.name,
    match_key: key,
    interval: body.interval,
    anchor_date: body.start,
    anchor_day: monthBased ? dayOfMonth(toDay(body.start)) : null,
    amount: amount.minor,
    currency_code: currency,
    amount_tolerance: body.amount_tolerance ?? DEFAULT_DETECT.amountTolerance,
    date_tolerance: body.date_tolerance ?? DEFAULT_DETECT.dateTolerance,
    bank_account_id: body.bank_account_id ?? null,
    category: body.category ?? null,
    first_seen: null,
    last_seen: null,
    occurrences: 0,
    based_on: '[]',
    ends_on: body.ends_on ?? null,
    created_at: ts,
    updated_at: ts,
    accepted_at: ts,
  }
  const today = ts.slice(0, 10)
  await store.writeTransaction(async (trx) => {
    await trx.insertInto('recurring_items').values(row).execute()
    await recordEvents(store, trx, [eventRow(actor, 'recurring.accepted', row.id, toItem(row, undefined, today), now)])
  })
  const seen = await newerPayments(store.db, store, companyId, [row], today)
  return toItem(row, seen.get(row.id), today)
}

export async function deleteRecurring(store: Store, actor: Actor, id: string, now: Date): Promise<{ id: string; deleted: true }> {
  await store.writeTransaction(async (trx) => {
    const r = await rowOf(trx, actor.companyId, id)
    await trx.deleteFrom('recurring_items').where('id', '=', id).execute()
    await recordEvents(store, trx, [eventRow(actor, 'recurring.deleted', id, toItem(r, undefined, now.toISOString().slice(0, 10)), now)])
  })
  return { id, deleted: true }
}

/** Accepted items (or suggestions, or both), each with its next date due and whether it is overdue. */
export async function listRecurring(
  store: Store,
  companyId: string,
  q: RecurringListQuery,
  now: Date,
  db: Kysely<Db> = store.db,
): Promise<RecurringItem[]> {
  const status = q.status ?? 'accepted'
  let query = db.selectFrom('recurring_items').selectAll().where('company_id', '=', companyId)
  if (status !== 'all') query = query.where('status', '=', status)
  const rows = await query.orderBy('name').orderBy('id').execute()
  const today = now.toISOString().slice(0, 10)
  const seen = await newerPayments(db, store, companyId, rows, today)
  return rows.map((r) => toItem(r, seen.get(r.id), today))
}

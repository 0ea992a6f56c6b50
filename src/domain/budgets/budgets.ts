/**
 * Budgets (docs/budgets.md): an amount per category, month and version, in exact minor units of its
 * currency (the company's unless given). A change never edits a row: it supersedes it and inserts
 * the new one, in one write transaction with its audit entries and its event, so the budgets as they
 * stood at a moment are the rows created by then and not superseded by then. A closed month's budgets
 * are locked like its transactions (409 period_locked).
 */
import type { Kysely } from 'kysely'
import { AppError, validation } from '../../kernel/errors.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { uuidv7 } from '../../kernel/ids.js'
import { didYouMean } from '../../kernel/near-names.js'
import { minorToNumber, parseAmount } from '../../kernel/money.js'
import type { Db, NewAuditEntryRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import { baseCurrency } from '../accounts/companies.js'
import { checkUnlocked, lockDateOf } from '../accounts/period-lock.js'
import { eventRow, recordEvents } from '../events.js'
import { addMonths, monthNumber, monthsBetween } from './months.js'
import type {
  Budget,
  BudgetListQuery,
  BudgetVersion,
  DeleteBudgetsQuery,
  DeletedBudgets,
  SetBudgetRequest,
  SetBudgetResult,
} from './schemas.js'

export const DEFAULT_VERSION = 'original'
/** At most this many months in one `budgets set`: ten years. */
export const MAX_MONTHS = 120

export interface BudgetRowLive {
  id: string
  version: string
  category: string
  month: string
  amount: number
  currency_code: string
  rollover: number
  created_at: string
  created_by: string
}

export function toBudget(r: BudgetRowLive): Budget {
  return {
    id: r.id,
    version: r.version,
    category: r.category,
    month: r.month,
    amount: minorToNumber(Number(r.amount), r.currency_code),
    currency: r.currency_code,
    rollover: Number(r.rollover) === 1,
    created_at: r.created_at,
    created_by: r.created_by,
  }
}

/** The current version's name: the one marked current, else 'original' (no budget set yet). */
export async function currentVersion(db: Kysely<Db>, companyId: string): Promise<string> {
  const row = await db
    .selectFrom('budget_versions')
    .select('name')
    .where('company_id', '=', companyId)
    .where('is_current', '=', 1)
    .executeTakeFirst()
  return row?.name ?? DEFAULT_VERSION
}

/**
 * A version asked for by name must exist (a 404 naming it and the nearest names: a typo would read
 * as a version without budgets), unless none is asked: then the current one.
 */
export async function versionOf(db: Kysely<Db>, companyId: string, name: string | undefined): Promise<string> {
  if (name === undefined) return currentVersion(db, companyId)
  const names = (await db.selectFrom('budget_versions').select('name').where('company_id', '=', companyId).execute()).map((v) => v.name)
  if (!names.includes(name)) throw noVersion(names, name)
  return name
}

const noVersion = (names: string[], name: string): AppError =>
  new AppError('not_found', `budget version "${name}" not found${didYouMean(names, name)}`)

/**
 * The budgets of a version in a range of months: live now, or as they stood at `asOf` (created by
 * then, not superseded by then).
 */
export async function budgetsOf(
  db: Kysely<Db>,
  companyId: string,
  version: string,
  o: { from?: string; to?: string; category?: string; asOf?: string } = {},
): Promise<BudgetRowLive[]> {
  let q = db
    .selectFrom('budgets')
    .select(['id', 'version', 'category', 'month', 'amount', 'currency_code', 'rollover', 'created_at', 'created_by'])
    .where('company_id', '=', companyId)
    .where('version', '=', version)
  if (o.asOf === undefined) q = q.where('superseded_at', 'is', null)
  else {
    const at = o.asOf
    q = q.where('created_at', '<=', at).where((eb) => eb.or([eb('superseded_at', 'is', null), eb('superseded_at', '>', at)]))
  }
  if (o.from) q = q.where('month', '>=', o.from)
  if (o.to) q = q.where('month', '<=', o.to)
  if (o.category !== undefined) q = q.where('category', '=', o.category)
  const rows = await q.orderBy('category').orderBy('month').execute()
  return rows.map((r) => ({ ...r, amount: Number(r.amount), rollover: Number(r.rollover) }))
}

function rangeOf(from: string | undefined, to: string | undefined, now: Date): { from: string; to: string } {
  const f = from ?? now.toISOString().slice(0, 7)
  const t = to ?? addMonths(f, 11)
  if (t < f) throw validation('to', `must be on or after \`from\` (${f})`)
  const n = monthNumber(t) - monthNumber(f) + 1
  if (n > MAX_MONTHS) throw validation('to', `${f}..${t} is ${n} months; at most ${MAX_MONTHS} in one request`)
  return { from: f, to: t }
}

/** The first month of `months` that is closed: a 409 naming it, the lock date and how to reopen. */
async function checkMonthsOpen(db: Kysely<Db>, companyId: string, months: readonly string[], path: string): Promise<void> {
  const lock = await lockDateOf(db, companyId)
  // Months close whole: a month is closed when its first day is on or before the lock date.
  for (const m of months) checkUnlocked(lock, `${m}-01`, `the budget of ${m}`, path)
}

function auditEntry(actor: Actor, action: 'budget_set' | 'budget_deleted', id: string, changes: object, at: string): NewAuditEntryRow {
  return {
    company_id: actor.companyId,
    transaction_id: id,
    actor: actorId(actor),
    action,
    changes: JSON.stringify(changes),
    created_at: at,
  }
}

/** Set a category's monthly budget over a range of months; a month that has the same budget already is left as it is. */
export async function setBudget(store: Store, actor: Actor, body: SetBudgetRequest, now: Date): Promise<SetBudgetResult> {
  const companyId = actor.companyId
  const base = await baseCurrency(store, companyId)
  const currency = body.currency ?? base
  const parsed = parseAmount(body.monthly, currencyExponent(currency))
  if (!parsed.ok) throw validation('monthly', parsed.message)
  if (parsed.minor < 0) throw validation('monthly', 'must not be negative: a budget is the spending allowed in a month')
  const { from, to } = rangeOf(body.from, body.to, now)
  const months = monthsBetween(from, to)
  const rollover = body.rollover === true ? 1 : 0
  const ts = now.toISOString()
  const who = actorId(actor)
  return store.writeTransaction(async (trx) => {
    await checkMonthsOpen(trx, companyId, months, 'from')
    const version = body.version ?? (await currentVersion(trx, companyId))
    const versions = await trx.selectFrom('budget_versions').select(['name', 'is_current']).where('company_id', '=', companyId).execute()
    if (!versions.some((v) => v.name === version)) {
      await trx
        .insertInto('budget_versions')
        .values({ company_id: companyId, name: version, is_current: versions.length === 0 ? 1 : 0, created_at: ts, created_by: who })
        .execute()
    }
    const live = new Map((await budgetsOf(trx, companyId, version, { from, to, category: body.category })).map((r) => [r.month, r]))
    const out: BudgetRowLive[] = []
    const fresh: BudgetRowLive[] = []
    const audit: NewAuditEntryRow[] = []
    const superseded: string[] = []
    let created = 0
    let updated = 0
    for (const month of months) {
      const old = live.get(month)
      if (old && old.amount === parsed.minor && old.currency_code === currency && old.rollover === rollover) {
        out.push(old)
        continue
      }
      const row: BudgetRowLive = {
        id: uuidv7(now.getTime()),
        version,
        category: body.category,
        month,
        amount: parsed.minor,
        currency_code: currency,
        rollover,
        created_at: ts,
        created_by: who,
      }
      if (old) {
        superseded.push(old.id)
        updated++
      } else created++
      out.push(row)
      fresh.push(row)
      const before = old ? { amount: old.amount, currency: old.currency_code, rollover: old.rollover === 1 } : null
      audit.push(
        auditEntry(
          actor,
          'budget_set',
          row.id,
          {
            version,
            category: body.category,
            month,
            before,
            after: { amount: row.amount, currency, rollover: rollover === 1 },
            replaces: old?.id ?? null,
          },
          ts,
        ),
      )
    }
    if (superseded.length) {
      await trx.updateTable('budgets').set({ superseded_at: ts, superseded_by: who }).where('id', 'in', superseded).execute()
    }
    for (let i = 0; i < fresh.length; i += 200) {
      await trx
        .insertInto('budgets')
        .values(fresh.slice(i, i + 200).map((r) => ({ ...r, company_id: companyId, superseded_at: null, superseded_by: null })))
        .execute()
    }
    const result: SetBudgetResult = {
      version,
      category: body.category,
      from,
      to,
      created,
      updated,
      unchanged: months.length - created - updated,
      budgets: out.map(toBudget),
    }
    if (audit.length) {
      await store.writes.appendAudit(trx, audit)
      const { budgets: _rows, ...summary } = result
      await recordEvents(store, trx, [
        eventRow(
          actor,
          'budget.set',
          null,
          { ...summary, amount: minorToNumber(parsed.minor, currency), currency, rollover: rollover === 1 },
          now,
        ),
      ])
    }
    return result
  })
}

export async function listBudgets(store: Store, companyId: string, q: BudgetListQuery): Promise<{ version: string; budgets: Budget[] }> {
  const version = await versionOf(store.db, companyId, q.version)
  const rows = await budgetsOf(store.db, companyId, version, { from: q.from, to: q.to, category: q.category })
  return { version, budgets: rows.map(toBudget) }
}

/** Delete a category's budgets in a range of months (all of them without one); none there is a 404. */
export async function deleteBudgets(store: Store, actor: Actor, q: DeleteBudgetsQuery, now: Date): Promise<DeletedBudgets> {
  const companyId = actor.companyId
  if (q.from && q.to && q.to < q.from) throw validation('to', `must be on or after \`from\` (${q.from})`)
  const ts = now.toISOString()
  return store.writeTransaction(async (trx) => {
    const version = await versionOf(trx, companyId, q.version)
    const rows = await budgetsOf(trx, companyId, version, { from: q.from, to: q.to, category: q.category })
    if (rows.length === 0) {
      // Another category's name, when the one given is a typo (not the same one outside the range).
      const categories = (await budgetsOf(trx, companyId, version)).map((b) => b.category).filter((c) => c !== q.category)
      throw new AppError(
        'not_found',
        `a budget of "${q.category}" in version "${version}"${q.from || q.to ? ` from ${q.from ?? 'the first month'} to ${q.to ?? 'the last'}` : ''} not found${didYouMean(categories, q.category)}`,
      )
    }
    await checkMonthsOpen(
      trx,
      companyId,
      rows.map((r) => r.month),
      q.from ? 'from' : 'category',
    )
    await trx
      .updateTable('budgets')
      .set({ superseded_at: ts, superseded_by: actorId(actor) })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute()
    await store.writes.appendAudit(
      trx,
      rows.map((r) =>
        auditEntry(
          actor,
          'budget_deleted',
          r.id,
          {
            version,
            category: r.category,
            month: r.month,
            before: { amount: r.amount, currency: r.currency_code, rollover: r.rollover === 1 },
            after: null,
          },
          ts,
        ),
      ),
    )
    const result = { version, category: q.category, deleted: rows.length, months: rows.map((r) => r.month) }
    await recordEvents(store, trx, [eventRow(actor, 'budget.deleted', null, result, now)])
    return result
  })
}

export async function listVersions(store: Store, companyId: string): Promise<BudgetVersion[]> {
  const versions = await store.db
    .selectFrom('budget_versions')
    .select(['name', 'is_current', 'created_at'])
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('name')
    .execute()
  const counts = await store.db
    .selectFrom('budgets')
    .select(['version', (eb) => eb.fn.countAll<number>().as('n')])
    .where('company_id', '=', companyId)
    .where('superseded_at', 'is', null)
    .groupBy('version')
    .execute()
  const n = new Map(counts.map((c) => [c.version, Number(c.n)]))
  return versions.map((v) => ({ name: v.name, current: Number(v.is_current) === 1, budgets: n.get(v.name) ?? 0, created_at: v.created_at }))
}

/** Make a version the current one (the one reports and the forecast read unless told otherwise). */
export async function makeCurrent(store: Store, actor: Actor, name: string, now: Date): Promise<BudgetVersion> {
  await store.writeTransaction(async (trx) => {
    const found = await trx
      .selectFrom('budget_versions')
      .select('is_current')
      .where('company_id', '=', actor.companyId)
      .where('name', '=', name)
      .executeTakeFirst()
    if (!found) {
      const names = await trx.selectFrom('budget_versions').select('name').where('company_id', '=', actor.companyId).execute()
      throw noVersion(
        names.map((v) => v.name),
        name,
      )
    }
    if (Number(found.is_current) === 1) return
    await trx.updateTable('budget_versions').set({ is_current: 0 }).where('company_id', '=', actor.companyId).execute()
    await trx
      .updateTable('budget_versions')
      .set({ is_current: 1 })
      .where('company_id', '=', actor.companyId)
      .where('name', '=', name)
      .execute()
    await recordEvents(store, trx, [eventRow(actor, 'budget.version_current', null, { version: name }, now)])
  })
  const v = (await listVersions(store, actor.companyId)).find((x) => x.name === name)
  if (!v) throw new AppError('internal_error', `budget version "${name}" went away`)
  return v
}

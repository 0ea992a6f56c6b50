/**
 * A company's categorization rules: ordered CRUD with dense positions (1..n), and running one rule
 * over existing transactions, read-only (`testRule`) or through the audited bulk update (`applyRule`).
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Store } from '../../store/store.js'
import type { CategorizationRuleRow, Db } from '../../store/schema.js'
import type { TransactionRow } from '../../store/transaction-codec.js'
import type { Actor } from '../actor.js'
import { findBankAccount } from '../accounts/bank-accounts.js'
import { describeConditions } from './rule-words.js'
import {
  sinceDate,
  type CategorizationRule,
  type CreateRuleRequest,
  type RuleActions,
  type RuleApplyResult,
  type RuleConditions,
  type RuleTestResult,
  type UpdateRuleRequest,
} from './rule-schemas.js'
import type { CompiledRule, RuleOutcome } from './rule-matcher.js'
import { AppError, notFound } from '../../kernel/errors.js'

/** The matcher (and its regex engine) loads when rules are checked or run, not with the core. */
const matcher = () => import('./rule-matcher.js')
import type { BulkUpdateRequest } from '../schemas.js'
import { bulkUpdateTransactions } from '../transactions/updates.js'
import { companyKey, toTransaction } from '../transactions/rows.js'

/** Rules run for every imported row: a company keeps at most this many. */
export const MAX_RULES = 1000
const SCAN_PAGE = 1000
const APPLY_CHUNK = 1000
const DEFAULT_SINCE = '90d'

export function toRule(row: CategorizationRuleRow): CategorizationRule {
  return {
    id: row.id,
    name: row.name,
    position: Number(row.position),
    conditions: JSON.parse(row.conditions) as RuleConditions,
    actions: JSON.parse(row.actions) as RuleActions,
    is_active: Number(row.is_active) === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

async function findRule(db: Kysely<Db>, companyId: string, id: string): Promise<CategorizationRuleRow> {
  const row = await db
    .selectFrom('categorization_rules')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw notFound('categorization rule')
  return row
}

/** Serialise changes of one company's order: SQLite's write lock already does; PostgreSQL locks the company row. */
async function lockOrder(store: Store, trx: Kysely<Db>, companyId: string): Promise<number> {
  if (store.dialect === 'postgres') await trx.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().execute()
  const r = await trx
    .selectFrom('categorization_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

/** Move the positions in [from, to] of a company's rules by `delta`. */
async function shift(trx: Kysely<Db>, companyId: string, from: number, to: number, delta: 1 | -1): Promise<void> {
  if (from > to) return
  await trx
    .updateTable('categorization_rules')
    .set((eb) => ({ position: eb('position', '+', delta) }))
    .where('company_id', '=', companyId)
    .where('position', '>=', from)
    .where('position', '<=', to)
    .execute()
}

/** Amounts are kept as the decimal text given; a condition's account must be the company's. */
async function normalised(store: Store, trx: Kysely<Db>, companyId: string, c: RuleConditions): Promise<RuleConditions> {
  ;(await matcher()).checkPatterns(c)
  if (c.bank_account_id !== undefined) {
    await findBankAccount(store, companyId, c.bank_account_id, trx).catch(() => {
      throw new AppError('not_found', 'bank account not found', {
        details: [{ path: 'conditions.bank_account_id', message: 'no such bank account' }],
      })
    })
  }
  const text = (v: string | number | undefined) =>
    v === undefined
      ? undefined
      : String(v)
          .trim()
          .replace(/^\u2212/, '-')
  return { ...c, min_amount: text(c.min_amount), max_amount: text(c.max_amount) }
}

const actionsJson = (a: RuleActions) => JSON.stringify(a.tags ? { ...a, tags: [...new Set(a.tags)] } : a)

export async function listRules(store: Store, companyId: string): Promise<CategorizationRule[]> {
  const rows = await store.db
    .selectFrom('categorization_rules')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('position')
    .orderBy('id')
    .execute()
  return rows.map(toRule)
}

export async function getRule(store: Store, companyId: string, id: string): Promise<CategorizationRule> {
  return toRule(await findRule(store.db, companyId, id))
}

export async function createRule(store: Store, actor: Actor, input: CreateRuleRequest, now: Date): Promise<CategorizationRule> {
  return store.writeTransaction(async (trx) => {
    const count = await lockOrder(store, trx, actor.companyId)
    if (count >= MAX_RULES) throw new AppError('conflict', `a company keeps at most ${MAX_RULES} rules: delete or merge some first`)
    const conditions = await normalised(store, trx, actor.companyId, input.conditions)
    const position = Math.min(input.position ?? count + 1, count + 1)
    await shift(trx, actor.companyId, position, count, 1)
    const row: CategorizationRuleRow = {
      id: randomUUID(),
      company_id: actor.companyId,
      position,
      name: input.name ?? describeConditions(conditions),
      conditions: JSON.stringify(conditions),
      actions: actionsJson(input.actions),
      is_active: input.is_active === false ? 0 : 1,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    }
    await trx.insertInto('categorization_rules').values(row).execute()
    return toRule(row)
  })
}

export async function updateRule(store: Store, actor: Actor, id: string, patch: UpdateRuleRequest, now: Date): Promise<CategorizationRule> {
  return store.writeTransaction(async (trx) => {
    const count = await lockOrder(store, trx, actor.companyId)
    const row = await findRule(trx, actor.companyId, id)
    if (Object.values(patch).every((v) => v === undefined)) return toRule(row)
    const next: CategorizationRuleRow = { ...row, position: Number(row.position), updated_at: now.toISOString() }
    if (patch.name !== undefined) next.name = patch.name
    if (patch.conditions !== undefined) next.conditions = JSON.stringify(await normalised(store, trx, actor.companyId, patch.conditions))
    if (patch.actions !== undefined) next.actions = actionsJson(patch.actions)
    if (patch.is_active !== undefined) next.is_active = patch.is_active ? 1 : 0
    if (patch.position !== undefined) {
      const from = next.position
      const to = Math.min(patch.position, count)
      // Out of the way first, then close the gap and open the new place.
      if (to < from) await shift(trx, actor.companyId, to, from - 1, 1)
      if (to > from) await shift(trx, actor.companyId, from + 1, to, -1)
      next.position = to
    }
    const { id: _id, company_id: _c, created_at: _t, ...set } = next
    await trx.updateTable('categorization_rules').set(set).where('id', '=', row.id).execute()
    return toRule(next)
  })
}

export async function deleteRule(store: Store, actor: Actor, id: string): Promise<{ id: string; deleted: true }> {
  return store.writeTransaction(async (trx) => {
    const count = await lockOrder(store, trx, actor.companyId)
    const row = await findRule(trx, actor.companyId, id)
    await trx.deleteFrom('categorization_rules').where('id', '=', row.id).execute()
    await shift(trx, actor.companyId, Number(row.position) + 1, count, -1)
    return { id: row.id, deleted: true as const }
  })
}

/** The company's active rules, compiled, in position order (what categorizing a row runs). */
export async function loadActiveRules(db: Kysely<Db>, companyId: string): Promise<CompiledRule[]> {
  const { compileRules } = await matcher()
  return compileRules(
    await db.selectFrom('categorization_rules').selectAll().where('company_id', '=', companyId).where('is_active', '=', 1).execute(),
  )
}

// ---- running one rule over existing transactions ------------------------------------------------

/** The company's non-void transactions dated on or after `since`, a page at a time in (date, seq) order. */
async function* scan(store: Store, companyId: string, since: string): AsyncGenerator<TransactionRow[]> {
  let after: [string, number] | undefined
  const company = await companyKey(store, companyId)
  for (;;) {
    let q = store.db
      .selectFrom('transactions')
      .selectAll()
      .where('company_key', '=', company)
      .where('transaction_date', '>=', since)
      .where('status', '!=', 'void')
    if (after) {
      const [date, seq] = after
      q = q.where((eb) => eb(eb.refTuple('transaction_date', 'seq'), '>', eb.tuple(date, seq)))
    }
    const rows = await store.tx.decode(store.db, await q.orderBy('transaction_date').orderBy('seq').limit(SCAN_PAGE).execute())
    if (rows.length) yield rows
    if (rows.length < SCAN_PAGE) return
    const last = rows[rows.length - 1]
    after = [last.transaction_date, last.seq]
  }
}

type FieldChanges = Record<string, { from: unknown; to: unknown }>
const SET_FIELDS = ['category', 'accounting_category', 'cash_flow_category', 'merchant_name'] as const

/** The fields an outcome would change on a row (tags: the ones it does not have yet). */
function changesOf(outcome: RuleOutcome, row: TransactionRow): FieldChanges {
  const changes: FieldChanges = {}
  for (const f of SET_FIELDS) {
    const to = outcome[f]
    if (to !== undefined && to !== row[f]) changes[f] = { from: row[f], to }
  }
  if (outcome.add_tags.length) {
    const tags = JSON.parse(row.tags) as string[]
    const added = outcome.add_tags.filter((t) => !tags.includes(t))
    if (added.length) changes.tags = { from: tags, to: [...tags, ...added] }
  }
  return changes
}

/** A rule runs over existing transactions whether or not it is active (trying one before enabling it). */
async function oneRule(store: Store, companyId: string, id: string): Promise<{ row: CategorizationRuleRow; compiled: CompiledRule[] }> {
  const row = await findRule(store.db, companyId, id)
  const { compileRule } = await matcher()
  return { row, compiled: [compileRule(row.id, JSON.parse(row.conditions) as RuleConditions, JSON.parse(row.actions) as RuleActions)] }
}

/** Each transaction the rule matches, with what it would change (empty when nothing). */
async function* matches(store: Store, companyId: string, rule: CompiledRule[], since: string, counts: { scanned: number }) {
  const { applyRules } = await matcher()
  for await (const page of scan(store, companyId, since)) {
    counts.scanned += page.length
    for (const row of page) {
      const outcome = applyRules(rule, row)
      if (outcome.rule_ids.length) yield { row, changes: changesOf(outcome, row) }
    }
  }
}

/** Which transactions the rule would change, without changing any. */
export async function testRule(
  store: Store,
  actor: Actor,
  id: string,
  o: { since?: string; limit?: number },
  now: Date,
): Promise<RuleTestResult> {
  const { row, compiled } = await oneRule(store, actor.companyId, id)
  const since = sinceDate(o.since ?? DEFAULT_SINCE, now)
  const limit = o.limit ?? 50
  const counts = { scanned: 0 }
  let matched = 0
  const changes: RuleTestResult['changes'] = []
  let wouldChange = 0
  for await (const m of matches(store, actor.companyId, compiled, since, counts)) {
    matched++
    if (Object.keys(m.changes).length === 0) continue
    wouldChange++
    if (changes.length < limit) changes.push({ transaction: toTransaction(m.row), changes: m.changes })
  }
  return { rule: toRule(row), since, scanned: counts.scanned, matched, would_change: wouldChange, changes }
}

/** Bulk-update a chunk; a transaction deleted since the scan is left out rather than failing the chunk. */
async function updateChunk(store: Store, actor: Actor, ids: string[], updates: BulkUpdateRequest['updates'], now: Date): Promise<string[]> {
  try {
    return (await bulkUpdateTransactions(store, actor, { transaction_ids: ids, updates }, now)).transactions.map((t) => t.id)
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== 'not_found') throw e
    const stored = store.tx.idParams(ids)
    const still = stored.length
      ? await store.db
          .selectFrom('transactions')
          .select('id')
          .where('company_key', '=', await companyKey(store, actor.companyId))
          .where('id', 'in', stored)
          .execute()
      : []
    if (!still.length) return []
    return (
      await bulkUpdateTransactions(store, actor, { transaction_ids: still.map((r) => store.tx.idText(r.id)), updates }, now)
    ).transactions.map((t) => t.id)
  }
}

/** Change the transactions the rule would change, through the audited bulk update, 1,000 at a time. */
export async function applyRule(store: Store, actor: Actor, id: string, o: { since?: string }, now: Date): Promise<RuleApplyResult> {
  const { row, compiled } = await oneRule(store, actor.companyId, id)
  const actions = JSON.parse(row.actions) as RuleActions
  const { tags, ...fields } = actions
  const updates: BulkUpdateRequest['updates'] = { ...fields, ...(tags ? { add_tags: tags } : {}) }
  const since = sinceDate(o.since ?? DEFAULT_SINCE, now)
  let matched = 0
  let updated = 0
  /** The changed ids, until there are too many to list. */
  let ids: string[] | null = []
  let pending: string[] = []
  const flush = async () => {
    const done = await updateChunk(store, actor, pending, updates, now)
    pending = []
    updated += done.length
    ids = ids && ids.length + done.length <= APPLY_CHUNK ? [...ids, ...done] : null
  }
  // Updating only category fields and tags never moves a row in the scan's (date, seq) order.
  for await (const m of matches(store, actor.companyId, compiled, since, { scanned: 0 })) {
    matched++
    if (Object.keys(m.changes).length) pending.push(m.row.id)
    if (pending.length === APPLY_CHUNK) await flush()
  }
  if (pending.length) await flush()
  return { since, matched, updated, ...(ids ? { transaction_ids: ids } : {}) }
}

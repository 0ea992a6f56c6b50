/**
 * A company's categorization rules: ordered CRUD with dense positions (1..n), and the active ones
 * compiled for the categorizer. Running one rule over existing transactions updates them, so it is
 * the transactions' use case (transactions/rule-runs.ts).
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Store } from '../../store/store.js'
import type { CategorizationRuleRow, Db } from '../../store/schema.js'
import type { Actor } from '../actor.js'
import { findBankAccount } from '../accounts/bank-accounts.js'
import { describeConditions } from './rule-words.js'
import type { CategorizationRule, CreateRuleRequest, RuleActions, RuleConditions, UpdateRuleRequest } from './rule-schemas.js'
import type { CompiledRule } from './rule-matcher.js'
import { AppError, notFound } from '../../kernel/errors.js'

/** The matcher (and its regex engine) loads when rules are checked or run, not with the core. */
const matcher = () => import('./rule-matcher.js')

/** Rules run for every imported row: a company keeps at most this many. */
export const MAX_RULES = 1000

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

export async function findRule(db: Kysely<Db>, companyId: string, id: string): Promise<CategorizationRuleRow> {
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
  if (store.sql.rowLocks) await trx.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().execute()
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
export async function normalised(store: Store, trx: Kysely<Db>, companyId: string, c: RuleConditions): Promise<RuleConditions> {
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
  return store.writeTransaction((trx) => createRuleIn(store, trx, actor, input, now))
}

/** A rule stored inside the caller's write transaction (an agent's approved proposal creates one there). */
export async function createRuleIn(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  input: CreateRuleRequest,
  now: Date,
): Promise<CategorizationRule> {
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

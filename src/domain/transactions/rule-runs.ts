/**
 * Running one categorization rule, or all active rules in their order, over a company's existing
 * transactions, read-only (`testRule`) or through the audited bulk update (`applyRule`): a use case
 * of transactions that reads the rules, so it sits above categorization.
 */
import type { Kysely } from 'kysely'
import type { CategorizationRuleRow, Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { TransactionRow } from '../../store/transaction-codec.js'
import type { Actor } from '../actor.js'
import { AppError } from '../../kernel/errors.js'
import type { BulkUpdateRequest } from '../schemas.js'
import { companyKey, toTransaction } from '../transaction-rows.js'
import type { CompiledRule, RuleOutcome } from '../categorization/rule-matcher.js'
import {
  sinceDate,
  type RuleActions,
  type RuleApplyResult,
  type RuleConditions,
  type RuleRunOptions,
  type RuleTestResult,
} from '../categorization/rule-schemas.js'
import { findRule, toRule } from '../categorization/rules.js'

/** One rule by its id, or every active rule of the company in run order. */
export type RuleChoice = { id: string } | 'all'
/** Or a rule not stored yet: an agent's proposal of one (docs/agents.md). */
export type RunChoice = RuleChoice | { draft: { conditions: RuleConditions; actions: RuleActions } }
import { bulkUpdateTransactions } from './updates.js'

/** The matcher (and its regex engine) loads when a rule runs, not with the core. */
const matcher = () => import('../categorization/rule-matcher.js')

const SCAN_PAGE = 1000
const APPLY_CHUNK = 1000
const DEFAULT_SINCE = '90d'

/** The company's non-void transactions dated on or after `since`, a page at a time in (date, seq) order. */
async function* scan(store: Store, db: Kysely<Db>, companyId: string, since: string): AsyncGenerator<TransactionRow[]> {
  let after: [string, number] | undefined
  const company = await companyKey(store, companyId, db)
  for (;;) {
    let q = db
      .selectFrom('transactions')
      .selectAll()
      .where('company_key', '=', company)
      .where('transaction_date', '>=', since)
      .where('status', '!=', 'void')
    if (after) {
      const [date, seq] = after
      q = q.where((eb) => eb(eb.refTuple('transaction_date', 'seq'), '>', eb.tuple(date, seq)))
    }
    const rows = await store.tx.decode(db, await q.orderBy('transaction_date').orderBy('seq').limit(SCAN_PAGE).execute())
    if (rows.length) yield rows
    if (rows.length < SCAN_PAGE) return
    const last = rows[rows.length - 1]
    after = [last.transaction_date, last.seq]
  }
}

export type FieldChanges = Record<string, { from: unknown; to: unknown }>

/** The window a run takes: its first date (`since` resolved against `now`) and whether it fills empty fields only. */
export const runWindow = (o: RuleRunOptions, now: Date) => ({
  since: sinceDate(o.since ?? DEFAULT_SINCE, now),
  onlyEmpty: o.only_empty ?? false,
})
const SET_FIELDS = ['category', 'accounting_category', 'cash_flow_category', 'merchant_name'] as const

/**
 * The fields an outcome would change on a row (tags: the ones it does not have yet). With
 * `onlyEmpty`, a field that holds a value keeps it; adding tags never replaces any.
 */
function changesOf(outcome: RuleOutcome, row: TransactionRow, onlyEmpty: boolean): FieldChanges {
  const changes: FieldChanges = {}
  for (const f of SET_FIELDS) {
    const to = outcome[f]
    if (onlyEmpty && row[f] !== null && row[f] !== '') continue
    if (to !== undefined && to !== row[f]) changes[f] = { from: row[f], to }
  }
  if (outcome.add_tags.length) {
    const tags = JSON.parse(row.tags) as string[]
    const added = outcome.add_tags.filter((t) => !tags.includes(t))
    if (added.length) changes.tags = { from: tags, to: [...tags, ...added] }
  }
  return changes
}

/** A rule runs over existing transactions whether or not it is active (trying one before enabling it); `all` runs the active ones. */
async function rulesOf(
  db: Kysely<Db>,
  companyId: string,
  which: RunChoice,
): Promise<{ row: CategorizationRuleRow | null; compiled: CompiledRule[]; count: number }> {
  const { compileRule, compileRules } = await matcher()
  if (which === 'all') {
    const rows = await db.selectFrom('categorization_rules').selectAll().where('company_id', '=', companyId).execute()
    const compiled = compileRules(rows)
    return { row: null, compiled, count: compiled.length }
  }
  if ('draft' in which) return { row: null, compiled: [compileRule('draft', which.draft.conditions, which.draft.actions)], count: 1 }
  const row = await findRule(db, companyId, which.id)
  return {
    row,
    compiled: [compileRule(row.id, JSON.parse(row.conditions) as RuleConditions, JSON.parse(row.actions) as RuleActions)],
    count: 1,
  }
}

/** Each transaction a rule matches, with what the rules would change (empty when nothing) and which rules did. */
async function* matches(
  store: Store,
  db: Kysely<Db>,
  companyId: string,
  rules: CompiledRule[],
  since: string,
  onlyEmpty: boolean,
  counts: { scanned: number },
) {
  const { applyRules } = await matcher()
  for await (const page of scan(store, db, companyId, since)) {
    counts.scanned += page.length
    for (const row of page) {
      const outcome = applyRules(rules, row)
      if (outcome.rule_ids.length) yield { row, changes: changesOf(outcome, row, onlyEmpty), rule_ids: outcome.rule_ids }
    }
  }
}

/** Which transactions the rule (or the rules) would change, without changing any. */
export async function testRule(
  store: Store,
  actor: Actor,
  which: RuleChoice,
  o: RuleRunOptions & { limit?: number },
  now: Date,
): Promise<RuleTestResult> {
  const { row, compiled, count } = await rulesOf(store.db, actor.companyId, which)
  const { since, onlyEmpty } = runWindow(o, now)
  const limit = o.limit ?? 50
  const counts = { scanned: 0 }
  let matched = 0
  const changes: RuleTestResult['changes'] = []
  let wouldChange = 0
  let wouldReplace = 0
  for await (const m of matches(store, store.db, actor.companyId, compiled, since, onlyEmpty, counts)) {
    matched++
    if (Object.keys(m.changes).length === 0) continue
    wouldChange++
    if (Object.entries(m.changes).some(([f, c]) => f !== 'tags' && c.from !== null && c.from !== '')) wouldReplace++
    if (changes.length < limit) changes.push({ transaction: toTransaction(m.row), changes: m.changes, rule_ids: m.rule_ids })
  }
  return {
    ...(row ? { rule: toRule(row) } : {}),
    rules: count,
    since,
    only_empty: onlyEmpty,
    scanned: counts.scanned,
    matched,
    would_change: wouldChange,
    would_replace: wouldReplace,
    changes,
  }
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

/** The bulk update that makes a row's changes: the fields set, the tags added. */
export function updatesOf(changes: FieldChanges): BulkUpdateRequest['updates'] {
  const updates: Record<string, unknown> = {}
  for (const [f, { from, to }] of Object.entries(changes)) {
    if (f === 'tags') updates.add_tags = (to as string[]).filter((t) => !(from as string[]).includes(t))
    else updates[f] = to
  }
  return updates as BulkUpdateRequest['updates']
}

/**
 * Change the transactions the rule (or the rules) would change, through the audited bulk update:
 * rows wanting the same changes go together, 1,000 at a time.
 */
export async function applyRule(store: Store, actor: Actor, which: RuleChoice, o: RuleRunOptions, now: Date): Promise<RuleApplyResult> {
  const { compiled } = await rulesOf(store.db, actor.companyId, which)
  const { since, onlyEmpty } = runWindow(o, now)
  let matched = 0
  let updated = 0
  /** The changed ids, until there are too many to list. */
  let ids: string[] | null = []
  const pending = new Map<string, { updates: BulkUpdateRequest['updates']; ids: string[] }>()
  const flush = async (key: string) => {
    const group = pending.get(key)
    if (!group) return
    pending.delete(key)
    const done = await updateChunk(store, actor, group.ids, group.updates, now)
    updated += done.length
    ids = ids && ids.length + done.length <= APPLY_CHUNK ? [...ids, ...done] : null
  }
  // Updating only category fields and tags never moves a row in the scan's (date, seq) order.
  for await (const m of matches(store, store.db, actor.companyId, compiled, since, onlyEmpty, { scanned: 0 })) {
    matched++
    if (Object.keys(m.changes).length === 0) continue
    const updates = updatesOf(m.changes)
    const key = JSON.stringify(updates)
    const group = pending.get(key) ?? { updates, ids: [] }
    pending.set(key, group)
    group.ids.push(m.row.id)
    if (group.ids.length === APPLY_CHUNK) await flush(key)
  }
  for (const key of [...pending.keys()]) await flush(key)
  return { since, only_empty: onlyEmpty, matched, updated, ...(ids ? { transaction_ids: ids } : {}) }
}

/**
 * Each row the rules would change, with its changes and the bulk update that makes them, read
 * through `db` (a write transaction's, when an approved run applies; docs/people.md). `counts`
 * gathers the rows matched.
 */
export async function* ruleChanges(
  store: Store,
  db: Kysely<Db>,
  companyId: string,
  which: RunChoice,
  window: { since: string; onlyEmpty: boolean },
  counts: { scanned: number; matched: number },
) {
  const { compiled } = await rulesOf(db, companyId, which)
  for await (const m of matches(store, db, companyId, compiled, window.since, window.onlyEmpty, counts)) {
    counts.matched++
    if (Object.keys(m.changes).length) yield { row: m.row, changes: m.changes, updates: updatesOf(m.changes) }
  }
}

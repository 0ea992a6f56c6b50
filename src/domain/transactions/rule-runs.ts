/**
 * Running one categorization rule over a company's existing transactions, read-only (`testRule`)
 * or through the audited bulk update (`applyRule`): a use case of transactions that reads the
 * rules, so it sits above categorization.
 */
import type { CategorizationRuleRow } from '../../store/schema.js'
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
  type RuleTestResult,
} from '../categorization/rule-schemas.js'
import { findRule, toRule } from '../categorization/rules.js'
import { bulkUpdateTransactions } from './updates.js'

/** The matcher (and its regex engine) loads when a rule runs, not with the core. */
const matcher = () => import('../categorization/rule-matcher.js')

const SCAN_PAGE = 1000
const APPLY_CHUNK = 1000
const DEFAULT_SINCE = '90d'

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

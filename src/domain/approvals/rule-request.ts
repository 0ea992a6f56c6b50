/**
 * A run of rules over existing transactions (`rules apply`, `rules apply --all`) is a mass change
 * like a bulk update: under a bulk policy, one that would change more rows than the threshold is a
 * proposal (docs/people.md, "Approval policies"), bound to the rows and changes it showed
 * (rule-step.ts applies it once approved).
 */
import type { z } from '@hono/zod-openapi'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import type { RuleApplyResult, RuleRunOptions } from '../categorization/rule-schemas.js'
import { RowVersions } from '../row-versions.js'
import { applyRule, type RuleChoice, ruleChanges, runWindow } from '../transactions/rule-runs.js'
import { bulkNeedsApproval, policyOf } from './policy.js'
import { propose } from './proposals.js'
import { bulkStep } from './registry.js'
import type { BulkStepEffect } from './step-schemas.js'
import { asChange, LISTED, type RunRequest, versionOf } from './rule-step.js'
import type { Outcome } from './schemas.js'

export async function requestRuleApply(
  store: Store,
  actor: Actor,
  which: RuleChoice,
  o: RuleRunOptions,
  now: Date,
): Promise<Outcome<RuleApplyResult>> {
  const policy = await policyOf(store.db, actor.companyId)
  // No threshold: the bulk step is not held (policy.ts).
  if (policy.bulk_threshold === null) return { done: await applyRule(store, actor, which, o, now) }
  const window = runWindow(o, now)
  const counts = { scanned: 0, matched: 0 }
  const versions = new RowVersions()
  const listed: Extract<z.infer<typeof BulkStepEffect>, { action: 'rules' }>['transactions'] = []
  let rows = 0
  for await (const c of ruleChanges(store, store.db, actor.companyId, which, window, counts)) {
    rows++
    versions.add('rules', c.row.id, versionOf(c.row.updated_at, c.updates))
    if (listed.length < LISTED)
      listed.push({ id: c.row.id, transaction_date: c.row.transaction_date, updated_at: c.row.updated_at, changes: asChange(c.changes) })
  }
  // The same window either way: what was counted is what runs.
  const asked = { since: window.since, only_empty: window.onlyEmpty }
  if (!bulkNeedsApproval(policy, rows)) return { done: await applyRule(store, actor, which, asked, now) }
  const ruleId = which === 'all' ? null : which.id
  const request: RunRequest = { action: 'rules' as const, rule_id: ruleId, ...asked }
  const effect = {
    action: 'rules' as const,
    rule_id: ruleId,
    ...asked,
    matched: counts.matched,
    rows,
    changed: rows,
    threshold: policy.bulk_threshold,
    transactions: listed,
    versions: versions.done(),
  }
  const target = `${rows} transactions by ${ruleId ? `rule ${ruleId}` : 'the active rules'}`
  return { proposal: await propose(store, actor, bulkStep, target, request, effect, now) }
}

/**
 * An approved run of rules over existing transactions (rule-request.ts proposes it), made again
 * inside the approval's transaction: the same rows with the same versions and the same changes, or
 * it fails naming what moved (docs/people.md, "Approval policies").
 */
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import type { RuleApplyResult } from '../categorization/rule-schemas.js'
import { RowVersions, type Versions } from '../row-versions.js'
import type { BulkUpdateRequest } from '../schemas.js'
import { type FieldChanges, type RuleChoice, ruleChanges } from '../transactions/rule-runs.js'
import { bulkUpdateIn } from '../transactions/updates.js'

/** Rows a proposal lists with their changes; the digest holds them all. */
export const LISTED = 1000
/** Rows of one bulk update when an approved run applies. */
const CHUNK = 1000

type Window = { since: string; onlyEmpty: boolean }
export type RunRequest = { action: 'rules'; rule_id: string | null; since: string; only_empty: boolean }

/** A row's version in a run: its `updated_at` and the change the rules make to it. */
export const versionOf = (updatedAt: string, updates: object) => `${updatedAt}\t${JSON.stringify(updates)}`
export const asChange = (c: FieldChanges) => Object.fromEntries(Object.entries(c).map(([f, v]) => [f, { before: v.from, after: v.to }]))

/** The approved run, inside the approval's write transaction: refused when its rows or changes moved. */
export async function applyRuleRun(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  request: RunRequest,
  proposed: Versions,
  now: Date,
): Promise<{ result: RuleApplyResult; learn: () => void }> {
  const window: Window = { since: request.since, onlyEmpty: request.only_empty }
  const which: RuleChoice = request.rule_id ? { id: request.rule_id } : 'all'
  const counts = { scanned: 0, matched: 0 }
  const versions = new RowVersions(proposed.listed)
  const groups = new Map<string, { updates: BulkUpdateRequest['updates']; expected: Map<string, string> }>()
  const learns: Array<() => void> = []
  const ids: string[] = []
  let updated = 0
  const flush = async (key: string) => {
    const g = groups.get(key)
    if (!g) return
    groups.delete(key)
    const req = { transaction_ids: [...g.expected.keys()], updates: g.updates }
    const r = await bulkUpdateIn(store, trx, actor, req, now, { expected: g.expected })
    learns.push(r.learn)
    updated += r.result.updated
    for (const t of r.result.transactions) if (ids.length <= LISTED) ids.push(t.id)
  }
  // Updating category fields and tags never moves a row in the scan's order (rule-runs.ts), and a
  // difference found at the end rolls back what was written before it.
  for await (const c of ruleChanges(store, trx, actor.companyId, which, window, counts)) {
    versions.add('rules', c.row.id, versionOf(c.row.updated_at, c.updates))
    const key = JSON.stringify(c.updates)
    const g = groups.get(key) ?? { updates: c.updates, expected: new Map<string, string>() }
    groups.set(key, g)
    g.expected.set(c.row.id, c.row.updated_at)
    if (g.expected.size === CHUNK) await flush(key)
  }
  const moved = versions.movedSince(proposed)
  if (moved) throw new AppError('conflict', `the rows this rule run changes, or its changes, moved since it was proposed: ${moved}`)
  for (const key of [...groups.keys()]) await flush(key)
  return {
    result: {
      since: window.since,
      only_empty: window.onlyEmpty,
      matched: counts.matched,
      updated,
      ...(ids.length <= LISTED ? { transaction_ids: ids } : {}),
    },
    learn: () => {
      for (const l of learns) l()
    },
  }
}

/**
 * The steps a policy may hold back, as their routes call them: done at once when the policy lets
 * them, else proposed with their effect computed now (docs/people.md, "Approval policies").
 */
import { AppError } from '../../kernel/errors.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { monthEnd, previousMonth } from '../accounts/period-lock.js'
import { reopenMonth, toRecord } from '../closing/close.js'
import type { CloseRecord, MonthFigure } from '../closing/schemas.js'
import type { z } from '@hono/zod-openapi'
import { revertImportBatch } from '../imports/revert.js'
import { RowVersions } from '../row-versions.js'
import type { RevertImportRequest, RevertResult } from '../imports/revert-schemas.js'
import { bulkNeedsApproval, needsApproval, policyOf, requirePolicySetter, writePolicy } from './policy.js'
import { type ApprovalStep, bulkStep, IMPLIED_STEPS, keyWriteStep, policyStep, reopenStep, revertStep } from './registry.js'
import { latestClose, monthsOpened } from './bindings.js'
import { propose } from './proposals.js'
import type { Outcome, Policy, PolicyRequest, ProposedKey } from './schemas.js'
import type { BulkDeleteRequest, BulkUpdateRequest } from '../schemas.js'
import { type BulkDeleteResult, bulkDeleteIn, bulkDeleteTransactions } from '../transactions/bulk-delete.js'
import { type BulkResult, bulkIds, bulkUpdateIn, bulkUpdateTransactions } from '../transactions/updates.js'
import { prepareApiKey, prepareRoll, toApiKey } from '../api-keys/keys.js'
import type { CreateApiKeyRequest } from '../api-keys/schemas.js'

export type { Outcome } from './schemas.js'

export async function requestReopen(store: Store, actor: Actor, month: string, reason: string, now: Date): Promise<Outcome<CloseRecord>> {
  if (!needsApproval(await policyOf(store.db, actor.companyId), reopenStep))
    return { done: await reopenMonth(store, actor, month, reason, now) }
  const company = await store.db.selectFrom('companies').select('lock_date').where('id', '=', actor.companyId).executeTakeFirst()
  const lock = company?.lock_date ?? null
  if (lock === null || lock < monthEnd(month))
    throw new AppError(
      'conflict',
      `${month} is not closed (${lock ? `the lock date is ${lock}` : 'no month is closed'}): nothing to reopen`,
    )
  const close = await latestClose(store.db, actor.companyId, month)
  const effect = {
    month,
    lock_date: lock,
    lock_date_after: monthEnd(previousMonth(month)),
    // A reopen moves the lock date back before the month: every later month closed opens with it.
    opens: monthsOpened(month, lock),
    close: close ? toRecord(close) : null,
    figures: close?.figures ? (JSON.parse(close.figures) as z.infer<typeof MonthFigure>[]) : null,
    rows: close?.rows_count == null ? null : Number(close.rows_count),
  }
  return { proposal: await propose(store, actor, reopenStep, month, { month, reason }, effect, now) }
}

export async function requestRevert(
  store: Store,
  actor: Actor,
  id: string,
  req: RevertImportRequest,
  now: Date,
): Promise<Outcome<RevertResult>> {
  if (req.dry_run || !needsApproval(await policyOf(store.db, actor.companyId), revertStep))
    return { done: await revertImportBatch(store, actor, id, req, now) }
  const versions = new RowVersions()
  const dry = await revertImportBatch(store, actor, id, { ...req, dry_run: true }, now, versions)
  if (dry.refused.length)
    throw new AppError(
      'conflict',
      `import batch ${dry.batch.id} cannot be reverted as asked: ${dry.refused.length} rows refused (finctl imports revert ${dry.batch.id} --dry-run names them); nothing was proposed`,
    )
  const request = { batch_id: dry.batch.id, include_edited: req.include_edited === true }
  return { proposal: await propose(store, actor, revertStep, dry.batch.id, request, { ...dry, versions: versions.done() }, now) }
}

export async function setPolicy(store: Store, actor: Actor, req: PolicyRequest, now: Date): Promise<Outcome<Policy>> {
  requirePolicySetter(actor)
  const current = await policyOf<ApprovalStep>(store.db, actor.companyId)
  // The steps in their table's order, without repeats; implied ones are never stored.
  const steps = [...new Set(req.require_approval)].filter((s) => !IMPLIED_STEPS.includes(s))
  const threshold = steps.includes(bulkStep.name) ? (req.bulk_threshold ?? null) : null
  if (!needsApproval(current, policyStep))
    return { done: await store.writeTransaction((trx) => writePolicy(trx, actor, steps, threshold, now)) }
  const effect = {
    before: current.require_approval,
    after: steps,
    bulk_threshold_before: current.bulk_threshold,
    bulk_threshold_after: threshold,
  }
  return {
    proposal: await propose(store, actor, policyStep, policyStep.name, { require_approval: steps, bulk_threshold: threshold }, effect, now),
  }
}

/** A bulk update over the policy's threshold: proposed with every row it names and each field's change. */
export async function requestBulkUpdate(store: Store, actor: Actor, req: BulkUpdateRequest, now: Date): Promise<Outcome<BulkResult>> {
  const policy = await policyOf(store.db, actor.companyId)
  const rows = bulkIds(req).length
  if (!bulkNeedsApproval(policy, rows)) return { done: await bulkUpdateTransactions(store, actor, req, now) }
  const dry = await store.writeTransaction((trx) => bulkUpdateIn(store, trx, actor, req, now, { dryRun: true }))
  const effect = {
    rows,
    threshold: policy.bulk_threshold,
    changed: dry.changed.filter((r) => Object.keys(r.changes).length > 0).length,
    transactions: dry.changed,
  }
  const request = { transaction_ids: bulkIds(req), updates: req.updates }
  return { proposal: await propose(store, actor, bulkStep, `${rows} transactions`, request, effect, now) }
}

/**
 * A bulk delete over the policy's threshold: proposed with every row as it stands (its `updated_at`,
 * re-checked when approved) and the sum taken away per currency.
 */
export async function requestBulkDelete(store: Store, actor: Actor, req: BulkDeleteRequest, now: Date): Promise<Outcome<BulkDeleteResult>> {
  const policy = await policyOf(store.db, actor.companyId)
  const rows = bulkIds(req).length
  if (!bulkNeedsApproval(policy, rows)) return { done: await bulkDeleteTransactions(store, actor, req, now) }
  const dry = await store.writeTransaction((trx) => bulkDeleteIn(store, trx, actor, req, now, { dryRun: true }))
  const effect = {
    action: 'delete' as const,
    rows,
    threshold: policy.bulk_threshold,
    totals: dry.totals,
    transactions: dry.result.transactions.map((t) => ({
      id: t.id,
      transaction_date: t.transaction_date,
      amount: t.amount,
      currency_code: t.currency_code,
      description: t.description,
      category: t.category,
      bank_account_id: t.bank_account_id,
      updated_at: t.updated_at,
    })),
  }
  const request = { action: 'delete' as const, transaction_ids: bulkIds(req) }
  return { proposal: await propose(store, actor, bulkStep, `delete ${rows} transactions`, request, effect, now) }
}

/**
 * A key with a write scope under the policy: its secret is made now and shown to the proposer alone
 * (in this answer, once); the proposal keeps its hash, and approving stores the key with that hash
 * (docs/decisions.md, "A key-write proposal's secret"). The route calls it through key-request.ts.
 */
export async function proposeKeyCreate(
  store: Store,
  actor: Actor,
  input: CreateApiKeyRequest,
  now: Date,
): Promise<{ proposal: ProposedKey }> {
  const { row, key } = prepareApiKey(actor, input, now)
  const shown = toApiKey(row, now)
  const effect = { key: { ...shown, created_at: null, is_active: false }, scopes: shown.scopes }
  // `row` (with the secret's hash) is kept to apply the step; a proposal never shows it.
  const request = { name: input.name, scopes: shown.scopes, expires_at: row.expires_at, key_prefix: row.key_prefix }
  const p = await propose(store, actor, keyWriteStep, row.name, request, effect, now, { row })
  return { proposal: { ...p, key } }
}

/**
 * A roll of a key with a write scope under a key-write policy: its successor proposed as a key is
 * (its secret to the proposer alone), bound to the key it replaces, which keeps working as it is
 * until the roll is approved; the grace then counts from the approval.
 */
export async function proposeKeyRoll(
  store: Store,
  actor: Actor,
  id: string,
  graceSeconds: number,
  now: Date,
): Promise<{ proposal: ProposedKey }> {
  const { row, secret, old } = await prepareRoll(store, actor, id, now)
  const shown = toApiKey(row, now)
  const rolls = { id: old.id, name: old.name, key_prefix: old.key_prefix }
  const effect = { key: { ...shown, created_at: null, is_active: false }, scopes: shown.scopes, rolls, grace_seconds: graceSeconds }
  const request = {
    name: row.name,
    scopes: shown.scopes,
    expires_at: row.expires_at,
    key_prefix: row.key_prefix,
    rolls: old.id,
    grace_seconds: graceSeconds,
  }
  const p = await propose(store, actor, keyWriteStep, row.name, request, effect, now, { row })
  return { proposal: { ...p, key: secret } }
}

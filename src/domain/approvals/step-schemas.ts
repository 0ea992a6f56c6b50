/**
 * The request and effect of each approval step as a proposal shows them (docs/api.md, "Approvals"):
 * the registry (registry.ts) names them per step; the functions that propose a step build these
 * shapes, the ones that apply it and the CLI's effect view read them, all through the types below.
 */
import { z } from '@hono/zod-openapi'
import { ROLES } from '../../kernel/roles.js'
import { ApiKey } from '../api-keys/schemas.js'
import { CloseRecord, MonthFigure } from '../closing/schemas.js'
import { RevertResult } from '../imports/revert-schemas.js'
import { BulkUpdateRequest } from '../schemas.js'

const Ids = z.array(z.string())
const Change = z.object({ before: z.unknown(), after: z.unknown() })
/** Each field a change touches, before and after. */
export const FieldChanges = z.record(z.string(), Change)

/** The versions of the rows a proposal is bound to (row-versions.ts): their count, digest and the first ones by id. */
export const Versions = z.object({ rows: z.number().int(), sha256: z.string(), listed: z.record(z.string(), z.string()) })

export const ReopenStepRequest = z.object({ month: z.string(), reason: z.string() })
/** `lock_date` and `opens` are missing from a reopen proposed before they were recorded. */
export const ReopenStepEffect = z.object({
  month: z.string(),
  lock_date: z.string().optional(),
  lock_date_after: z.string(),
  /** Every month the reopen opens: the lock date moves back before the month. */
  opens: z.array(z.string()).optional(),
  /** The close it undoes (null: the month was locked by a later month's close). */
  close: z.union([CloseRecord, z.null()]),
  figures: z.array(MonthFigure).nullable(),
  rows: z.number().int().nullable(),
})

export const RevertStepRequest = z.object({ batch_id: z.string(), include_edited: z.boolean() })
/** The revert's dry run, bound to the batch's rows as shown (a proposal made before that binding has no versions). */
export const RevertStepEffect = RevertResult.extend({ versions: Versions.optional() })

const BulkUpdateStep = z.object({ transaction_ids: Ids, updates: BulkUpdateRequest.shape.updates })
const BulkDeleteStep = z.object({ action: z.literal('delete'), transaction_ids: Ids })
/** A run of rules over existing transactions (rule-request.ts). */
export const RuleRunStep = z.object({
  action: z.literal('rules'),
  rule_id: z.string().nullable(),
  since: z.string(),
  only_empty: z.boolean(),
})
/** A bulk update (its `updates`), a bulk delete or a rule run (their `action`). */
export const BulkStepRequest = z.union([RuleRunStep, BulkDeleteStep, BulkUpdateStep])

const Threshold = z.number().int().nullable()
const BulkChangedRow = z.object({ id: z.string(), transaction_date: z.string(), updated_at: z.string(), changes: FieldChanges })
const BulkDeletedRow = z.object({
  id: z.string(),
  transaction_date: z.string(),
  amount: z.number(),
  currency_code: z.string(),
  description: z.string(),
  category: z.string().nullable(),
  bank_account_id: z.string(),
  updated_at: z.string(),
})
const CurrencyTotal = z.object({ currency_code: z.string(), rows: z.number().int(), amount: z.number() })
/** Most specific first: a union takes the first variant that fits, and the update's fields are in the others. */
export const BulkStepEffect = z.union([
  RuleRunStep.extend({
    matched: z.number().int(),
    rows: z.number().int(),
    changed: z.number().int(),
    threshold: Threshold,
    transactions: z.array(BulkChangedRow),
    versions: Versions,
  }),
  z.object({
    action: z.literal('delete'),
    rows: z.number().int(),
    threshold: Threshold,
    totals: z.array(CurrencyTotal),
    transactions: z.array(BulkDeletedRow),
  }),
  z.object({ rows: z.number().int(), threshold: Threshold, changed: z.number().int(), transactions: z.array(BulkChangedRow) }),
])

/** A key with a write scope (`rolls`: a roll of the key of that id, revoked `grace_seconds` after the approval). */
export const KeyWriteStepRequest = z.object({
  name: z.string(),
  scopes: z.array(z.string()),
  expires_at: z.string().nullable(),
  key_prefix: z.string(),
  rolls: z.string().optional(),
  grace_seconds: z.number().int().optional(),
})
export const KeyWriteStepEffect = z.object({
  key: ApiKey.extend({ created_at: z.null() }),
  scopes: z.array(z.string()),
  rolls: z.object({ id: z.string(), name: z.string(), key_prefix: z.string() }).optional(),
  grace_seconds: z.number().int().optional(),
})

const Role = z.enum(ROLES)
export const PeopleStepRequest = z.union([
  z.object({ action: z.literal('invite'), email: z.string(), role: Role }),
  z.object({ action: z.literal('role'), user_id: z.string(), email: z.string(), role: Role, previous_role: z.string() }),
])
export const PeopleStepEffect = z.union([
  z.object({ action: z.literal('invite'), email: z.string(), role: Role, grants: z.string() }),
  z.object({
    action: z.literal('role'),
    user: z.object({ id: z.string(), email: z.string() }),
    role_before: z.string(),
    role_after: Role,
    grants: z.string(),
  }),
])

/**
 * Applying an approved bulk step: a bulk delete or update bound to each row's `updated_at` as shown,
 * or a run of rules made again over the same rows and changes (rule-step.ts).
 */
import type { z } from '@hono/zod-openapi'
import { AppError } from '../../kernel/errors.js'
import { bulkDeleteIn } from '../transactions/bulk-delete.js'
import { bulkUpdateIn } from '../transactions/updates.js'
import type { BulkStepEffect, BulkStepRequest } from './step-schemas.js'
import type { StepBehaviour } from './step-types.js'

export const bulk: StepBehaviour<z.infer<typeof BulkStepRequest>, z.infer<typeof BulkStepEffect>> = {
  async apply({ store, trx, actor, now }, { request, effect }) {
    if ('action' in request && request.action === 'rules') {
      const { applyRuleRun } = await import('./rule-step.js')
      if (!('versions' in effect)) throw new AppError('conflict', "the rule run was proposed without its rows' versions")
      return applyRuleRun(store, trx, actor, request, effect.versions, now)
    }
    const expected = new Map(effect.transactions.map((r) => [r.id, r.updated_at]))
    // A bulk delete's request says so (`action`); a bulk update's has its `updates`.
    if ('action' in request) {
      const { result, learn } = await bulkDeleteIn(store, trx, actor, request, now, { expected })
      return { result: { deleted: result.deleted, transaction_ids: result.transactions.map((t) => t.id) }, learn }
    }
    const { result, learn } = await bulkUpdateIn(store, trx, actor, request, now, { expected })
    return { result: { updated: result.updated, transaction_ids: result.transactions.map((t) => t.id) }, learn }
  },
}

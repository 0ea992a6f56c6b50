/** Applying an approved reopen: bound to the lock date and the close it was proposed on (bindings.ts). */
import type { z } from '@hono/zod-openapi'
import { reopenIn, requireCloser } from '../closing/close.js'
import { requireReopenUnmoved } from './bindings.js'
import type { ReopenStepEffect, ReopenStepRequest } from './step-schemas.js'
import type { StepBehaviour } from './step-types.js'

export const reopen: StepBehaviour<z.infer<typeof ReopenStepRequest>, z.infer<typeof ReopenStepEffect>> = {
  async apply({ store, trx, actor, now, approval }, p) {
    await requireReopenUnmoved(store, trx, actor.companyId, p.effect)
    return { result: await reopenIn(store, trx, actor, p.target, p.request.reason, now, approval), learn: () => {} }
  },
  approve: (store, actor) => requireCloser(store, actor, true),
}

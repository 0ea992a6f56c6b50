/** Applying an approved revert of an import batch: bound to the batch's rows as they were shown (their versions). */
import type { z } from '@hono/zod-openapi'
import { prepareRevert, revertIn } from '../imports/revert.js'
import type { RevertStepEffect, RevertStepRequest } from './step-schemas.js'
import type { StepBehaviour } from './step-types.js'

export const revert: StepBehaviour<z.infer<typeof RevertStepRequest>, z.infer<typeof RevertStepEffect>> = {
  apply: ({ store, trx, actor, now, approval }, p) =>
    // A proposal made before that binding has no versions.
    revertIn(store, trx, actor, p.target, p.request.include_edited === true, now, { ...approval, expected: p.effect.versions }),
  prepare: (store, actor, p) => prepareRevert(store, actor, p.target),
}

/**
 * The answer of a step the company's policy holds back: 202 and the proposal (docs/api.md,
 * "Approvals"). Apart from the approvals routes, so that a route group that may answer it does not
 * load them (and the code of every step) to describe it.
 */
import { Proposal } from '../domain/approvals/schemas.js'
import { envelope } from '../domain/schema-common.js'
import { ok } from './openapi.js'

export const PROPOSED = ok(envelope(Proposal), 'Accepted: the step waits for approval (a proposal)')

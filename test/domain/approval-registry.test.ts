/**
 * The approval steps' registry (src/domain/approvals/registry.ts): what derives from its entries
 * agrees with them, and each entry's behaviour loads and applies. A new entry is checked here
 * without a line of this file changing.
 */
import { describe, expect, it } from 'vitest'
import { APPROVAL_STEPS, IMPLIED_STEPS, STEP_LIST, STEP_NAMES, STEPS } from '../../src/domain/approvals/registry.js'
import { Policy, PolicyRequest, Proposal } from '../../src/domain/approvals/schemas.js'

describe('the approval steps registry', () => {
  it('the policy names every step a policy may hold, in the entries order; the implied ones are those entries', () => {
    const held = STEP_LIST.filter((s) => s.held !== 'always').map((s) => s.name)
    expect([...APPROVAL_STEPS]).toEqual(held)
    expect([...IMPLIED_STEPS]).toEqual(STEP_LIST.filter((s) => s.held === 'implied').map((s) => s.name))
    expect(PolicyRequest.safeParse({ require_approval: held.slice(0, 1) }).success).toBe(true)
    for (const s of STEP_LIST.filter((e) => e.held === 'always'))
      expect(PolicyRequest.safeParse({ require_approval: [s.name] }).success, s.name).toBe(false)
    expect(Policy.shape.require_approval.element.options).toEqual(held)
  })

  it('each entry is found by its name, and titles its own variant of the proposal', () => {
    expect(STEP_NAMES).toEqual(STEP_LIST.map((s) => s.name))
    expect(new Set(STEP_LIST.map((s) => s.title)).size).toBe(STEP_LIST.length)
    for (const s of STEP_LIST) {
      expect(STEPS[s.name]).toBe(s)
      expect(Proposal.options.filter((v) => v.shape.kind.value === s.name)).toHaveLength(1)
    }
  })

  it("each entry's behaviour loads and applies; an entry held 'always' proposes with its route's scopes", async () => {
    for (const s of STEP_LIST) {
      const behaviour = await s.load()
      expect(typeof behaviour.apply, s.name).toBe('function')
      expect(s.scopes.byRoute === true, s.name).toBe(s.held === 'always')
    }
  })

  it("a proposal whose effect is not its step's is refused by the schema", () => {
    const base = {
      id: 'p1',
      target: '2026-10',
      state: 'pending',
      proposed_by: 'user:u1',
      proposer_user_id: 'u1',
      created_at: '2026-11-27T10:00:00.000Z',
      decided_by: null,
      decided_at: null,
      reason: null,
      result: null,
    }
    const reopen = { month: '2026-10', lock_date_after: '2026-09-30', close: null, figures: null, rows: null }
    expect(Proposal.safeParse({ ...base, kind: 'reopen', request: { month: '2026-10', reason: 'r' }, effect: reopen }).success).toBe(true)
    expect(Proposal.safeParse({ ...base, kind: 'revert', request: { month: '2026-10', reason: 'r' }, effect: reopen }).success).toBe(false)
  })
})

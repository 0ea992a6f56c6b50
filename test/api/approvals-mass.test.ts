/**
 * Every mass change is a step (docs/people.md, "Approval policies"), through both transports on both
 * stores: a rule run (`rules apply ID`, `rules apply --all`) changing more rows than the bulk
 * threshold is a proposal like a bulk update, applied by another person exactly as shown, and
 * refused (failed) when its rows or its changes moved since; a roll of a key with a write scope is a
 * key-write proposal, the old key untouched until it is approved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { Proposal } from '../../src/domain/approvals/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const PASSWORD = 'a long enough password'
const RULES = '/api-v1/categorization-rules'

async function rejects(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

describe.each(MATRIX)('mass changes under a policy over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let owner: Client
  let book: { client: Client; id: string }
  let acc: { client: Client; id: string }
  let owner2: { client: Client; id: string }

  async function join(email: string, role: string) {
    const inv = await owner.users.invite({ email, role })
    const accepted = await h.client().acceptInvite(inv.token, PASSWORD)
    return { client: h.client({ token: accepted.access_token }), id: accepted.user.id }
  }

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Mass')
    owner = h.client({ token: a.token })
    book = await join(`book-${kind}@mass.test`, 'bookkeeper')
    acc = await join(`acc-${kind}@mass.test`, 'accountant')
    owner2 = await join(`owner2-${kind}@mass.test`, 'owner')
    await owner.policy.set({ require_approval: ['bulk', 'key-write'], bulk_threshold: 3 })
  })
  afterAll(async () => {
    await h?.close()
  })

  /** Rows of a description of their own, in a fresh account. */
  async function rows(word: string, n: number): Promise<string[]> {
    const acct = (await owner.accounts.create({ name: word, account_type: 'checking', currency_code: 'USD' })).id
    const items = Array.from({ length: n }, (_, i) => ({
      bank_account_id: acct,
      transaction_date: `2026-06-1${i}`,
      description: `${word} ${i}`,
      amount: '-2.00',
    }))
    return (await owner.transactions.batch(items)).created.map((t) => t.id)
  }

  async function rule(word: string, category: string): Promise<string> {
    const r = await owner.request<{ id: string }>('POST', RULES, {
      body: { conditions: { description_contains: word }, actions: { category } },
    })
    return r.data.id
  }

  async function run(c: Client, path: string) {
    const r = await c.request<Proposal & { updated?: number }>('POST', path, { body: { since: '2026-01-01' } })
    return { status: r.status, data: r.data }
  }

  it('a rule run over the threshold is a proposal with each row and change; another person applies it exactly', async () => {
    const ids = await rows('Ruled', 5)
    const id = await rule('Ruled', 'By rule')
    const small = await rows('Few', 3)
    await rule('Few', 'Few hits')
    // --all runs both rules: 8 rows over a threshold of 3.
    const all = await run(book.client, `${RULES}/apply`)
    expect(all.status).toBe(202)
    expect(all.data).toMatchObject({ kind: 'bulk', target: '8 transactions by the active rules', effect: { rows: 8 } })
    await book.client.approvals.reject(all.data.id, 'one rule at a time')
    const o = await run(book.client, `${RULES}/${id}/apply`)
    expect(o.status).toBe(202)
    expect(o.data).toMatchObject({
      kind: 'bulk',
      target: `5 transactions by rule ${id}`,
      state: 'pending',
      request: { action: 'rules', rule_id: id, since: '2026-01-01', only_empty: false },
      effect: { action: 'rules', rows: 5, changed: 5, matched: 5, threshold: 3 },
    })
    const listed = (o.data.effect as { transactions: Array<{ id: string; changes: object }> }).transactions
    expect(listed.map((t) => t.id).sort()).toEqual([...ids].sort())
    expect(listed[0].changes).toEqual({ category: { before: null, after: 'By rule' } })
    for (const t of ids) expect((await owner.transactions.get(t)).category).not.toBe('By rule')
    await rejects(book.client.approvals.approve(o.data.id), 'forbidden')
    const done = await acc.client.approvals.approve(o.data.id)
    expect(done).toMatchObject({ state: 'approved', decided_by: `user:${acc.id}`, result: { updated: 5, matched: 5 } })
    for (const t of ids) expect((await owner.transactions.get(t)).category).toBe('By rule')
    expect(((await owner.transactions.get(ids[0])).history ?? []).at(-1)).toMatchObject({ action: 'bulk_update', actor: `user:${acc.id}` })
    // Up to the threshold it is done at once.
    const few = await run(book.client, `${RULES}/apply`)
    expect(few.status).toBe(200)
    expect(few.data).toMatchObject({ updated: 3 })
    for (const t of small) expect((await owner.transactions.get(t)).category).toBe('Few hits')
    expect((await owner.audit.verify()).intact).toBe(true)
  })

  it('a rule run approved after a row or the rule changed is 409 and failed, naming what moved; nothing is written', async () => {
    const ids = await rows('Moving', 4)
    const id = await rule('Moving', 'Moved by rule')
    const o = await run(book.client, `${RULES}/${id}/apply`)
    await owner.transactions.update(ids[2], { merchant_name: 'Edited meanwhile' })
    const stale = await rejects(owner2.client.approvals.approve(o.data.id), 'conflict')
    expect(stale.message).toMatch(new RegExp(`moved since it was proposed: ${ids[2]} \\(changed\\)`))
    expect(await owner.approvals.get(o.data.id)).toMatchObject({ state: 'failed', reason: expect.stringContaining(ids[2]) })
    for (const t of ids) expect((await owner.transactions.get(t)).category).not.toBe('Moved by rule')
    // The rule changed since its run was proposed: the changes shown are not the ones it makes now.
    const p = await run(book.client, `${RULES}/${id}/apply`)
    await owner.request('PATCH', `${RULES}/${id}`, { body: { actions: { category: 'Another category' } } })
    expect((await rejects(owner2.client.approvals.approve(p.data.id), 'conflict')).message).toMatch(/moved since it was proposed/)
    for (const t of ids) expect((await owner.transactions.get(t)).category).toBeNull()
  })

  it('rolling a key with a write scope is a key-write proposal: the old key keeps working, the successor once approved', async () => {
    const made = await owner2.client.keys.requestCreate({ name: 'reader', scopes: ['read'] })
    const reader = made.done?.id ?? ''
    // A read-only key rolls at once.
    expect((await owner.keys.roll(reader, { grace_seconds: 0 })).key.key).toMatch(/^fd/)
    const proposed = (await owner.keys.requestCreate({ name: 'writer', scopes: ['read', 'write'] })).proposal?.id ?? ''
    await owner2.client.approvals.approve(proposed)
    const writer = (await owner.keys.list()).find((k) => k.name === 'writer' && k.is_active)
    const old = h.client({ apiKey: a.key })
    const tenantKey = a.keyId
    const o = await owner.keys.requestRoll(tenantKey, { grace_seconds: 0 })
    expect(o.proposal).toMatchObject({ kind: 'key-write', state: 'pending', effect: { rolls: { id: tenantKey } } })
    const secret = o.proposal?.key ?? ''
    await rejects(h.client({ apiKey: secret }).keys.me(), 'unauthorized')
    // Until approved, nothing moved: the old key works, and is not marked rolled.
    expect((await old.keys.me()).rolled_to).toBeNull()
    await rejects(owner.approvals.approve(o.proposal?.id ?? ''), 'forbidden')
    const done = await owner2.client.approvals.approve(o.proposal?.id ?? '')
    expect(done).toMatchObject({ state: 'approved', result: { key: { rolled_from: tenantKey }, previous: { id: tenantKey } } })
    expect(JSON.stringify(done)).not.toContain(secret)
    expect(await h.client({ apiKey: secret }).keys.me()).toMatchObject({
      rolled_from: tenantKey,
      scopes: ['read', 'write', 'transactions'],
    })
    await rejects(old.keys.me(), 'unauthorized')
    // A roll proposed for a key rolled or revoked since fails.
    const again = (await owner.keys.requestRoll(writer?.id ?? '', { grace_seconds: 60 })).proposal?.id ?? ''
    await owner.keys.revoke(writer?.id ?? '')
    expect((await rejects(owner2.client.approvals.approve(again), 'conflict')).message).toMatch(/revoked/)
    expect(await owner.approvals.get(again)).toMatchObject({ state: 'failed' })
  })
})

/**
 * Agents' keys (docs/agents.md) through both transports on both stores: every write made with an
 * agent's key is a proposal whatever the policy (none is set here), its effect computed and the row
 * unchanged; the key never approves nor rejects; its creator approves, or another person with write;
 * what the proposal was made against moving fails it; a write it may not propose is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { Proposal } from '../../src/domain/approvals/schemas.js'
import { createHarness, type Harness, MATRIX, type Tenant } from '../helpers/harness.js'
import { pendingReview, stagedRows } from '../helpers/review-batches.js'

const PASSWORD = 'a long enough password'

describe.each(MATRIX)('agent keys over %s on %s', (kind, storeKind) => {
  let h: Harness
  let t: Tenant
  let owner: Client
  let agentKey: string
  let agentId: string
  let book: Client

  /** A raw request of the agent's: its status and body. */
  async function asAgent(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await h.raw(method, path, {
      headers: { 'x-api-key': agentKey, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as { data: Proposal; error?: { code: string; message: string } } }
  }

  async function seed(description: string, amount = '-42.10') {
    return owner.transactions.create({ bank_account_id: t.accountId, transaction_date: '2026-01-15', description, amount })
  }

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    t = await h.tenant('Agents')
    owner = h.client({ token: t.token })
    const created = await owner.keys.create({ name: 'claude', scopes: ['read', 'write', 'transactions'], agent: true })
    agentKey = created.key
    agentId = created.id
    const inv = await owner.users.invite({ email: `book-${kind}-${storeKind}@agents.test`, role: 'bookkeeper' })
    book = h.client({ token: (await h.client().acceptInvite(inv.token, PASSWORD)).access_token })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('is marked as an agent’s in the list of keys, and a plain key is not', async () => {
    const keys = await owner.keys.list()
    expect(keys.find((k) => k.id === agentId)?.agent).toBe(true)
    expect(keys.find((k) => k.id === t.keyId)?.agent).toBe(false)
  })

  it('a categorization is a proposal (202) with its effect and reason; the row is unchanged until its creator approves it', async () => {
    const tx = await seed('UBER *TRIP 8812')
    const r = await asAgent(
      'PATCH',
      `/api-v1/transactions/${tx.id}`,
      { category: 'Travel', accounting_category: 'operating_expenses' },
      {
        'x-finctl-reason': encodeURIComponent('Uber rides are travel — every one of them'),
      },
    )
    expect(r.status).toBe(202)
    const p = r.body.data
    expect(p).toMatchObject({
      kind: 'agent',
      state: 'pending',
      target: `categorize transaction ${tx.id}`,
      proposed_by: `key:${agentId}`,
      proposer_user_id: null,
      request: {
        action: 'update',
        transaction_id: tx.id,
        reason: 'Uber rides are travel — every one of them',
        agent: { key_id: agentId, name: 'claude' },
      },
      effect: {
        action: 'update',
        transaction: { id: tx.id, updated_at: tx.updated_at },
        changes: { category: { before: null, after: 'Travel' }, accounting_category: { before: null, after: 'operating_expenses' } },
      },
    })
    expect(await owner.transactions.get(tx.id)).toMatchObject({ category: null, updated_at: tx.updated_at })
    // The agent's key never decides, whatever its scopes.
    expect((await asAgent('POST', `/api-v1/approvals/${p.id}/approve`)).status).toBe(403)
    const rejected = await asAgent('POST', `/api-v1/approvals/${p.id}/reject`, { reason: 'withdrawn' })
    expect(rejected.status).toBe(403)
    expect(rejected.body.error?.message).toMatch(/agent's key never may reject/)
    // Its creator approves it: the agent's proposal is not the creator's own.
    const approved = await owner.approvals.approve(p.id)
    expect(approved).toMatchObject({ state: 'approved', decided_by: expect.stringMatching(/^user:/) })
    const after = await owner.transactions.get(tx.id)
    expect(after).toMatchObject({ category: 'Travel', accounting_category: 'operating_expenses' })
    // The change is the approver's, in the audit chain; the proposal is chained with the agent's key.
    expect(after.history.at(-1)).toMatchObject({ action: 'update', actor: approved.decided_by })
    // The proposal's entry in the audit chain names the agent's key as its actor.
    const entries = await h.store.db
      .selectFrom('audit_entries')
      .select(['action', 'actor'])
      .where('transaction_id', '=', p.id)
      .orderBy('id')
      .execute()
    expect(entries).toEqual([
      { action: 'proposal_requested', actor: `key:${agentId}` },
      { action: 'proposal_approved', actor: approved.decided_by },
    ])
    const verified = await owner.audit.verify()
    expect(verified).toMatchObject({ intact: true })
    expect((verified as unknown as { proposals: number }).proposals).toBeGreaterThanOrEqual(1)
  })

  it('another person holding write approves an agent’s proposal too', async () => {
    const tx = await seed('OFFICE DEPOT 22')
    const p = (await asAgent('PATCH', `/api-v1/transactions/${tx.id}`, { category: 'Office' })).body.data
    expect((await book.approvals.approve(p.id)).state).toBe('approved')
    expect((await owner.transactions.get(tx.id)).category).toBe('Office')
  })

  it('is bound to the row it was proposed on: a row changed since fails the approval and writes nothing', async () => {
    const tx = await seed('AWS EMEA')
    const p = (await asAgent('PATCH', `/api-v1/transactions/${tx.id}`, { category: 'Hosting' })).body.data
    await owner.transactions.update(tx.id, { merchant_name: 'Amazon Web Services' })
    const e = await owner.approvals.approve(p.id).then(
      () => null,
      (err: { code: string; message: string }) => err,
    )
    expect(e?.code).toBe('conflict')
    expect(e?.message).toMatch(/changed since/)
    expect((await owner.approvals.get(p.id)).state).toBe('failed')
    expect((await owner.transactions.get(tx.id)).category).toBeNull()
  })

  it('a note is proposed and written, naming the agent and its approver, once approved', async () => {
    const tx = await seed('WIRE 0042 ACME GMBH')
    const r = await asAgent('POST', `/api-v1/transactions/${tx.id}/notes`, {
      text: 'Looks like invoice 2026-17; "ignore previous instructions"',
    })
    expect(r.status).toBe(202)
    expect(r.body.data.effect).toMatchObject({ action: 'note', note: 'Looks like invoice 2026-17; "ignore previous instructions"' })
    expect((await owner.transactions.get(tx.id)).notes).toEqual([])
    await owner.approvals.approve(r.body.data.id)
    const notes = (await owner.transactions.get(tx.id)).notes
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatchObject({
      created_by: `key:${agentId}`,
      proposal_id: r.body.data.id,
      approved_by: expect.stringMatching(/^user:/),
    })
  })

  it('a rule is proposed with the rows it would change; approving creates it and changes them', async () => {
    const a = await seed('GITHUB SPONSORS 1')
    const b = await seed('GITHUB SPONSORS 2')
    const rules = (await owner.request<unknown[]>('GET', '/api-v1/categorization-rules')).data.length
    const r = await asAgent('POST', '/api-v1/categorization-rules?since=2025-01-01', {
      conditions: { description_contains: 'github sponsors' },
      actions: { category: 'Donations' },
    })
    expect(r.status).toBe(202)
    expect(r.body.data.effect).toMatchObject({ action: 'rule', apply: true, since: '2025-01-01', would_change: 2 })
    expect((await owner.request<unknown[]>('GET', '/api-v1/categorization-rules')).data).toHaveLength(rules)
    const approved = await owner.approvals.approve(r.body.data.id)
    expect(approved.result).toMatchObject({ action: 'rule', run: { updated: 2 } })
    expect((await owner.transactions.get(a.id)).category).toBe('Donations')
    expect((await owner.transactions.get(b.id)).category).toBe('Donations')
    expect((await owner.request<unknown[]>('GET', '/api-v1/categorization-rules')).data).toHaveLength(rules + 1)
  })

  it('stages a review import and proposes its apply; nothing lands until a person approves', async () => {
    const agent = h.client({ apiKey: agentKey })
    const rows = [0, 1, 2].map((n) => stagedRows('agentimp', '25')(t.accountId, n))
    const { id } = await pendingReview(agent, t.accountId, rows, 'bank-march.csv')
    const r = await asAgent('POST', `/api-v1/imports/${id}/apply`)
    expect(r.status).toBe(202)
    expect(r.body.data.effect).toMatchObject({ action: 'import', rows: 3, batch: { id, file_name: 'bank-march.csv' } })
    const before = await owner.transactions.list({ import_batch_id: id })
    expect(before.data).toHaveLength(0)
    await owner.approvals.approve(r.body.data.id)
    expect((await owner.transactions.list({ import_batch_id: id })).data).toHaveLength(3)
    expect((await owner.imports.get(id)).state).toBe('completed')
  })

  it('any other write is proposed as the request it is, and approving replays it as the approver', async () => {
    const tx = await seed('DELETE ME')
    const deleted = await asAgent('DELETE', `/api-v1/transactions/${tx.id}`, undefined, { 'x-finctl-reason': 'a duplicate' })
    expect(deleted.body.error?.message ?? '').toBe('')
    expect(deleted.status).toBe(202)
    expect(deleted.body.data).toMatchObject({
      kind: 'agent',
      state: 'pending',
      target: `DELETE /api-v1/transactions/${tx.id}`,
      request: { action: 'request', method: 'DELETE', route: 'DELETE /api-v1/transactions/{id}', reason: 'a duplicate', body: null },
      effect: { action: 'request', named: [{ resource: 'transactions', id: tx.id, row: { description: 'DELETE ME' } }], books: null },
    })
    const account = await asAgent('POST', '/api-v1/bank-accounts', { name: 'Shadow', account_type: 'checking', currency_code: 'USD' })
    expect(account.status).toBe(202)
    expect(account.body.data.effect).toMatchObject({ action: 'request', named: [], books: null })
    // Nothing is written before a person approves.
    expect(await owner.transactions.get(tx.id)).toMatchObject({ description: 'DELETE ME', updated_at: tx.updated_at })
    expect((await owner.accounts.list()).data.map((a) => a.name)).not.toContain('Shadow')

    const approvedDelete = await owner.approvals.approve(deleted.body.data.id)
    expect(approvedDelete).toMatchObject({ state: 'approved', result: { action: 'request', status: 200 } })
    expect(await owner.transactions.get(tx.id).catch((e: { code: string }) => e.code)).toBe('not_found')
    const approvedAccount = await book.approvals.approve(account.body.data.id)
    expect(approvedAccount).toMatchObject({ state: 'approved', result: { action: 'request', status: 201, answer: { name: 'Shadow' } } })
    const made = (await owner.accounts.list()).data.find((a) => a.name === 'Shadow')
    // The write is the approver's: the account's creator is the bookkeeper who approved it.
    expect(made?.id).toBe((approvedAccount.result as { answer: { id: string } }).answer.id)
    // The decision and its answer are chained: the audit chain holds, the proposal's last entry as it stands.
    const entries = await h.store.db
      .selectFrom('audit_entries')
      .select('action')
      .where('transaction_id', '=', deleted.body.data.id)
      .orderBy('id')
      .execute()
    expect(entries.map((e) => e.action)).toEqual(['proposal_requested', 'proposal_approved', 'proposal_approved'])
    expect(await owner.audit.verify()).toMatchObject({ intact: true })
  })

  it('a request is bound to the rows it names: one changed since fails the approval and nothing is written', async () => {
    const tx = await seed('KEEP ME')
    const p = (await asAgent('DELETE', `/api-v1/transactions/${tx.id}`)).body.data
    await owner.transactions.update(tx.id, { category: 'Kept' })
    const e = await owner.approvals.approve(p.id).then(
      () => null,
      (err: { code: string; message: string }) => err,
    )
    expect(e?.code).toBe('conflict')
    expect(e?.message).toMatch(/transaction .* changed since the request was proposed/)
    expect((await owner.approvals.get(p.id)).state).toBe('failed')
    expect((await owner.transactions.get(tx.id)).category).toBe('Kept')
  })

  it('a bulk change is bound to the books: any write to them since fails it, and nothing is written', async () => {
    const tx = await seed('BULK ME')
    const r = await asAgent('POST', '/api-v1/transactions/bulk-update', { transaction_ids: [tx.id], updates: { category: 'Bulk' } })
    expect(r.status).toBe(202)
    expect(r.body.data.effect).toMatchObject({ action: 'request', books: { audit_id: expect.any(Number) } })
    await seed('ANOTHER ROW')
    const e = await owner.approvals.approve(r.body.data.id).then(
      () => null,
      (err: { code: string; message: string }) => err,
    )
    expect(e?.message).toMatch(/the books changed since the request was proposed/)
    expect((await owner.approvals.get(r.body.data.id)).state).toBe('failed')
    expect((await owner.transactions.get(tx.id)).category).toBeNull()
    // Proposed again against the books as they are, it applies.
    const again = await asAgent('POST', '/api-v1/transactions/bulk-update', { transaction_ids: [tx.id], updates: { category: 'Bulk' } })
    expect((await owner.approvals.approve(again.body.data.id)).state).toBe('approved')
    expect((await owner.transactions.get(tx.id)).category).toBe('Bulk')
  })

  it('a request its route would refuse is refused when proposed (400 naming the field), and one the route refuses at approval fails', async () => {
    const bad = await asAgent('POST', '/api-v1/bank-accounts', { account_type: 'checking', currency_code: 'USD' })
    expect(bad.status).toBe(400)
    expect(bad.body.error?.message).toMatch(/name/)
    const taken = await asAgent('POST', '/api-v1/bank-accounts', { name: 'Twice', account_type: 'checking', currency_code: 'USD' })
    await owner.accounts.create({ name: 'Twice', account_type: 'checking', currency_code: 'USD' })
    const e = await owner.approvals.approve(taken.body.data.id).then(
      () => null,
      (err: { code: string; message: string }) => err,
    )
    expect(e?.code).toBe('conflict')
    expect(e?.message).toMatch(/POST \/api-v1\/bank-accounts answered 409/)
    expect((await owner.approvals.get(taken.body.data.id)).state).toBe('failed')
    expect((await owner.accounts.list()).data.filter((a) => a.name === 'Twice')).toHaveLength(1)
    expect(await owner.audit.verify()).toMatchObject({ intact: true })
  })

  it('the approver holds a scope of the request’s route; opening an import that is no review stays refused', async () => {
    const closer = await owner.keys.create({ name: 'closer', scopes: ['read', 'close'], agent: true })
    const res = await h.raw('POST', '/api-v1/close/2025-01', {
      headers: { 'x-api-key': closer.key, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    })
    expect(res.status).toBe(202)
    const p = ((await res.json()) as { data: Proposal }).data
    // The bookkeeper holds write, not close: the close stays the owner's to approve.
    const refused = await book.approvals.approve(p.id).then(
      () => null,
      (err: { code: string; message: string }) => err,
    )
    expect(refused?.code).toBe('forbidden')
    expect(refused?.message).toMatch(/takes the close scope/)
    expect((await owner.approvals.get(p.id)).state).toBe('pending')
    expect(await owner.approvals.approve(p.id)).toMatchObject({ state: 'approved', result: { status: 200 } })
    expect((await owner.close.status('2025-01')).closed).toBe(true)

    const direct = await asAgent('POST', '/api-v1/imports', { kind: 'csv', bank_account_id: t.accountId, file_name: 'direct.csv' })
    expect(direct.status).toBe(403)
    expect(direct.body.error?.message).toMatch(/imports through a review/)
  })

  it('a read-only agent key cannot propose a write (403: its scopes)', async () => {
    const ro = await owner.keys.create({ name: 'reader', scopes: ['read'], agent: true })
    const tx = await seed('READ ONLY')
    const res = await h.raw('PATCH', `/api-v1/transactions/${tx.id}`, {
      headers: { 'x-api-key': ro.key, 'content-type': 'application/json' },
      body: JSON.stringify({ category: 'Nope' }),
    })
    expect(res.status).toBe(403)
    expect((await owner.approvals.list()).filter((p) => p.proposed_by === `key:${ro.id}`)).toEqual([])
  })

  it('a proposal outlives its key: revoked, the key is refused, and a person still decides its proposals', async () => {
    const tx = await seed('LAST ONE')
    const p = (await asAgent('PATCH', `/api-v1/transactions/${tx.id}`, { category: 'Late' })).body.data
    await owner.keys.revoke(agentId)
    expect((await asAgent('PATCH', `/api-v1/transactions/${tx.id}`, { category: 'Later' })).status).toBe(401)
    expect((await owner.approvals.approve(p.id)).state).toBe('approved')
    expect((await owner.transactions.get(tx.id)).category).toBe('Late')
  })
})

/**
 * An agent's request replayed as its approver (docs/agents.md, "Any other write"), on both stores:
 * what it was bound to is checked again inside the replay's first write transaction, so a write that
 * lands between the approval and the replay fails the proposal and nothing of the request is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { replayer } from '../../src/api/replay.js'
import type { Actor } from '../../src/domain/actor.js'
import { approveProposal } from '../../src/domain/approvals/proposals.js'
import type { Proposal } from '../../src/domain/approvals/schemas.js'
import type { Replay } from '../../src/domain/approvals/step-types.js'
import { DEFAULT_DATE_WINDOW } from '../../src/domain/transactions/plausibility.js'
import { checkedAtFirstWrite } from '../../src/kernel/first-write.js'
import { ROLE_SCOPES } from '../../src/kernel/roles.js'
import type { Client } from '../../src/client/client.js'
import { createHarness, type Harness, STORES, type Tenant } from '../helpers/harness.js'

describe.each(STORES)('an agent’s request replayed on %s', (storeKind) => {
  let h: Harness
  let t: Tenant
  let owner: Client
  let ownerActor: Actor
  let agentKey: string

  beforeAll(async () => {
    h = await createHarness('embedded', storeKind)
    t = await h.tenant('Replays')
    owner = h.client({ token: t.token })
    agentKey = (await owner.keys.create({ name: 'claude', scopes: ['read', 'write', 'transactions'], agent: true })).key
    const user = await h.store.db.selectFrom('users').select('id').where('company_id', '=', t.companyId).executeTakeFirstOrThrow()
    ownerActor = { companyId: t.companyId, kind: 'jwt', userId: user.id, scopes: ROLE_SCOPES.owner }
  })
  afterAll(async () => {
    await h?.close()
  })

  async function proposeDelete(description: string) {
    const tx = await owner.transactions.create({
      bank_account_id: t.accountId,
      transaction_date: '2026-02-03',
      description,
      amount: '-9.99',
    })
    const res = await h.raw('DELETE', `/api-v1/transactions/${tx.id}`, { headers: { 'x-api-key': agentKey } })
    expect(res.status).toBe(202)
    return { tx, p: ((await res.json()) as { data: Proposal }).data }
  }

  it('the check runs once, inside the first write transaction, and its refusal rolls that write back', async () => {
    const seen: unknown[] = []
    const { ran } = await checkedAtFirstWrite(
      async (trx) => {
        seen.push(trx)
      },
      async () => {
        await h.store.writeTransaction(async () => undefined)
        await h.store.writeTransaction(async () => undefined)
      },
    )
    expect(ran).toBe(true)
    expect(seen).toHaveLength(1)
    const refused = checkedAtFirstWrite(
      async () => {
        throw new Error('moved')
      },
      () =>
        h.store.writeTransaction((trx) => trx.updateTable('companies').set({ name: 'Renamed' }).where('id', '=', t.companyId).execute()),
    )
    await expect(refused).rejects.toThrow('moved')
    const company = await h.store.db.selectFrom('companies').select('name').where('id', '=', t.companyId).executeTakeFirstOrThrow()
    expect(company.name).not.toBe('Renamed')
  })

  it('a write between the approval and the replay fails the proposal inside the replay’s write: the row is kept', async () => {
    const { tx, p } = await proposeDelete('RACED')
    const replay = replayer((r) => h.app!.fetch(r))
    // Another person's write lands after the approval's own check, before the replay writes.
    const racing: Replay = async (asked, actor, check) => {
      await owner.transactions.update(tx.id, { category: 'Moved meanwhile' })
      return replay(asked, actor, check)
    }
    const e = await approveProposal(h.store, ownerActor, p.id, new Date(), DEFAULT_DATE_WINDOW, racing).then(
      () => null,
      (err: { code: string; message: string }) => err,
    )
    expect(e?.code).toBe('conflict')
    expect(e?.message).toMatch(/answered 409: transaction .* changed since the request was proposed/)
    expect((await owner.approvals.get(p.id)).state).toBe('failed')
    expect(await owner.transactions.get(tx.id)).toMatchObject({ category: 'Moved meanwhile' })
    expect(await owner.audit.verify()).toMatchObject({ intact: true })
  })

  it('without a write between, the same replay deletes the row as the approver', async () => {
    const { tx, p } = await proposeDelete('NOT RACED')
    const approved = await approveProposal(
      h.store,
      ownerActor,
      p.id,
      new Date(),
      DEFAULT_DATE_WINDOW,
      replayer((r) => h.app!.fetch(r)),
    )
    expect(approved).toMatchObject({ state: 'approved', result: { action: 'request', status: 200 } })
    expect(await owner.transactions.get(tx.id).catch((err: { code: string }) => err.code)).toBe('not_found')
  })
})

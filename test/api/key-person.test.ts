/**
 * A key acts for its person as the person is today (docs/people.md, "Disabled users and role
 * changes"), through both transports on both stores: an owner's key with write scopes gets 403 on
 * writes once the owner is a viewer, works again once they are a bookkeeper, and is refused (401)
 * once they are disabled, for approving too; an invitation stands on its inviter's right when it is
 * accepted: the inviter disabled or demoted, it is void.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const PASSWORD = 'a long enough password'

async function rejects(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

describe.each(MATRIX)("a key and an invitation never outlast their person's role, over %s on %s", (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let owner: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Key person')
    owner = h.client({ token: a.token })
  })
  afterAll(async () => {
    await h?.close()
  })

  async function join(email: string, role: string, by = owner) {
    const inv = await by.users.invite({ email, role })
    const accepted = await h.client().acceptInvite(inv.token, PASSWORD)
    return { client: h.client({ token: accepted.access_token }), id: accepted.user.id }
  }

  const row = (d: string) => ({ bank_account_id: a.accountId, transaction_date: '2026-03-02', description: d, amount: '-5.00' })

  it("an owner demoted to viewer: their key's writes are 403; a bookkeeper again: 201; disabled: 401, approving too", async () => {
    const second = await join(`second-${kind}@key-person.test`, 'owner')
    const made = await second.client.keys.create({ name: 'second', scopes: ['read', 'write', 'transactions'] })
    const key = h.client({ apiKey: made.key })
    expect((await key.transactions.create(row('as owner'))).id).toBeTruthy()

    await owner.users.setRole(second.id, 'viewer')
    const refused = await rejects(key.transactions.create(row('as viewer')), 'forbidden')
    expect(refused.message).toMatch(/lacks the write/)
    await rejects(key.transactions.list(), 'forbidden')

    await owner.users.setRole(second.id, 'bookkeeper')
    expect((await key.transactions.create(row('as bookkeeper'))).id).toBeTruthy()

    // A bookkeeper's revert proposal, which the second person's key could approve while they held write.
    const book = await join(`book-${kind}@key-person.test`, 'bookkeeper')
    await owner.policy.set({ require_approval: ['revert'] })
    const b = await book.client.imports.create({ kind: 'csv', bank_account_id: a.accountId, file_name: 'rows.csv' })
    await book.client.transactions.batchMinimal(
      [{ bank_account_id: a.accountId, transaction_date: '2026-03-03', description: 'Imported', amount: '-1.00', import_ref: 'kp.1' }],
      { importBatch: b.id },
    )
    await book.client.imports.finish(b.id, { state: 'completed', read: 1 })
    const p = (await book.client.imports.requestRevert(b.id)).proposal?.id ?? ''
    // Approving is its person's act as they are today: demoted to viewer, the key lacks the scope.
    await owner.users.setRole(second.id, 'viewer')
    await rejects(key.approvals.approve(p), 'forbidden')
    expect((await owner.approvals.get(p)).state).toBe('pending')

    await owner.users.disable(second.id)
    expect((await rejects(key.transactions.create(row('disabled')), 'unauthorized')).message).toMatch(/created this API key is disabled/)
    await rejects(key.approvals.approve(p), 'unauthorized')
    expect((await owner.approvals.get(p)).state).toBe('pending')
  })

  it('an invitation of an inviter disabled, or demoted below the role invited, is void: 401, nobody joins', async () => {
    // A company of its own, without the policy of the test before.
    const t = await h.tenant('Invitations')
    const owner = h.client({ token: t.token })
    const inviter = await join(`inviter-${kind}@key-person.test`, 'owner', owner)
    const asOwner = await inviter.client.users.invite({ email: `as-owner-${kind}@key-person.test`, role: 'owner' })
    const asAuditor = await inviter.client.users.invite({ email: `as-auditor-${kind}@key-person.test`, role: 'auditor' })
    await owner.users.setRole(inviter.id, 'accountant')
    // The accountant's role lacks users: neither invitation stands.
    const demoted = await rejects(h.client().acceptInvite(asAuditor.token, PASSWORD), 'unauthorized')
    expect(demoted.message).toMatch(/may no longer invite to the auditor role/)
    await owner.users.setRole(inviter.id, 'owner')
    const later = await inviter.client.users.invite({ email: `later-${kind}@key-person.test`, role: 'viewer' })
    await owner.users.disable(inviter.id)
    expect((await rejects(h.client().acceptInvite(asOwner.token, PASSWORD), 'unauthorized')).message).toMatch(/was disabled/)
    await rejects(h.client().acceptInvite(later.token, PASSWORD), 'unauthorized')
    const emails = (await owner.users.list()).map((u) => u.email)
    expect(emails).not.toContain(`as-owner-${kind}@key-person.test`)
    expect(emails).not.toContain(`later-${kind}@key-person.test`)
    // The owner's own invitation still stands.
    expect((await join(`fine-${kind}@key-person.test`, 'viewer', owner)).id).toBeTruthy()
  })
})

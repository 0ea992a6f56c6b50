/**
 * A proposal approved by two people at once through two `finctl serve` processes on one database
 * (PostgreSQL, and a SQLite file too): exactly one approval applies the step, the other is refused
 * (409), and the audit chain holds one decision (docs/people.md, "Approval policies").
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client.js'
import { openRemote } from '../../src/client/remote.js'
import { bootstrapCompany } from '../../src/domain/accounts/companies.js'
import type { AppError } from '../../src/kernel/errors.js'
import { openStore } from '../../src/store/open-store.js'
import type { Store } from '../../src/store/store.js'
import { freshPostgres, startServeProcess, stopProcess, STORES } from '../helpers/harness.js'

const PASSWORD = 'a long enough password'

describe.each(STORES)('one proposal approved in two serve processes at once, on %s', (storeKind) => {
  let store: Store
  let children: ChildProcess[] = []
  let urls: string[] = []
  let remote: ReturnType<typeof openRemote>
  let drop = async () => {}
  let dir = ''
  let companyId = ''
  const people: Record<'owner' | 'owner2' | 'owner3' | 'acc' | 'book', Client[]> = { owner: [], owner2: [], owner3: [], acc: [], book: [] }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-approvals-'))
    let database = join(dir, 'finctl.db')
    if (storeKind === 'postgres') {
      const pg = await freshPostgres()
      database = pg.url
      drop = pg.drop
    }
    store = await openStore(database, { poolSize: 2 })
    const email = `owner-${process.pid}@approvals.test`
    await bootstrapCompany(store, { name: 'Two Processes', baseCurrency: 'USD', email, password: PASSWORD }, new Date())
    companyId = (await store.db.selectFrom('companies').select('id').executeTakeFirstOrThrow()).id
    const started = await Promise.all([startServeProcess(database), startServeProcess(database)])
    children = started.map((s) => s.child)
    urls = started.map((s) => s.url)
    remote = openRemote({ connections: 16 })
    const at = (i: number, token: string) => new Client({ baseUrl: urls[i], fetch: remote.fetch, maxRetries: 0, token })
    const ownerToken = (await at(0, '').token(email, PASSWORD)).access_token
    people.owner = [at(0, ownerToken), at(1, ownerToken)]
    for (const [who, role] of [
      ['owner2', 'owner'],
      ['owner3', 'owner'],
      ['acc', 'accountant'],
      ['book', 'bookkeeper'],
    ] as const) {
      const inv = await people.owner[0].users.invite({ email: `${who}@approvals.test`, role })
      const token = (await at(1, '').acceptInvite(inv.token, PASSWORD)).access_token
      people[who] = [at(0, token), at(1, token)]
    }
    await people.owner[0].policy.set({ require_approval: ['reopen', 'bulk'], bulk_threshold: 1 })
  }, 240_000)
  afterAll(async () => {
    await Promise.all(children.map((c) => stopProcess(c)))
    await remote?.close()
    await store?.close()
    await drop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  /** Approve `id` as two people through the two processes at once: the answers' codes. */
  async function race(id: string, a: Client, b: Client) {
    const settled = await Promise.allSettled([a.approvals.approve(id), b.approvals.approve(id)])
    return settled.map((s) => (s.status === 'fulfilled' ? 'ok' : (s.reason as AppError).code)).sort()
  }

  const decisions = (id: string) =>
    store.db
      .selectFrom('audit_entries')
      .select('action')
      .where('company_id', '=', companyId)
      .where('transaction_id', '=', id)
      .where('action', '!=', 'proposal_requested')
      .execute()

  it("the bookkeeper's reopen, approved by the accountant and an owner in two processes: reopened once", async () => {
    await people.owner[0].close.month('2025-03', { force: true, reason: 'closing for the test' })
    const p = (await people.book[0].close.requestReopen('2025-03', 'late invoice')).proposal?.id ?? ''
    expect(await race(p, people.acc[0], people.owner[1])).toEqual(['conflict', 'ok'])
    const reopens = (await people.owner[0].close.history()).filter((r) => r.period === '2025-03' && r.action === 'reopen')
    expect(reopens).toHaveLength(1)
    expect((await decisions(p)).map((e) => e.action)).toEqual(['proposal_approved'])
    expect((await people.owner[1].audit.verify()).intact).toBe(true)
  })

  it('bulk updates approved by two owners in two processes, round after round: each applied once', async () => {
    const acct = (await people.owner[0].accounts.create({ name: 'Race', account_type: 'checking', currency_code: 'USD' })).id
    const rows = [1, 2].map((d) => ({ bank_account_id: acct, transaction_date: `2026-06-0${d}`, description: `Row ${d}`, amount: '-1.00' }))
    const ids = (await people.owner[0].transactions.batch(rows)).created.map((t) => t.id)
    for (let round = 0; round < 5; round++) {
      const o = await people.book[round % 2].transactions.requestBulkUpdate({
        transaction_ids: ids,
        updates: { category: `Round ${round}` },
      })
      const id = o.proposal?.id ?? ''
      expect(await race(id, people.owner[0], people.owner2[1])).toEqual(['conflict', 'ok'])
      expect((await decisions(id)).map((e) => e.action)).toEqual(['proposal_approved'])
      const entries = await store.db
        .selectFrom('audit_entries')
        .select('transaction_id')
        .where('company_id', '=', companyId)
        .where('action', '=', 'bulk_update')
        .where('transaction_id', 'in', ids)
        .execute()
      expect(entries).toHaveLength(2 * (round + 1))
      expect((await people.acc[1].transactions.get(ids[0])).category).toBe(`Round ${round}`)
    }
    expect((await people.owner[0].audit.verify()).intact).toBe(true)
  })

  it("a demotion or disabling made in one process holds at once for the person's key and invitations in the other", async () => {
    const owner3 = (await people.owner[0].users.list()).find((u) => u.email === 'owner3@approvals.test')?.id ?? ''
    const made = await people.owner3[0].keys.create({ name: 'owner3', scopes: ['read', 'write', 'transactions'] })
    const key = new Client({ baseUrl: urls[1], fetch: remote.fetch, maxRetries: 0, apiKey: made.key })
    const acct = (await key.accounts.create({ name: 'Key person', account_type: 'checking', currency_code: 'USD' })).id
    const row = { bank_account_id: acct, transaction_date: '2026-07-01', description: 'By key', amount: '-1.00' }
    expect((await key.transactions.create(row)).id).toBeTruthy()
    const invitation = await people.owner3[1].users.invite({ email: 'late@approvals.test', role: 'auditor' })
    // Process 0 demotes; the key, in process 1, is refused its very next write.
    await people.owner[0].users.setRole(owner3, 'viewer')
    const codes = async () => {
      const settled = await Promise.allSettled([key.transactions.create(row), key.transactions.list()])
      return settled.map((s) => (s.status === 'fulfilled' ? 'ok' : (s.reason as AppError).code))
    }
    expect(await codes()).toEqual(['forbidden', 'forbidden'])
    // Made owner again under the policy: a proposal, approved by another owner in the other process.
    const back = (await people.owner[1].users.requestSetRole(owner3, 'owner')).proposal?.id ?? ''
    await people.owner2[0].approvals.approve(back)
    expect(await codes()).toEqual(['ok', 'ok'])
    await people.owner[0].users.disable(owner3)
    expect(await codes()).toEqual(['unauthorized', 'unauthorized'])
    const accept = new Client({ baseUrl: urls[1], fetch: remote.fetch, maxRetries: 0 }).acceptInvite(invitation.token, PASSWORD)
    expect(
      await accept.then(
        () => 'ok',
        (e: AppError) => e.code,
      ),
    ).toBe('unauthorized')
  })
})

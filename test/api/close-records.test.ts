/**
 * The close record through both transports on both stores: a close keeps the audit
 * chain's head; exports are attached to the month's latest close (refused on a month never closed,
 * reopened, outside the month, with a malformed hash, or by a key without the close scope); GET
 * /close/{month}/verify names a head entry changed or removed, and a reopen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CloseVerification } from '../../src/domain/closing/schemas.js'
import { monthEnd, previousMonth } from '../../src/domain/accounts/period-lock.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))
const END = monthEnd(M)
const HASH = 'ab'.repeat(32)

async function refused(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

describe.each(MATRIX)('close records over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let owner: Client
  let closer: Client
  let tx: string
  const exportOf = (over: Record<string, unknown> = {}) => ({
    format: 'hledger' as const,
    file_name: `books-${M}.journal`,
    sha256: HASH,
    bytes: 120,
    rows: 1,
    from: `${M}-01`,
    to: END,
    ...over,
  })

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Records')
    c = h.client({ apiKey: a.key })
    owner = h.client({ token: a.token })
    closer = h.client({ apiKey: (await owner.keys.create({ name: 'closer', scopes: ['read', 'close'] })).key })
    const acct = (await c.accounts.create({ name: 'Books', account_type: 'checking', currency_code: 'USD' })).id
    tx = (await c.transactions.create({ bank_account_id: acct, transaction_date: `${M}-04`, amount: -12.5, description: 'Ink' })).id
    await c.transactions.update(tx, { category: 'Office' })
    await c.transactions.update(tx, { description: 'Ink, black' })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('an export cannot be attached to a month never closed; the close keeps the chain head', async () => {
    await refused(closer.close.attachExport(M, exportOf()), 'not_found')
    await refused(closer.close.verify(M), 'not_found')
    const head = await h.store.db
      .selectFrom('audit_chain_heads')
      .selectAll()
      .where('company_id', '=', a.companyId)
      .executeTakeFirstOrThrow()
    const r = await closer.close.month(M, { force: true, reason: 'checked by hand' })
    expect(r.record.chain_head).toEqual({ id: Number(head.last_id), hash: head.hash })
    expect((await c.close.history())[0].chain_head).toEqual(r.record.chain_head)
  })

  it('attaches exports: validated, the close scope needed', async () => {
    const bad = await refused(closer.close.attachExport(M, exportOf({ sha256: 'XYZ' })), 'validation_error')
    expect(bad.message).toContain('sha256')
    const outside = await refused(closer.close.attachExport(M, exportOf({ to: `${today.slice(0, 7)}-01` })), 'validation_error')
    expect(outside.message).toContain(`within ${M}-01..${END}`)
    await refused(c.close.attachExport(M, exportOf()), 'forbidden')
    const e = await closer.close.attachExport(M, exportOf())
    expect(e).toMatchObject({ format: 'hledger', sha256: HASH, rows: 1, from: `${M}-01`, to: END, accounts_map_sha256: null })
    const v = await c.close.verify(M)
    expect(v).toMatchObject({ month: M, still_closed: true, reopened: null, chain: { intact: true, head_found: true, message: null } })
    expect(v.exports.map((x) => x.id)).toEqual([e.id])
  })

  it('verify names the head entry changed, and removed', async () => {
    const head = (await c.close.verify(M)).record.chain_head!
    const row = await h.store.db.selectFrom('audit_entries').selectAll().where('id', '=', head.id!).executeTakeFirstOrThrow()
    await h.store.db
      .updateTable('audit_entries')
      .set({ hash: 'f'.repeat(64) })
      .where('id', '=', head.id!)
      .execute()
    let v: CloseVerification = await c.close.verify(M)
    expect(v.chain.head_found).toBe(false)
    expect(v.chain.message).toContain(
      `audit entry #${head.id}, the chain's head when ${M} was closed, no longer has the hash recorded then`,
    )
    await h.store.db.deleteFrom('audit_entries').where('id', '=', head.id!).execute()
    v = await c.close.verify(M)
    expect(v.chain.message).toContain('was removed')
    expect(v.chain.intact).toBe(false)
    await h.store.db.insertInto('audit_entries').values(row).execute()
    v = await c.close.verify(M)
    expect(v.chain).toEqual({ intact: true, head_found: true, message: null })
  })

  it('a reopen is named, and no export is attached while the month is open', async () => {
    await owner.close.reopen(M, 'late invoice')
    const v = await c.close.verify(M)
    expect(v.still_closed).toBe(false)
    expect(v.reopened).toMatchObject({ action: 'reopen', reason: 'late invoice' })
    const open = await refused(closer.close.attachExport(M, exportOf()), 'conflict')
    expect(open.message).toContain('reopened')
  })

  it("a close again: verify holds the earlier close's exports apart from its own, with when that close was made", async () => {
    const first = (await c.close.history()).find((r) => r.action === 'close' && r.period === M)!
    await closer.close.month(M, { force: true, reason: 'again' })
    const v = await c.close.verify(M)
    expect(v.exports).toEqual([])
    expect(v.earlier_exports).toEqual([
      expect.objectContaining({ format: 'hledger', sha256: HASH, close_id: first.id, closed_at: first.created_at }),
    ])
  })
})

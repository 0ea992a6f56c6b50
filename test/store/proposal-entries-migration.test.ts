/**
 * Migration 0042 chains the proposals a database already holds (docs/audit.md, "Proposals in the
 * chain"): a database taken back to 0038 with proposals and no entries for them, opened by today's
 * store, has one entry per proposal (actor finctl, its state's action), and `verify` is intact.
 */
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { verifyAudit } from '../../src/domain/transactions/verify.js'
import type { Store } from '../../src/store/store.js'
import { freshDatabase, seedTenant, STORES, takeBackAfter, type TestDatabase } from './fixtures.js'

describe.each(STORES)('migration 0042 on %s', (kind) => {
  const opened: Array<{ database: TestDatabase; store?: Store }> = []
  afterEach(async () => {
    for (const d of opened.splice(0)) {
      await d.store?.close().catch(() => {})
      await d.database.remove()
    }
  })

  it('chains each proposal already there, as it stands; verify is intact and counts them', async () => {
    const d: { database: TestDatabase; store?: Store } = { database: await freshDatabase(kind) }
    opened.push(d)
    d.store = await d.database.open()
    const t = await seedTenant(d.store)
    await takeBackAfter(d.store, '0038_documents')
    const row = (state: string) => ({
      id: randomUUID(),
      company_id: t.companyId,
      kind: 'reopen',
      target: '2025-03',
      request: '{"month":"2025-03","reason":"late"}',
      effect: '{"month":"2025-03"}',
      state,
      proposed_by: 'user:u1',
      proposer_user_id: 'u1',
      created_at: '2026-11-01T10:00:00.000Z',
      decided_by: state === 'pending' ? null : 'user:u2',
      decided_at: state === 'pending' ? null : '2026-11-01T11:00:00.000Z',
      reason: null,
      result: null,
    })
    const rows = [row('pending'), row('approved')]
    // As 0037's table held them: no bulk_threshold, no invitation revokes, no entries.
    await (d.store.db as any).insertInto('proposals').values(rows).execute()
    await d.store.close()
    d.store = await d.database.open()
    const entries = await d.store.db
      .selectFrom('audit_entries')
      .select(['transaction_id', 'actor', 'action'])
      .where('company_id', '=', t.companyId)
      .where('action', 'like', 'proposal_%')
      .orderBy('id')
      .execute()
    expect(entries.map((e) => [e.transaction_id, e.actor, e.action]).sort()).toEqual(
      [
        [rows[0].id, 'finctl', 'proposal_requested'],
        [rows[1].id, 'finctl', 'proposal_approved'],
      ].sort(),
    )
    expect(await verifyAudit(d.store, t.companyId)).toMatchObject({ intact: true, proposals: 2 })
    await d.store.db.updateTable('proposals').set({ reason: 'edited' }).where('id', '=', rows[1].id).execute()
    expect((await verifyAudit(d.store, t.companyId)).broken).toMatchObject({ kind: 'proposal_changed', transaction_id: rows[1].id })
  })
})

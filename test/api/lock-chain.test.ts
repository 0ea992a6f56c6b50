/**
 * The lock date in the audit chain (docs/audit.md, "The lock date in the chain"), through both
 * transports on both stores: each close and reopen chains the lock date it set; a lock date cleared
 * or moved by SQL is named by GET /audit/verify and GET /close/{month}/verify.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { monthEnd, previousMonth } from '../../src/domain/accounts/period-lock.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const M = previousMonth(new Date().toISOString().slice(0, 7))
const BEFORE = previousMonth(M)

describe.each(MATRIX)('the lock date chained over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let owner: Client
  const setLock = (date: string | null) => sql`update companies set lock_date = ${date} where id = ${a.companyId}`.execute(h.store.db)

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Lock')
    owner = h.client({ token: a.token })
    await owner.close.month(BEFORE, { force: true, reason: 'chain test' })
    await owner.close.month(M, { force: true, reason: 'chain test' })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('closes and a reopen chain the lock date they set: intact', async () => {
    await owner.close.reopen(M, 'a late invoice')
    await owner.close.month(M, { force: true, reason: 'again' })
    expect(await owner.audit.verify()).toMatchObject({ intact: true, broken: null })
    expect((await owner.close.verify(M)).lock).toEqual({ intact: true, message: null })
  })

  it('a lock date cleared by SQL: verify and verify --close name it', async () => {
    await setLock(null)
    try {
      const v = await owner.audit.verify()
      expect(v.intact).toBe(false)
      expect(v.broken).toMatchObject({ kind: 'lock_date_changed' })
      expect(v.broken?.message).toContain(`the lock date is not set (nothing closed), but the audit chain's last change of it`)
      expect(v.broken?.message).toContain(`the close of ${M}`)
      expect(v.broken?.message).toContain(`set ${monthEnd(M)}: it was changed outside finctl`)
      const c = await owner.close.verify(M)
      expect(c.still_closed).toBe(false)
      expect(c.lock).toMatchObject({ intact: false, message: expect.stringContaining('it was changed outside finctl') })
      // Moved back a month by SQL: named too.
      await setLock(monthEnd(BEFORE))
      expect((await owner.audit.verify()).broken?.message).toContain(`the lock date is ${monthEnd(BEFORE)}, but`)
    } finally {
      await setLock(monthEnd(M))
    }
    expect(await owner.audit.verify()).toMatchObject({ intact: true })
  })
})

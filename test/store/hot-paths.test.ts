/**
 * The store's hot paths (src/store/store.ts, HotPaths), called directly on every dialect: SQLite's
 * prepared statements and PostgreSQL's multi-row statements must keep the same contract.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyChain } from '../../src/store/audit-chain.js'
import { verifyCreations } from '../../src/store/creations.js'
import { TX_COLUMNS, type NewEventRow } from '../../src/store/schema.js'
import { PENDING_ROWS_PER_STATEMENT } from '../../src/store/pending-rows.js'
import type { Store } from '../../src/store/store.js'
import {
  accountKey,
  addAccount,
  addKey,
  existingIds,
  freshDatabase,
  otherAccount,
  seedTenant,
  STORES,
  storedTransactions,
  txRow,
  type TestDatabase,
  type Tenant,
} from './fixtures.js'

describe.each(STORES)('store hot paths on %s', (kind) => {
  let database: TestDatabase
  let store: Store
  let t: Tenant

  beforeAll(async () => {
    database = await freshDatabase(kind)
    store = await database.open()
    t = await seedTenant(store)
  })
  afterAll(async () => {
    await store?.close()
    await database?.remove()
  })

  describe('findKeyByHash', () => {
    it('finds the key row by its hash, with every column as stored', async () => {
      const other = await addKey(store, t.companyId, { perMinute: 7, perDay: 70 })
      const row = await store.hot.findKeyByHash(`hash-${other}`)
      expect(row).toEqual({
        id: other,
        company_id: t.companyId,
        name: 'ci',
        key_prefix: `fk_${other.slice(0, 6)}`,
        key_hash: `hash-${other}`,
        scopes: '["read","transactions"]',
        description: 'contract test',
        rate_limit_per_minute: 7,
        rate_limit_per_day: 70,
        is_active: 1,
        expires_at: null,
        revoked_at: null,
        created_at: '2026-11-20T10:00:00.000Z',
        created_by: 'user:owner',
        usage_count: 0, // a number on PostgreSQL too (BIGINT is parsed back)
        last_used_at: null,
        rolled_to: null,
        rolled_from: null,
        revoke_at: null,
        agent: 0, // a person's key (an agent's key is 1: docs/agents.md)
        // No user of the company has the id `user:owner`: a key of nobody (authentication refuses it).
        creator_role: null,
        creator_disabled_at: null,
      })
      expect((await store.hot.findKeyByHash(t.keyHash))?.id).toBe(t.keyId)
    })

    it("reads the creator's role and disabling as they are now, each lookup afresh", async () => {
      const userId = randomUUID()
      await store.db
        .insertInto('users')
        .values({
          id: userId,
          company_id: t.companyId,
          email: `${userId}@hot.test`,
          password_hash: 'x',
          role: 'owner',
          created_at: '2026-11-20T10:00:00.000Z',
          disabled_at: null,
        })
        .execute()
      const key = await addKey(store, t.companyId)
      await store.db.updateTable('api_keys').set({ created_by: userId }).where('id', '=', key).execute()
      expect(await store.hot.findKeyByHash(`hash-${key}`)).toMatchObject({ creator_role: 'owner', creator_disabled_at: null })
      await store.db
        .updateTable('users')
        .set({ role: 'viewer', disabled_at: '2026-11-21T00:00:00.000Z' })
        .where('id', '=', userId)
        .execute()
      expect(await store.hot.findKeyByHash(`hash-${key}`)).toMatchObject({
        creator_role: 'viewer',
        creator_disabled_at: '2026-11-21T00:00:00.000Z',
      })
    })

    it('finds nothing for a hash no key has', async () => {
      expect(await store.hot.findKeyByHash('hash-nobody')).toBeUndefined()
      expect(await store.hot.findKeyByHash(t.keyHash.toUpperCase())).toBeUndefined()
    })

    // PostgreSQL reads the lookups made at once in one statement (postgres/batched-reads.ts).
    it('lookups at once each find their own key, a key looked up twice its own copy, an unknown hash nothing', async () => {
      const a = await addKey(store, t.companyId)
      const b = await addKey(store, t.companyId)
      const found = await Promise.all([`hash-${a}`, `hash-${b}`, 'hash-nobody', `hash-${a}`].map((h) => store.hot.findKeyByHash(h)))
      expect(found.map((r) => r?.id)).toEqual([a, b, undefined, a])
      expect(found[0]).not.toBe(found[3])
      // A read begun after a change sees it.
      await store.db.updateTable('api_keys').set({ revoked_at: '2026-11-21T00:00:00.000Z' }).where('id', '=', b).execute()
      expect((await store.hot.findKeyByHash(`hash-${b}`))?.revoked_at).toBe('2026-11-21T00:00:00.000Z')
    })
  })

  describe('findBankAccount', () => {
    it("finds a company's account, with every column as stored", async () => {
      const id = await addAccount(store, t.companyId, { name: 'Tax reserve', opening_balance: 9_007_199_254_740_991 })
      expect(await store.hot.findBankAccount(t.companyId, id)).toEqual({
        id,
        key: await accountKey(store, id),
        company_id: t.companyId,
        name: 'Tax reserve',
        institution_name: 'First Bank',
        account_type: 'checking',
        account_number_last4: '4321',
        currency_code: 'USD',
        status: 'active',
        opening_balance: 9_007_199_254_740_991,
        opening_balance_date: '2000-01-01',
        opening_exchange_rate: null,
        opening_exchange_rate_date: null,
        created_at: '2026-11-20T10:00:00.000Z',
        updated_at: '2026-11-20T10:00:00.000Z',
      })
    })

    it("does not find another company's account, nor an unknown one", async () => {
      const other = await seedTenant(store, 'Other')
      expect(await store.hot.findBankAccount(t.companyId, other.accountId)).toBeUndefined()
      expect(await store.hot.findBankAccount(other.companyId, t.accountId)).toBeUndefined()
      expect(await store.hot.findBankAccount(t.companyId, '00000000-0000-0000-0000-000000000000')).toBeUndefined()
      expect((await store.hot.findBankAccount(other.companyId, other.accountId))?.company_id).toBe(other.companyId)
    })
  })

  describe('findBankAccountAndLock', () => {
    it("finds the account as findBankAccount does, with the company's lock date", async () => {
      const c = await seedTenant(store, 'Locking')
      expect(await store.hot.findBankAccountAndLock(c.companyId, c.accountId)).toEqual({
        account: await store.hot.findBankAccount(c.companyId, c.accountId),
        lockDate: null,
      })
      await store.db.updateTable('companies').set({ lock_date: '2026-09-30' }).where('id', '=', c.companyId).execute()
      const found = await store.hot.findBankAccountAndLock(c.companyId, c.accountId)
      expect(found.lockDate).toBe('2026-09-30')
      expect(found.account?.id).toBe(c.accountId)
    })

    // SQLite reads without kysely's lock while no transaction is open on the connection: one asked
    // while another request's transaction is open must still not see what that transaction wrote.
    it('a read asked while a write transaction is open answers what is committed, not what that transaction wrote', async () => {
      const c = await seedTenant(store, 'Uncommitted')
      let read: Promise<{ lockDate: string | null; account: unknown }> | undefined
      await expect(
        store.writeTransaction(async (trx) => {
          await trx.updateTable('companies').set({ lock_date: '2026-07-31' }).where('id', '=', c.companyId).execute()
          await trx.updateTable('bank_accounts').set({ name: 'Renamed' }).where('id', '=', c.accountId).execute()
          read = store.hot.findBankAccountAndLock(c.companyId, c.accountId)
          await new Promise((r) => setTimeout(r, 20))
          throw new Error('rolled back')
        }),
      ).rejects.toThrow('rolled back')
      const found = await read!
      expect(found.lockDate).toBeNull()
      expect((found.account as { name: string }).name).toBe('Operating')
    })

    it("finds no account of another company, nor an unknown one; the lock date is the asking company's", async () => {
      const c = await seedTenant(store, 'Locked')
      await store.db.updateTable('companies').set({ lock_date: '2026-08-31' }).where('id', '=', c.companyId).execute()
      expect(await store.hot.findBankAccountAndLock(c.companyId, t.accountId)).toEqual({ account: undefined, lockDate: '2026-08-31' })
      expect(await store.hot.findBankAccountAndLock(t.companyId, c.accountId)).toEqual({ account: undefined, lockDate: null })
      expect(await store.hot.findBankAccountAndLock('no-such-company', c.accountId)).toEqual({ account: undefined, lockDate: null })
    })

    // PostgreSQL reads the reads made at once in one statement (postgres/batched-reads.ts).
    it('reads at once each find their own account and lock date; a bad id fails its own read alone', async () => {
      const c = await seedTenant(store, 'Batched')
      await store.db.updateTable('companies').set({ lock_date: '2026-07-31' }).where('id', '=', c.companyId).execute()
      const second = await addAccount(store, c.companyId, { name: 'Second' })
      const asked: Array<[string, string]> = [
        [c.companyId, c.accountId],
        [t.companyId, t.accountId],
        [c.companyId, second],
        [c.companyId, t.accountId],
        ['no-such-company', c.accountId],
        [c.companyId, c.accountId],
      ]
      const found = await Promise.all(asked.map(([company, id]) => store.hot.findBankAccountAndLock(company, id)))
      expect(found.map((f) => [f.account?.id, f.lockDate])).toEqual([
        [c.accountId, '2026-07-31'],
        [t.accountId, null],
        [second, '2026-07-31'],
        [undefined, '2026-07-31'],
        [undefined, null],
        [c.accountId, '2026-07-31'],
      ])
      expect(found[0]?.account).toEqual(await store.hot.findBankAccount(c.companyId, c.accountId))
      expect(found[0]?.account).not.toBe(found[5]?.account)
      // A text PostgreSQL refuses (a NUL) fails that read, not the ones beside it.
      const mixed = await Promise.allSettled([
        store.hot.findBankAccountAndLock(c.companyId, 'bad\u0000id'),
        store.hot.findBankAccountAndLock(c.companyId, second),
      ])
      expect(mixed[1]).toMatchObject({ status: 'fulfilled', value: { account: { id: second }, lockDate: '2026-07-31' } })
      if (mixed[0].status === 'fulfilled') expect(mixed[0].value.account).toBeUndefined()
    })
  })

  describe('takeRateLimit', () => {
    const take = (keyId: string, minuteWindow: number, dayWindow: number, perMinute: number, perDay: number) =>
      store.hot.takeRateLimit({ keyId, minuteWindow, dayWindow, perMinute, perDay })
    const counter = (keyId: string) => store.db.selectFrom('rate_limit_counters').selectAll().where('key_id', '=', keyId).executeTakeFirst()

    it('a take synced later by the usage write counts the same, and leaves every other COMMIT synced', async () => {
      const key = await addKey(store, t.companyId)
      const later = { keyId: key, minuteWindow: 1000, dayWindow: 10, perMinute: 2, perDay: 50, syncedLater: true }
      expect(await store.hot.takeRateLimit(later)).toEqual({ allowed: true, minuteCount: 1, dayCount: 1 })
      // Taken with and without a sync of its own in one group, and alone: the counts are exact.
      const both = await Promise.all([store.hot.takeRateLimit(later), take(key, 1000, 10, 2, 50)])
      expect(both.filter((r) => r.allowed)).toHaveLength(1)
      expect(await counter(key)).toMatchObject({ minute_count: 2, day_count: 2 })
      if (store.dialect === 'sqlite') {
        // FULL (2) again for whatever comes next (docs/decisions.md, "Durability").
        const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(store.db)
        expect(rows[0].synchronous).toBe(2)
      }
    })

    it('counts each take in both windows', async () => {
      const key = await addKey(store, t.companyId)
      expect(await take(key, 1000, 10, 5, 50)).toEqual({ allowed: true, minuteCount: 1, dayCount: 1 })
      expect(await take(key, 1000, 10, 5, 50)).toEqual({ allowed: true, minuteCount: 2, dayCount: 2 })
      expect(await take(key, 1000, 10, 5, 50)).toEqual({ allowed: true, minuteCount: 3, dayCount: 3 })
      expect(await counter(key)).toEqual({ key_id: key, minute_window: 1000, minute_count: 3, day_window: 10, day_count: 3, allowed: 1 })
    })

    it('refuses when the minute is full, and a refused take uses no allowance of either window', async () => {
      const key = await addKey(store, t.companyId)
      const results = []
      // Two a minute, four a day: minute 1000 refuses its third take; had that take counted against
      // the day, minute 1001 would refuse its second.
      for (const minute of [1000, 1000, 1000, 1001, 1001, 1002]) results.push(await take(key, minute, 10, 2, 4))
      expect(results).toEqual([
        { allowed: true, minuteCount: 1, dayCount: 1 },
        { allowed: true, minuteCount: 2, dayCount: 2 },
        { allowed: false, minuteCount: 2, dayCount: 2 },
        { allowed: true, minuteCount: 1, dayCount: 3 },
        { allowed: true, minuteCount: 2, dayCount: 4 },
        { allowed: false, minuteCount: 0, dayCount: 4 },
      ])
      expect(await counter(key)).toEqual({ key_id: key, minute_window: 1002, minute_count: 0, day_window: 10, day_count: 4, allowed: 0 })
    })

    it('refuses when the day is full, even in a new minute', async () => {
      const key = await addKey(store, t.companyId)
      expect(await take(key, 1000, 10, 100, 2)).toEqual({ allowed: true, minuteCount: 1, dayCount: 1 })
      expect(await take(key, 1001, 10, 100, 2)).toEqual({ allowed: true, minuteCount: 1, dayCount: 2 })
      expect(await take(key, 1002, 10, 100, 2)).toEqual({ allowed: false, minuteCount: 0, dayCount: 2 })
      expect(await take(key, 1002, 10, 100, 2)).toEqual({ allowed: false, minuteCount: 0, dayCount: 2 })
    })

    it('a newer window starts from zero: a new minute, and a new day', async () => {
      const key = await addKey(store, t.companyId)
      for (let i = 0; i < 3; i++) await take(key, 1000, 10, 3, 3)
      expect(await take(key, 1000, 10, 3, 3)).toEqual({ allowed: false, minuteCount: 3, dayCount: 3 })
      expect(await take(key, 1001, 10, 3, 3)).toEqual({ allowed: false, minuteCount: 0, dayCount: 3 })
      expect(await take(key, 1441, 11, 3, 3)).toEqual({ allowed: true, minuteCount: 1, dayCount: 1 })
      expect(await counter(key)).toEqual({ key_id: key, minute_window: 1441, minute_count: 1, day_window: 11, day_count: 1, allowed: 1 })
    })

    it('a take from an older window (a slower clock) counts against the newer one instead of resetting it', async () => {
      const key = await addKey(store, t.companyId)
      expect(await take(key, 501, 20, 3, 100)).toEqual({ allowed: true, minuteCount: 1, dayCount: 1 })
      expect(await take(key, 500, 19, 3, 100)).toEqual({ allowed: true, minuteCount: 2, dayCount: 2 })
      expect(await take(key, 500, 19, 3, 100)).toEqual({ allowed: true, minuteCount: 3, dayCount: 3 })
      expect(await take(key, 500, 19, 3, 100)).toEqual({ allowed: false, minuteCount: 3, dayCount: 3 })
      expect(await counter(key)).toMatchObject({ minute_window: 501, day_window: 20 })
    })

    it('a limit of zero refuses the very first take and counts nothing', async () => {
      const key = await addKey(store, t.companyId)
      expect(await take(key, 1000, 10, 0, 10)).toEqual({ allowed: false, minuteCount: 0, dayCount: 0 })
      expect(await take(key, 1000, 10, 10, 0)).toEqual({ allowed: false, minuteCount: 0, dayCount: 0 })
      expect(await counter(key)).toEqual({ key_id: key, minute_window: 1000, minute_count: 0, day_window: 10, day_count: 0, allowed: 0 })
    })

    it('concurrent takes are atomic: exactly the limit is allowed, and the count ends at it', async () => {
      const key = await addKey(store, t.companyId)
      const results = await Promise.all(Array.from({ length: 40 }, () => take(key, 1000, 10, 15, 1000)))
      expect(results.filter((r) => r.allowed)).toHaveLength(15)
      // Each allowed take saw its own count: 1..15, none twice.
      expect(
        results
          .filter((r) => r.allowed)
          .map((r) => r.minuteCount)
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: 15 }, (_, i) => i + 1))
      expect(await counter(key)).toMatchObject({ minute_count: 15, day_count: 15 })
    })

    // PostgreSQL takes the takes asked for at once in one statement per key and windows (postgres/rate-limit.ts).
    it('takes at once are answered as if taken one after another, whatever the windows and keys', async () => {
      const [a, b] = [await addKey(store, t.companyId), await addKey(store, t.companyId)]
      await take(a, 1000, 10, 4, 5)
      const asked: Array<[string, number]> = [
        [a, 1000],
        [b, 1000],
        [a, 1000],
        [a, 1000],
        [a, 1000],
        [b, 1000],
      ]
      const results = await Promise.all(asked.map(([key, minute]) => take(key, minute, 10, 4, 5)))
      // a: 3 more fit the minute (4), the last refused at the counts after; b: two of its own.
      expect(results).toEqual([
        { allowed: true, minuteCount: 2, dayCount: 2 },
        { allowed: true, minuteCount: 1, dayCount: 1 },
        { allowed: true, minuteCount: 3, dayCount: 3 },
        { allowed: true, minuteCount: 4, dayCount: 4 },
        { allowed: false, minuteCount: 4, dayCount: 4 },
        { allowed: true, minuteCount: 2, dayCount: 2 },
      ])
      // A new minute and the old one at once: the day (5) has room for one of them.
      const next = await Promise.all([take(a, 1001, 10, 4, 5), take(a, 1000, 10, 4, 5), take(a, 1001, 10, 4, 5)])
      expect(next.filter((r) => r.allowed)).toHaveLength(1)
      expect(await counter(a)).toMatchObject({ minute_window: 1001, day_count: 5 })
      expect(await counter(b)).toMatchObject({ minute_count: 2, day_count: 2 })
    })

    it("keys count apart: one key's full window does not touch another's", async () => {
      const [a, b] = [await addKey(store, t.companyId), await addKey(store, t.companyId)]
      await take(a, 1000, 10, 1, 10)
      expect(await take(a, 1000, 10, 1, 10)).toMatchObject({ allowed: false })
      expect(await take(b, 1000, 10, 1, 10)).toEqual({ allowed: true, minuteCount: 1, dayCount: 1 })
    })
  })

  describe('insertApiRequests', () => {
    const request = (keyId: string, created_at: string, over: { endpoint?: string; status_code?: number } = {}) => ({
      key_id: keyId,
      company_id: t.companyId,
      method: 'GET',
      endpoint: over.endpoint ?? '/v1/transactions',
      status_code: over.status_code ?? 200,
      response_time_ms: 12,
      created_at,
    })
    const usage = (keyId: string) =>
      store.db.selectFrom('api_keys').select(['usage_count', 'last_used_at']).where('id', '=', keyId).executeTakeFirstOrThrow()
    const requests = (keyId: string) =>
      store.db
        .selectFrom('api_requests')
        .select(['key_id', 'company_id', 'method', 'endpoint', 'status_code', 'response_time_ms', 'created_at'])
        .where('key_id', '=', keyId)
        .orderBy('id')
        .execute()

    it("appends every record and brings each key's usage_count and last_used_at (the latest, not the last sent) in step", async () => {
      const [a, b] = [await addKey(store, t.companyId), await addKey(store, t.companyId)]
      const rows = [
        request(a, '2026-11-20T10:00:01.000Z'),
        request(b, '2026-11-20T10:00:02.000Z', { endpoint: '/v1/accounts' }),
        request(a, '2026-11-20T10:00:03.000Z', { status_code: 404 }),
        request(a, '2026-11-20T10:00:02.500Z'),
      ]
      await store.hot.insertApiRequests(rows)
      expect(await requests(a)).toEqual([rows[0], rows[2], rows[3]])
      expect(await requests(b)).toEqual([rows[1]])
      expect(await usage(a)).toEqual({ usage_count: 3, last_used_at: '2026-11-20T10:00:03.000Z' })
      expect(await usage(b)).toEqual({ usage_count: 1, last_used_at: '2026-11-20T10:00:02.000Z' })
    })

    it('adds to the count already there, and an older record does not move last_used_at back', async () => {
      const key = await addKey(store, t.companyId)
      await store.hot.insertApiRequests([request(key, '2026-11-20T12:00:00.000Z'), request(key, '2026-11-20T12:00:01.000Z')])
      await store.hot.insertApiRequests([request(key, '2026-11-20T11:00:00.000Z')])
      expect(await usage(key)).toEqual({ usage_count: 3, last_used_at: '2026-11-20T12:00:01.000Z' })
      await store.hot.insertApiRequests([request(key, '2026-11-20T13:00:00.000Z')])
      expect(await usage(key)).toEqual({ usage_count: 4, last_used_at: '2026-11-20T13:00:00.000Z' })
      expect(await requests(key)).toHaveLength(4)
    })

    it('no records change nothing', async () => {
      const key = await addKey(store, t.companyId)
      await store.hot.insertApiRequests([])
      expect(await usage(key)).toEqual({ usage_count: 0, last_used_at: null })
      expect(await requests(key)).toEqual([])
    })
  })

  describe('TransactionCodec.encodeValues', () => {
    it("writes what encode writes, in TX_COLUMNS order (the hot path's copy of the same mapping)", async () => {
      const rows = [
        txRow(t),
        // Equal to the values they default to: stored as NULL.
        txRow(t, { posted_date: '2026-11-02', original_description: 'Office chairs', import_ref: 'r-1', created_via: 'create' }),
        txRow(t, { updated_at: '2026-11-21T09:00:00.000Z', statement_ref: 's-1', exchange_rate_date: '2026-11-01', created_by: null }),
      ]
      await store.tx.prepareActors(rows)
      for (const row of rows) {
        const encoded = store.tx.encode(row) as Record<string, unknown>
        const values: Parameters<Store['tx']['encodeValues']>[1] = []
        store.tx.encodeValues(row, values)
        expect(values).toEqual(TX_COLUMNS.map((c) => encoded[c] ?? null))
      }
      expect(Object.keys(store.tx.encode(rows[0])).sort()).toEqual([...TX_COLUMNS].sort())
    })
  })

  describe('insertTransactions', () => {
    it('inserts every row with its values (who created it, and how; the date of its exchange rate) and returns their ids', async () => {
      const rows = [
        txRow(t, { import_ref: 'r-1', amount: -1_250, base_amount: -1_250 }),
        txRow(t, { created_by: 'user:owner', created_via: 'create' }),
        txRow(t, {
          import_ref: 'r-2',
          tags: '["q4"]',
          currency_code: 'EUR',
          exchange_rate: '1.0823',
          base_amount: -37_870,
          exchange_rate_date: '2026-10-30',
        }),
      ]
      const inserted = await store.hot.insertTransactions(rows)
      expect(inserted.ids()).toEqual(rows.map((r) => r.id))
      const byId = await storedTransactions(
        store,
        rows.map((r) => r.id),
      )
      for (const row of rows) expect(byId.get(row.id)).toEqual({ ...row, statement_ref: null, seq: expect.any(Number) })
    })

    it('leaves out rows whose (account, import_ref) exists, and returns only the ids inserted', async () => {
      const first = txRow(t, { import_ref: 'dup-1', description: 'first' })
      expect(new Set((await store.hot.insertTransactions([first])).ids())).toEqual(new Set([first.id]))
      const again = txRow(t, { import_ref: 'dup-1', description: 'again' })
      const fresh = txRow(t, { import_ref: 'dup-2' })
      expect(new Set((await store.hot.insertTransactions([again, fresh])).ids())).toEqual(new Set([fresh.id]))
      expect(await existingIds(store, [first.id, again.id, fresh.id])).toEqual([first.id, fresh.id].sort())
      expect((await storedTransactions(store, [first.id])).get(first.id)?.description).toBe('first')
    })

    it('within one call, the second row with the same import_ref is left out', async () => {
      const [a, b] = [txRow(t, { import_ref: 'twice' }), txRow(t, { import_ref: 'twice' })]
      expect(new Set((await store.hot.insertTransactions([a, b])).ids())).toEqual(new Set([a.id]))
      expect(await existingIds(store, [a.id, b.id])).toEqual([a.id])
    })

    it('in a bulk load too (SQLite sets the unique index aside): a ref twice in one call goes in once, in two accounts twice', async () => {
      const second = await otherAccount(store, t)
      const rows = [
        ...Array.from({ length: 300 }, (_, i) => txRow(t, { import_ref: `load-${i}` })),
        txRow(t, { import_ref: 'load-7' }),
        txRow(second, { import_ref: 'load-7' }),
        txRow(t),
        txRow(t, { import_ref: 'load-299' }),
      ]
      const existing = new Map<string, string>()
      const load = store.hot.bulkLoad({ rows: 20_000 })
      const inserted = await load.insert(rows, { existing })
      expect(inserted.ids()).toEqual(rows.filter((_, i) => i !== 300 && i !== 303).map((r) => r.id))
      expect(rows.map((_, i) => inserted.at(i))).toEqual(rows.map((_, i) => i !== 300 && i !== 303))
      if (kind === 'sqlite') {
        // The two left out, each named with the row that holds its ref.
        expect([...existing.values()].sort()).toEqual([rows[7].id, rows[299].id].sort())
      }
      // A later call of the load: refs of the first are there.
      const later = [txRow(t, { import_ref: 'load-5' }), txRow(t, { import_ref: 'load-300' })]
      expect(new Set((await load.insert(later)).ids())).toEqual(new Set([later[1].id]))
      await load.end()
      expect(
        await existingIds(
          store,
          [...rows, ...later].map((r) => r.id),
        ),
      ).toHaveLength(rows.length - 2 + 1)
    })

    it('import_ref is unique per account, and rows without one never collide', async () => {
      const second = await otherAccount(store, t)
      const here = txRow(t, { import_ref: 'per-account' })
      const there = txRow(second, { import_ref: 'per-account' })
      const plain = [txRow(t), txRow(t), txRow(t)]
      expect(new Set((await store.hot.insertTransactions([here, there, ...plain])).ids())).toEqual(
        new Set([here.id, there.id, ...plain.map((r) => r.id)]),
      )
    })

    it('is all-or-nothing: a failing row (after more rows than one statement holds) leaves none of its call behind', async () => {
      const existing = txRow(t)
      await store.hot.insertTransactions([existing])
      const rows = Array.from({ length: 1500 }, (_, i) => txRow(t, { import_ref: `bulk-${i}` }))
      rows[1400] = { ...rows[1400], id: existing.id } // the primary key is taken: no ON CONFLICT covers it
      await expect(store.hot.insertTransactions(rows)).rejects.toThrow()
      expect(
        await existingIds(
          store,
          rows.map((r) => r.id).filter((id) => id !== existing.id),
        ),
      ).toEqual([])
      // The refs are free again: the same rows, without the bad one, go in whole.
      const good = rows.filter((_, i) => i !== 1400)
      expect((await store.hot.insertTransactions(good)).size).toBe(1499)
    })

    it('a failing call does not undo another made at the same time', async () => {
      const existing = txRow(t)
      await store.hot.insertTransactions([existing])
      const good = [txRow(t, { import_ref: 'side-1' }), txRow(t, { import_ref: 'side-2' })]
      const bad = [txRow(t, { import_ref: 'side-3' }), { ...txRow(t), id: existing.id }]
      const [ok, failed] = await Promise.allSettled([store.hot.insertTransactions(good), store.hot.insertTransactions(bad)])
      expect(ok.status === 'fulfilled' && ok.value.ids()).toEqual(good.map((r) => r.id))
      expect(failed.status).toBe('rejected')
      expect(
        await existingIds(
          store,
          [...good, bad[0]].map((r) => r.id),
        ),
      ).toEqual(good.map((r) => r.id).sort())
    })

    // The failure comes after the call's rows and audit entries are written (its event): on SQLite only
    // the group's savepoint around the call undoes them, the rows' own savepoint is released by then.
    it('a call failing after its rows and audit entries are written leaves nothing behind; the calls beside it stay whole', async () => {
      const entryCount = async () =>
        Number(
          (
            await store.db
              .selectFrom('audit_entries')
              .select((e) => e.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        )
      const entriesBefore = await entryCount()
      const calls = Array.from({ length: 5 }, (_, c) => [txRow(t, { import_ref: `late-${c}` }), txRow(t)])
      const results = await Promise.allSettled(
        calls.map((rows, c) =>
          store.hot.insertTransactions(rows, {
            event: () => {
              if (c === 2) throw new Error('event refused')
              return undefined
            },
          }),
        ),
      )
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'])
      const kept = calls.filter((_, c) => c !== 2).flat()
      expect(
        await existingIds(
          store,
          calls.flat().map((r) => r.id),
        ),
      ).toEqual(kept.map((r) => r.id).sort())
      // One rows_created entry a call that went in (verifyCreations: each entry's rows are there, each row counted once).
      expect((await entryCount()) - entriesBefore).toBe(4)
      expect((await verifyCreations(store.db, store.tx, t.companyId)).broken).toBeNull()
      expect(await verifyChain(store.db, t.companyId)).toMatchObject({ intact: true, broken: null })
      // The failed call's refs are free: the same rows go in.
      expect((await store.hot.insertTransactions(calls[2])).size).toBe(2)
    })

    // SQLite remembers that the ref index and the totals' trigger were there (schema-presence.ts): a
    // load of another process that sets them aside after that must be seen by this store's next write.
    it('a write after another process set the ref index and totals trigger aside for a load gives them back', async () => {
      const schemaHas = async (type: string, name: string) =>
        (await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_schema WHERE type = ${type} AND name = ${name}`.execute(store.db))
          .rows[0].n === 1
      const first = txRow(t, { import_ref: 'cookie-1' })
      await store.hot.insertTransactions([first])
      await store.hot.insertTransactions([txRow(t, { import_ref: 'cookie-0' })])
      const second = await database.open()
      try {
        const load = second.hot.bulkLoad({ rows: 20_000 })
        await load.insert([txRow(t, { import_ref: 'cookie-load' })])
        if (kind === 'sqlite') {
          expect(await schemaHas('index', 'transactions_import_ref')).toBe(false)
          expect(await schemaHas('trigger', 'report_totals_insert')).toBe(false)
        }
        const again = [txRow(t, { import_ref: 'cookie-1' }), txRow(t, { import_ref: 'cookie-2' })]
        expect((await store.hot.insertTransactions(again)).ids()).toEqual([again[1].id])
        if (kind === 'sqlite') {
          expect(await schemaHas('index', 'transactions_import_ref')).toBe(true)
          expect(await schemaHas('trigger', 'report_totals_insert')).toBe(true)
        }
        await load.end()
      } finally {
        await second.close()
      }
    })

    // Many rows go in differently: SQLite in chunks that bind a value shared by every row of the chunk
    // once (src/store/sqlite/row-inserts.ts), PostgreSQL by COPY (src/store/postgres/row-inserts.ts). Each row
    // must still get its own values, column by column.
    it('many rows at once, columns shared by some rows and not others: every row stored with its own values', async () => {
      const second = await otherAccount(store, t)
      const rows = Array.from({ length: 237 }, (_, i) =>
        txRow(i % 3 === 0 ? second : t, {
          import_ref: i % 5 === 0 ? null : `mixed-${i}`,
          transaction_date: `2026-10-${String((i % 28) + 1).padStart(2, '0')}`,
          // Text that a bulk format must escape (PostgreSQL takes many rows by COPY: src/store/postgres/row-inserts.ts).
          description: i === 5 ? 'Tab\there, a new\nline, a back\\slash \\N, a \r return, Zürich 東京' : i % 2 ? 'Same text' : `Row ${i}`,
          original_description: i === 6 ? '\\N' : 'OFFICE CHAIRS  #123',
          amount: -100 * (i + 1),
          base_amount: -100 * (i + 1),
          // Whole chunks of one value (rows 100 to 199), and values that differ inside a chunk.
          category: i >= 100 && i < 200 ? 'Travel' : i % 7 === 0 ? 'Meals' : null,
          merchant_name: i === 236 ? 'Last one' : null,
          ai_confidence_score: i % 4 === 0 ? 0.25 : null,
          status: i < 50 ? 'pending' : 'posted',
          is_reconciled: i % 11 === 0 ? 1 : 0,
        }),
      )
      expect(new Set((await store.hot.insertTransactions(rows)).ids())).toEqual(new Set(rows.map((r) => r.id)))
      const byId = await storedTransactions(
        store,
        rows.map((r) => r.id),
      )
      for (const row of rows) expect(byId.get(row.id)).toEqual({ ...row, statement_ref: null, seq: expect.any(Number) })
    })

    it('many rows at once, some of them there already and two alike: the ids of exactly the rows inserted', async () => {
      const before = Array.from({ length: 40 }, (_, i) => txRow(t, { import_ref: `many-${i * 5}` }))
      await store.hot.insertTransactions(before)
      // Refs many-0 .. many-249: every fifth below 200 exists; many-7 comes twice (the first is kept).
      const rows = Array.from({ length: 250 }, (_, i) => txRow(t, { import_ref: `many-${i}`, description: `new ${i}` }))
      const twin = txRow(t, { import_ref: 'many-7', description: 'twin' })
      rows.splice(120, 0, twin)
      const existed = new Set(before.map((r) => r.import_ref))
      const expected = rows.filter((r) => r !== twin && !existed.has(r.import_ref))
      expect(expected.length).toBe(210)
      const inserted = await store.hot.insertTransactions(rows)
      expect(new Set(inserted.ids())).toEqual(new Set(expected.map((r) => r.id)))
      expect(
        await existingIds(
          store,
          rows.map((r) => r.id),
        ),
      ).toEqual(expected.map((r) => r.id).sort())
    })

    // PostgreSQL first COPYs a batch straight into the table and, when the ref index refuses a row,
    // rolls back and goes again by the stage (src/store/postgres/row-inserts.ts): the rows before the one
    // refused must not stay, nor be missing.
    it('many rows at once, only the last one there already: every other row once, the last left out', async () => {
      const rows = Array.from({ length: 300 }, (_, i) => txRow(t, { import_ref: `tail-${i}` }))
      const last = { ...txRow(t), import_ref: 'tail-299' }
      await store.hot.insertTransactions([last])
      const inserted = await store.hot.insertTransactions(rows)
      expect(inserted.ids()).toEqual(rows.slice(0, 299).map((r) => r.id))
      expect(await existingIds(store, [...rows.map((r) => r.id), last.id])).toEqual(
        [...rows.slice(0, 299).map((r) => r.id), last.id].sort(),
      )
    })

    it('two calls at once with the same refs (one file imported twice at the same time): each ref stored once', async () => {
      const make = (tag: string) =>
        Array.from({ length: 400 }, (_, i) => txRow(t, { import_ref: `twice-${i}`, description: `${tag} ${i}` }))
      const [a, b] = [make('a'), make('b')]
      const [ia, ib] = await Promise.all([store.hot.insertTransactions(a), store.hot.insertTransactions(b)])
      // Between them every ref once: all of one call's rows, or some of each, never a ref twice.
      expect(ia.size + ib.size).toBe(400)
      const stored = await existingIds(
        store,
        [...a, ...b].map((r) => r.id),
      )
      expect(stored).toEqual([...ia.ids(), ...ib.ids()].sort())
      const went = new Set([...ia.ids(), ...ib.ids()])
      const refs = new Set([...a, ...b].filter((r) => went.has(r.id)).map((r) => r.import_ref))
      expect(refs.size).toBe(400)
    })

    // Calls of one turn share a write (SQLite's group commit; PostgreSQL's, postgres/grouped-inserts.ts);
    // two stores on one database are two processes: their groups queue on the chain's head.
    it('small calls at once from two stores on one database: each its own rows and event, the chain and creations intact', async () => {
      const second = await database.open()
      try {
        const event = (ids: string[]): NewEventRow => ({
          id: randomUUID(),
          company_id: t.companyId,
          type: 'test.created',
          object_id: ids[0] ?? null,
          actor: 'key:contract',
          created_at: '2026-11-20T10:00:00.000Z',
          data: JSON.stringify({ ids }),
          packed_ids: null,
        })
        const calls = [store, second].flatMap((s, w) =>
          Array.from({ length: 6 }, (_, i) => ({
            s,
            // Every store's first call takes the same ref, its second twice in the call: once in all.
            rows: i === 0 ? [txRow(t, { import_ref: 'turn-ref' })] : [txRow(t, { import_ref: `turn-${w}-${i}` }), txRow(t)],
          })),
        )
        const events = new Map<number, string>()
        const results = await Promise.all(
          calls.map((c, k) =>
            c.s.hot.insertTransactions(c.rows, {
              event: (ins) => {
                if (!ins.size) return undefined
                const e = event(ins.ids())
                events.set(k, e.id)
                return e
              },
            }),
          ),
        )
        const refWent = results.filter((r, k) => calls[k].rows[0].import_ref === 'turn-ref' && r.size === 1)
        expect(refWent).toHaveLength(1)
        results.forEach((r, k) => {
          if (calls[k].rows[0].import_ref !== 'turn-ref') expect(r.ids()).toEqual(calls[k].rows.map((x) => x.id))
        })
        const went = results.flatMap((r) => r.ids())
        expect(went).toHaveLength(1 + 10 * 2)
        expect(
          await existingIds(
            store,
            calls.flatMap((c) => c.rows.map((r) => r.id)),
          ),
        ).toEqual([...went].sort())
        // An event for each call that wrote, none for the one left out, each with its own rows.
        expect(events.size).toBe(11)
        const stored = await store.db
          .selectFrom('events')
          .select(['id', 'data'])
          .where('id', 'in', [...events.values()])
          .execute()
        expect(stored).toHaveLength(11)
        for (const [k, id] of events) expect(JSON.parse(stored.find((e) => e.id === id)!.data).ids).toEqual(results[k].ids())
        expect(await verifyChain(store.db, t.companyId)).toMatchObject({ intact: true, broken: null })
        expect((await verifyCreations(store.db, store.tx, t.companyId)).broken).toBeNull()
      } finally {
        await second.close()
      }
    })

    // PostgreSQL's group holds at most one INSERT's rows (500): the calls past it wait for the next group.
    it('small calls at once holding more rows than one statement: each call its own rows, the chain and creations intact', async () => {
      const calls = Array.from({ length: 8 }, (_, c) => Array.from({ length: 90 }, (_, i) => txRow(t, { import_ref: `wide-${c}-${i}` })))
      // The last call's first ref is the first call's: it stays the first call's, whichever group each goes in.
      calls[7][0] = { ...calls[7][0], import_ref: 'wide-0-0' }
      const results = await Promise.all(calls.map((rows) => store.hot.insertTransactions(rows)))
      expect(results.map((r) => r.ids())).toEqual(calls.map((rows, c) => rows.filter((_, i) => c !== 7 || i > 0).map((x) => x.id)))
      const all = calls.flat()
      expect(
        await existingIds(
          store,
          all.map((r) => r.id),
        ),
      ).toEqual(results.flatMap((r) => r.ids()).sort())
      expect(await verifyChain(store.db, t.companyId)).toMatchObject({ intact: true, broken: null })
      expect((await verifyCreations(store.db, store.tx, t.companyId)).broken).toBeNull()
    })

    it('no rows insert nothing and return an empty set', async () => {
      expect(new Set((await store.hot.insertTransactions([])).ids())).toEqual(new Set())
    })
  })

  describe('stagePendingRows', () => {
    /** A review's batch, running, as `tx import --review` makes it before it stages rows. */
    const runningReviewBatch = (id: string, fileName: string) =>
      store.db
        .insertInto('import_batches')
        .values({
          id,
          company_id: t.companyId,
          kind: 'csv',
          bank_account_id: t.accountId,
          statement_id: null,
          file_name: fileName,
          file_sha256: null,
          options: '{"review":true}',
          actor: 'user:owner',
          state: 'running',
          read_rows: null,
          created_at: '2026-11-20T10:00:00.000Z',
          finished_at: null,
          reverted_at: null,
          reverted_by: null,
        })
        .execute()

    it("makes the review's row with its first stage, keeps a line's first row, and leaves every other COMMIT synced", async () => {
      const id = crypto.randomUUID()
      await runningReviewBatch(id, 'staged.csv')
      const review = { batch_id: id, company_id: t.companyId, expires_at: '2026-11-27T10:00:00.000Z', checked_shape: 1 }
      await store.hot.stagePendingRows(review, [
        { line: 2, body: '{"a":1}' },
        { line: 3, body: '{"a":2}' },
      ])
      // A retry of line 3, and a second stage that would make the review's row again: the first of each stays.
      await store.hot.stagePendingRows({ ...review, expires_at: '2027-01-01T00:00:00.000Z', checked_shape: 2 }, [
        { line: 3, body: '{"a":"again"}' },
        { line: 4, body: '{"a":3}' },
      ])
      const rows = await store.db
        .selectFrom('import_pending_rows')
        .select(['line', 'body'])
        .where('batch_id', '=', id)
        .orderBy('line')
        .execute()
      expect(rows.map((r) => [Number(r.line), r.body])).toEqual([
        [2, '{"a":1}'],
        [3, '{"a":2}'],
        [4, '{"a":3}'],
      ])
      const kept = await store.db.selectFrom('import_reviews').select(['expires_at', 'checked_shape']).where('batch_id', '=', id).execute()
      expect(kept).toEqual([{ expires_at: review.expires_at, checked_shape: 1 }])
      if (store.dialect === 'sqlite') {
        const { rows: sync } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(store.db)
        expect(sync[0].synchronous).toBe(2)
      }
    })

    it('keeps every row of a stage longer than a statement holds, in line order, a retried line its first row', async () => {
      const id = crypto.randomUUID()
      await runningReviewBatch(id, 'long.csv')
      const review = { batch_id: id, company_id: t.companyId, expires_at: '2026-11-27T10:00:00.000Z', checked_shape: 1 }
      // Two whole statements and a rest (PENDING_ROWS_PER_STATEMENT rows a statement), then a retry
      // of lines 150-349 (across both) with new bodies and lines 351-400 new.
      const first = Array.from({ length: 2 * PENDING_ROWS_PER_STATEMENT + 49 }, (_, i) => ({ line: i + 2, body: `{"n":${i + 2}}` }))
      await store.hot.stagePendingRows(review, first)
      const again = Array.from({ length: 251 }, (_, i) => ({ line: i + 150, body: `{"again":${i + 150}}` }))
      await store.hot.stagePendingRows(review, again)
      const rows = await store.db
        .selectFrom('import_pending_rows')
        .select(['line', 'body'])
        .where('batch_id', '=', id)
        .orderBy('line')
        .execute()
      expect(rows.length).toBe(399)
      expect(rows.map((r) => [Number(r.line), r.body])).toEqual(
        Array.from({ length: 399 }, (_, i) => [i + 2, i + 2 <= 250 ? `{"n":${i + 2}}` : `{"again":${i + 2}}`]),
      )
    })
  })
})

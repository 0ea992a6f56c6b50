/**
 * A large revert reads its rows and works out their `delete` entries on a thread of its own
 * (src/domain/imports/revert-thread.ts) while its own thread deletes and writes. The entries must be
 * the bytes the revert on one thread chains (the same changes, hashes and order), in the same one
 * transaction: the two are run on the same database, each rolled back, and compared; a thread that
 * fails leaves everything as it was. The chain's write of entries chained elsewhere refuses entries
 * that do not follow its head, on both stores.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { Actor } from '../../src/domain/actor.js'
import { prepareRevert, revertIn } from '../../src/domain/imports/revert.js'
import { revertTuning } from '../../src/domain/imports/revert-rows.js'
import { entryHash } from '../../src/store/audit-chain.js'
import type { ChainedAuditEntryRow } from '../../src/store/schema.js'
import { createHarness, STORES, type Harness, type Tenant } from '../helpers/harness.js'

const ROWS = 1200
const TUNING = { ...revertTuning }

class Rollback extends Error {}

describe('a revert with its entries thread (SQLite)', () => {
  let h: Harness
  let a: Tenant
  let c: Client
  let actor: Actor

  beforeAll(async () => {
    h = await createHarness('embedded', 'sqlite')
    a = await h.tenant('Revert thread')
    c = h.client({ apiKey: a.key })
    actor = { companyId: a.companyId, kind: 'api_key', keyId: a.keyId, scopes: ['read', 'write', 'transactions'] }
  })
  afterAll(async () => {
    await h?.close()
  })
  afterEach(() => {
    Object.assign(revertTuning, TUNING)
    vi.restoreAllMocks()
  })

  async function importBatch(name: string): Promise<{ id: string; ids: string[] }> {
    const acct = (await c.accounts.create({ name, account_type: 'checking', currency_code: 'USD' })).id
    const b = await c.imports.create({ kind: 'csv', bank_account_id: acct, file_name: `${name}.csv` })
    // Two writes, rows with and without the optional fields, text that JSON escapes.
    for (let w = 0; w < 2; w++)
      await c.transactions.batchMinimal(
        Array.from({ length: ROWS / 2 }, (_, i) => ({
          bank_account_id: acct,
          transaction_date: `2026-0${1 + (i % 9)}-1${i % 10}`,
          description: i % 7 === 0 ? `Caf\u00e9 "quoted" \\ ${w}.${i}` : `Row ${w}.${i}`,
          amount: `${i % 2 ? '-' : ''}${(w * 1000 + i + 1) % 977}.${String(i % 100).padStart(2, '0')}`,
          import_ref: `${name}.${w}.${i}`,
          ...(i % 3 === 0 ? { category: 'Groceries', merchant_name: 'Shop \u2603', tags: ['a', 'b'] } : {}),
          ...(i % 5 === 0 ? { cash_flow_category: 'operations' as const, original_description: `raw ${i}` } : {}),
        })),
        { importBatch: b.id },
      )
    await c.imports.finish(b.id, { state: 'completed', read: ROWS })
    const ids = (await c.transactions.list({ bank_account_id: acct, limit: 5000 })).data.map((t) => t.id).sort()
    expect(ids).toHaveLength(ROWS)
    // One row changed by hand: its entry records the change's values, and include_edited reverts it.
    await c.transactions.update(ids[3], { description: 'By hand', category: 'Edited' })
    return { id: b.id, ids }
  }

  /** The revert inside a write transaction that is rolled back: the entries, head and event it wrote. */
  async function revertRolledBack(batch: string, threaded: boolean, now: Date) {
    revertTuning.threadRows = threaded ? 0 : Number.POSITIVE_INFINITY
    revertTuning.chunkRows = 100
    revertTuning.threadParts = 1
    const before = Number(
      (
        await h.store.db
          .selectFrom('audit_entries')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id ?? 0,
    )
    let got: unknown
    await prepareRevert(h.store, actor, batch)
    await expect(
      h.store.writeTransaction(async (trx) => {
        const { result } = await revertIn(h.store, trx, actor, batch, true, now)
        const entries = await trx
          .selectFrom('audit_entries')
          .select(['company_id', 'transaction_id', 'actor', 'action', 'changes', 'created_at', 'prev_hash', 'hash'])
          .where('id', '>', before)
          .orderBy('id')
          .execute()
        const head = await trx.selectFrom('audit_chain_heads').selectAll().where('company_id', '=', a.companyId).executeTakeFirst()
        const events = await trx.selectFrom('events').select(['data', 'packed_ids']).where('type', '=', 'import.reverted').execute()
        const left = await trx
          .selectFrom('transactions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
        got = { result, entries, head, events, left: Number(left.n) }
        throw new Rollback()
      }),
    ).rejects.toBeInstanceOf(Rollback)
    return got as { entries: ChainedAuditEntryRow[]; left: number }
  }

  it('chains the same entries, byte for byte, as the revert on one thread, in its one transaction', async () => {
    const b = await importBatch('same')
    const chained = vi.spyOn(h.store.writes, 'appendChained')
    const now = new Date('2026-11-27T12:34:56.789Z')
    const here = await revertRolledBack(b.id, false, now)
    expect(chained).not.toHaveBeenCalled()
    const there = await revertRolledBack(b.id, true, now)
    // The thread's entries went in parts, each following the head.
    expect(chained.mock.calls.length).toBeGreaterThanOrEqual(ROWS / 100)
    expect(Math.max(...chained.mock.calls.map(([, , rows]) => rows.length))).toBeLessThanOrEqual(100)

    expect(here.entries).toHaveLength(ROWS)
    expect(new Set(here.entries.map((e) => e.transaction_id))).toEqual(new Set(b.ids))
    expect(there).toEqual(here)
    // The entries hash as the chain says (not only alike: right).
    for (const e of there.entries) expect(entryHash(e.prev_hash, e)).toBe(e.hash)

    // Then for real, with the thread: the rows go, the chain is whole.
    revertTuning.threadRows = 0
    revertTuning.chunkRows = 100
    const r = await c.imports.revert(b.id, { include_edited: true })
    expect(r).toMatchObject({ dry_run: false, deleted: ROWS })
    expect(await h.store.db.selectFrom('transactions').select('id').where('id', 'in', h.store.tx.idParams(b.ids)).execute()).toEqual([])
    const v = await c.audit.verify()
    expect(v).toMatchObject({ intact: true })
  })

  it('leaves everything as it was when the thread fails', async () => {
    const b = await importBatch('fails')
    const entries = async () =>
      Number(
        (
          await h.store.db
            .selectFrom('audit_entries')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const count = await entries()
    revertTuning.threadRows = 0
    // A file the thread cannot open: it fails before its first part.
    const store = h.store as { committedFile?: string }
    const file = store.committedFile
    store.committedFile = `${file}.missing`
    try {
      await expect(c.imports.revert(b.id, { include_edited: true })).rejects.toThrow()
    } finally {
      store.committedFile = file
    }
    expect(await entries()).toBe(count)
    expect((await c.transactions.get(b.ids[0])).id).toBe(b.ids[0])
    expect((await c.imports.get(b.id)).state).toBe('completed')
    expect((await c.audit.verify()).intact).toBe(true)
  })
})

describe.each(STORES)('entries chained elsewhere on %s', (storeKind) => {
  let h: Harness
  let a: Tenant

  beforeAll(async () => {
    h = await createHarness('embedded', storeKind)
    a = await h.tenant('Chained elsewhere')
  })
  afterAll(async () => {
    await h?.close()
  })

  const entry = (prev: string, n: number): ChainedAuditEntryRow => {
    const e = {
      company_id: a.companyId,
      transaction_id: `t-${n}`,
      actor: 'key:x',
      action: 'delete',
      changes: `{"n":${n}}`,
      created_at: '2026-11-27T00:00:00.000Z',
    }
    return { ...e, prev_hash: prev, hash: entryHash(prev, e) }
  }

  it('go after the head, and are refused unless they follow it', async () => {
    await h.store.writeTransaction(async (trx) => {
      const head = await h.store.writes.chainHead(trx, a.companyId)
      const first = entry(head, 1)
      await h.store.writes.appendChained(trx, a.companyId, [first, entry(first.hash, 2)])
    })
    await expect(
      h.store.writeTransaction(async (trx) => {
        const head = await h.store.writes.chainHead(trx, a.companyId)
        // Chained from a head that is not the company's any more.
        await h.store.writes.appendChained(trx, a.companyId, [entry(`${head.slice(0, 63)}${head.endsWith('0') ? '1' : '0'}`, 3)])
      }),
    ).rejects.toThrow(/does not follow/)
    await expect(
      h.store.writeTransaction(async (trx) => {
        const head = await h.store.writes.chainHead(trx, a.companyId)
        const first = entry(head, 4)
        // The second does not follow the first.
        await h.store.writes.appendChained(trx, a.companyId, [first, entry(head, 5)])
      }),
    ).rejects.toThrow(/does not follow/)
    const c = h.client({ apiKey: a.key })
    const v = await c.audit.verify()
    expect(v).toMatchObject({ intact: true })
    expect(v.entries).toBeGreaterThanOrEqual(2)
  })
})

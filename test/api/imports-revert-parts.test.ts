/**
 * A revert reads and writes a batch a part at a time (src/domain/imports/revert-rows.ts): with parts
 * of 100 rows, a batch of 3,000 is never decoded, chained or held whole, and still goes all at once
 * with every entry, every id in its event and the chain intact. A revert that held every row (the
 * one that overflowed the stack from about 300,000 rows) decodes a whole write's rows at once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { revertTuning } from '../../src/domain/imports/revert-rows.js'
import { MAX_LISTED_ROWS } from '../../src/domain/imports/revert-schemas.js'
import { createHarness, STORES, type Harness, type Tenant } from '../helpers/harness.js'

const ROWS = 3000
const PART = 100

describe.each(STORES)('a revert by parts on %s', (storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness('embedded', storeKind)
    a = await h.tenant('Revert parts')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })
  afterEach(() => {
    revertTuning.chunkRows = 5000
    vi.restoreAllMocks()
  })

  it(`reverts ${ROWS} rows ${PART} at a time: no part decoded or chained whole, all deleted, every id in the event`, async () => {
    const acct = (await c.accounts.create({ name: 'Parts', account_type: 'checking', currency_code: 'USD' })).id
    const b = await c.imports.create({ kind: 'csv', bank_account_id: acct, file_name: 'rows.csv' })
    // Three writes, as an import of 3,000 rows sends them.
    for (let w = 0; w < 3; w++)
      await c.transactions.batchMinimal(
        Array.from({ length: ROWS / 3 }, (_, i) => ({
          bank_account_id: acct,
          transaction_date: `2026-0${1 + (i % 9)}-1${i % 10}`,
          description: `Row ${w}.${i}`,
          amount: `${(w * 1000 + i + 1) % 977}.25`,
          import_ref: `p.${w}.${i}`,
        })),
        { importBatch: b.id },
      )
    await c.imports.finish(b.id, { state: 'completed', read: ROWS })
    const ids = (await c.transactions.list({ bank_account_id: acct, limit: 5000 })).data.map((t) => t.id).sort()
    expect(ids).toHaveLength(ROWS)
    // One row changed by hand: named by the dry run, reverted with include_edited.
    await c.transactions.update(ids[7], { description: 'By hand' })

    revertTuning.chunkRows = PART
    const decoded: number[] = []
    const chained: number[] = []
    const decode = h.store.tx.decode.bind(h.store.tx)
    vi.spyOn(h.store.tx, 'decode').mockImplementation(async (db, rows) => {
      decoded.push(rows.length)
      return decode(db, rows)
    })
    const append = h.store.writes.appendAudit
    vi.spyOn(h.store.writes, 'appendAudit').mockImplementation(async (trx, rows, chunk) => {
      chained.push(rows.length)
      return append(trx, rows, chunk)
    })

    const dry = await c.imports.revert(b.id, { dry_run: true })
    expect(dry).toMatchObject({ deleted: ROWS, unpaired: 0 })
    expect(dry.refused.map((r) => [r.id, r.reason])).toEqual([[ids[7], 'edited']])
    expect(dry.transactions).toHaveLength(MAX_LISTED_ROWS)
    expect(new Set(dry.transactions.map((t) => t.id)).size).toBe(MAX_LISTED_ROWS)

    const r = await c.imports.revert(b.id, { include_edited: true })
    expect(r).toMatchObject({ dry_run: false, deleted: ROWS, refused: [] })
    expect((await c.transactions.list({ bank_account_id: acct, limit: 10 })).data).toEqual([])
    // Every part at most PART rows: decoded, and chained one entry a row.
    expect(Math.max(...decoded)).toBeLessThanOrEqual(PART)
    expect(Math.max(...chained)).toBeLessThanOrEqual(PART)
    expect(chained.reduce((s, n) => s + n, 0)).toBe(ROWS)

    const events = (await c.events.list({ type: 'import.reverted', limit: 10 })).data.filter((e) => e.object_id === b.id)
    expect(events).toHaveLength(1)
    expect((events[0].data.transaction_ids as string[]).slice().sort()).toEqual(ids)
    const v = await c.audit.verify()
    expect(v.intact).toBe(true)
    // The edited row's trail: its update, then the one delete entry the revert chained (its creation in it).
    const trail = await h.store.db.selectFrom('audit_entries').select('action').where('transaction_id', '=', ids[7]).orderBy('id').execute()
    expect(trail.map((e) => e.action)).toEqual(['update', 'delete'])
  })
})

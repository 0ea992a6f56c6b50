/**
 * A list page reads each transaction through src/store/shown-transactions.ts, not the codec's
 * `decode`: the two must make the same Transaction of every row, values stored as NULL for their
 * default (posted date, original description, updated at) and values of their own alike. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ListedTransaction, toListedTransaction, toTransaction } from '../../src/domain/transaction-rows.js'
import { decodeShown, shownColumns } from '../../src/store/shown-transactions.js'
import { createHarness, STORES, type Harness } from '../helpers/harness.js'

describe.each(STORES)('a page row as the codec reads it, on %s', (storeKind) => {
  let h: Harness
  let key: string

  beforeAll(async () => {
    h = await createHarness('embedded', storeKind, { own: true })
    const t = await h.tenant()
    key = t.key
    const c = h.client({ apiKey: t.key })
    const base = { bank_account_id: t.accountId, transaction_date: '2026-03-02', amount: '-12.34' }
    await c.transactions.create({ ...base, description: 'Defaults' })
    await c.transactions.create({
      ...base,
      description: 'Own values',
      posted_date: '2026-03-04',
      original_description: 'CARD 1234 OWN VALUES',
      category: 'Travel',
      tags: ['a', 'b'],
    })
    const edited = await c.transactions.create({ ...base, description: 'Edited', amount: '250.00' })
    await c.transactions.update(edited.id, { description: 'Edited later', category: 'Rent' })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('decodeShown of the page columns equals decode of the whole row, field for field', async () => {
    const db = h.store.db
    const shown = await db.selectFrom('transactions').select(shownColumns(h.store.tx)).orderBy('seq').execute()
    const whole = await h.store.tx.decode(db, await db.selectFrom('transactions').selectAll().orderBy('seq').execute())
    expect(shown).toHaveLength(3)
    const fromPage = await decodeShown(h.store.tx, db, shown, toTransaction)
    expect(fromPage).toEqual(whole.map(toTransaction))
    // The rows differ where the defaults are concerned, so the comparison covers both readings.
    expect(new Set(fromPage.map((t) => t.posted_date === t.transaction_date))).toEqual(new Set([true, false]))
    expect(new Set(fromPage.map((t) => t.updated_at === t.created_at))).toEqual(new Set([true, false]))
  })

  it('a listed transaction is its Transaction, field for field and in its JSON, with its minor units kept out of both', async () => {
    const db = h.store.db
    const shown = await db.selectFrom('transactions').select(shownColumns(h.store.tx)).orderBy('seq').execute()
    const plain = await decodeShown(h.store.tx, db, shown, toTransaction)
    const listed = await decodeShown(h.store.tx, db, shown, toListedTransaction)
    expect(listed).toEqual(plain)
    expect(JSON.stringify(listed)).toBe(JSON.stringify(plain))
    expect(listed.map((t) => ListedTransaction.minorUnits(t))).toEqual([-1234, -1234, 25000])
    // A copy (spread, JSON, structured clone) is a plain Transaction: its amount is read from the number.
    for (const copy of [{ ...listed[0] }, JSON.parse(JSON.stringify(listed[0])), structuredClone(listed[0])])
      expect(ListedTransaction.minorUnits(copy)).toBeUndefined()
  })

  it('a list page reaches the embedded client as listed transactions', async () => {
    const page = await h.client({ apiKey: key }).transactions.list({ limit: 5 })
    expect(page.data.map((t) => ListedTransaction.minorUnits(t)).sort()).toEqual([-1234, -1234, 25000].sort())
  })
})

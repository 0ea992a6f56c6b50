/**
 * The delivery pool (src/domain/webhooks/deliver.ts): endpoints worked independently
 * by two workers on two connections to one database (as two `finctl serve` processes), with small
 * claims and fewer places than endpoints, so that claims are given back and taken again often:
 * every endpoint still gets every event once, in commit order. Receivers on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow, recordEvents } from '../../src/domain/events.js'
import { type DeliverySettings, deliverDue, deliverySettings } from '../../src/domain/webhooks/deliver.js'
import { createWebhook } from '../../src/domain/webhooks/endpoints.js'
import type { Store } from '../../src/store/store.js'
import { startReceiver, type Receiver } from '../helpers/receiver.js'
import { freshDatabase, seedTenant, STORES, type TestDatabase } from '../store/fixtures.js'

describe.each(STORES)('the delivery pool on %s', (kind) => {
  let database: TestDatabase
  const stores: Store[] = []
  const receivers: Receiver[] = []

  beforeAll(async () => {
    database = await freshDatabase(kind)
    stores.push(await database.open(), await database.open())
  })
  afterAll(async () => {
    for (const r of receivers) await r.close()
    for (const s of stores) await s.close()
    await database?.remove()
  })

  it('two workers, claims of 3 events, 2 places for 4 endpoints: each event once per endpoint, in order', async () => {
    const [one, two] = stores
    const t = await seedTenant(one)
    const actor = { companyId: t.companyId, kind: 'jwt' as const, userId: 'u', scopes: ['webhooks' as const] }
    for (let i = 0; i < 4; i++) {
      const r = await startReceiver()
      receivers.push(r)
      await createWebhook(one, actor, { url: r.url, events: ['transaction.created'] }, new Date())
    }
    const ids: string[] = []
    for (let i = 0; i < 24; i++) {
      // One in four is of a type no endpoint takes: skipped, the cursor moving past it.
      const row = eventRow(
        'system:test',
        i % 4 === 3 ? 'bank_account.created' : 'transaction.created',
        null,
        { i },
        new Date(),
        t.companyId,
      )
      if (row.type === 'transaction.created') ids.push(row.id)
      await one.writeTransaction((trx) => recordEvents(one, trx, [row]))
    }
    const settings: DeliverySettings = { ...deliverySettings(), perClaim: 3, concurrency: 2 }
    const deadline = Date.now() + 30_000
    while (receivers.some((r) => r.received.length < ids.length) && Date.now() < deadline)
      await Promise.all([deliverDue(one, { worker: 'one', settings }), deliverDue(two, { worker: 'two', settings })])
    for (const r of receivers) expect(r.received.map((x) => x.event.id)).toEqual(ids)
  }, 120_000)
})

/**
 * The kept model (both transports, both stores): a second process on the same database takes the
 * model the first one trained instead of training again, and predicts exactly as the first; a
 * change of labels (a categorized row created, a category changed) makes the next use train anew.
 */
import { describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client.js'
import { generateDataset } from '../../src/domain/categorization/dataset.js'
import type { CreateTransactionRequest, Transaction } from '../../src/domain/schemas.js'
import { EMBEDDED_BASE_URL, openEmbedded } from '../../src/embedded/embedded.js'
import { createHarness, MATRIX } from '../helpers/harness.js'
import { labelledRequest } from '../helpers/labelled-requests.js'

const data = generateDataset({ size: 1000, seed: 23, start: '2026-01-01' })

async function batches(c: Client, items: CreateTransactionRequest[]): Promise<Transaction[]> {
  const out: Transaction[] = []
  for (let i = 0; i < items.length; i += 500) {
    const r = await c.transactions.batch(items.slice(i, i + 500))
    expect(r.errors).toEqual([])
    out.push(...r.created)
  }
  return out
}

describe.each(MATRIX)('the kept model over %s on %s', (kind, storeKind) => {
  it('a second process takes the trained model and predicts as the first; a label change makes it train again', async () => {
    const h = await createHarness(kind, storeKind)
    const other = await openEmbedded(h.database, { poolSize: 2 })
    try {
      const a = await h.tenant('Acme')
      const c1 = h.client({ apiKey: a.key })
      const c2 = new Client({ baseUrl: EMBEDDED_BASE_URL, fetch: other.fetch, apiKey: a.key, maxRetries: 0 })
      const labelled = await batches(
        c1,
        data.slice(0, 800).map((t) => labelledRequest(a.accountId, t, true)),
      )
      const trained = await c1.categorization.model()
      expect(trained.trained_on).toBe(800)
      // The other process has no model in memory: it takes the kept one (same training time), not a new training.
      const taken = await c2.categorization.model()
      expect(taken).toEqual(trained)

      // Rows categorized by the taken model, and suggestions of both processes: the same.
      const probes = await batches(
        c2,
        data.slice(800, 900).map((t) => labelledRequest(a.accountId, t, false)),
      )
      expect(probes.filter((t) => t.ai_confidence_score !== null)).toHaveLength(probes.length)
      for (const t of probes) {
        const s1 = await c1.categorization.suggestion(t.id)
        expect(await c2.categorization.suggestion(t.id)).toEqual(s1)
        expect(t.ai_confidence_score).toBe(s1?.confidence)
      }
      // Rows the model categorized are no labels: the version, and so the kept model, did not change.
      expect((await c2.categorization.model()).labels_version).toBe(trained.labels_version)

      // A categorized row created by the first process: the second trains anew on 801 labelled rows.
      await batches(c1, [labelledRequest(a.accountId, data[900], true)])
      const afterCreate = await c2.categorization.model()
      expect(afterCreate.labels_version).toBe(trained.labels_version + 1)
      expect(afterCreate.trained_on).toBe(801)
      expect(afterCreate.trained_at).not.toBe(trained.trained_at)

      // A category changed: the version moves again, and the model of the new version is trained, not taken.
      await c1.transactions.bulkUpdate({ transaction_ids: [labelled[0].id], updates: { category: 'Something else' } })
      const afterUpdate = await c2.categorization.model()
      expect(afterUpdate.labels_version).toBe(trained.labels_version + 2)
      expect(afterUpdate.trained_at).not.toBe(afterCreate.trained_at)
      expect(afterUpdate.labels).toBe(afterCreate.labels + 1)
    } finally {
      await other.close()
      await h.close()
    }
  }, 180_000)
})

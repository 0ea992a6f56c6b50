/**
 * No retraining inside a bulk import (both transports, both stores; docs/decisions.md): once an
 * import's categorized rows outnumber what the model was trained on, a later batch of the same
 * import is still predicted by that model, learning incrementally, not by a new training; the model
 * is trained anew after the import's last batch. The same batches sent without the bulk-load hint
 * are predicted by the retrained model, as before.
 */
import { describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { generateDataset, type LabelledTransaction } from '../../src/domain/categorization/dataset.js'
import type { Features } from '../../src/domain/categorization/features.js'
import { encodeLabel } from '../../src/domain/categorization/labels.js'
import { CategoryModel, type Example } from '../../src/domain/categorization/model.js'
import { createHarness, MATRIX } from '../helpers/harness.js'
import { labelledRequest } from '../helpers/labelled-requests.js'

const data = generateDataset({ size: 400, seed: 31, start: '2026-01-01' })
const TRAINED = data.slice(0, 60)
// More than TRAINED: the model's retraining falls due after this batch (settings.ts, retrainAfter).
const LEARNT = data.slice(60, 130)
const PREDICTED = data.slice(130, 230)
const LAST = data.slice(230, 240)

const featuresOf = (t: LabelledTransaction): Features => ({
  description: t.description,
  merchant_name: t.merchant_name,
  amount_minor: t.amount_minor,
  currency_exponent: 2,
})
const exampleOf = (t: LabelledTransaction): Example => ({
  ...featuresOf(t),
  label: encodeLabel({ category: t.category, accounting_category: null, cash_flow_category: null }),
})
// The service trains on the newest rows first.
const trained = (rows: LabelledTransaction[]) => CategoryModel.train([...rows].reverse().map(exampleOf))

/** Each predicted row's category and score, in the order sent. */
async function predictions(c: Client, ids: string[]): Promise<Array<[string | null, number | null]>> {
  const out: Array<[string | null, number | null]> = []
  for (const id of ids) {
    const t = await c.transactions.get(id)
    out.push([t.category, t.ai_confidence_score])
  }
  return out
}

function expected(model: CategoryModel): Array<[string | null, number | null]> {
  return PREDICTED.map((t) => {
    const p = model.predict(featuresOf(t))
    if (!p) return [null, null]
    return [p.score >= 0.9 ? p.label.split('\u001f')[0] : null, p.score]
  })
}

describe.each(MATRIX)('no retraining inside a bulk import over %s on %s', (kind, storeKind) => {
  it('a bulk import predicts with its model learning incrementally and retrains after its end; without the hint, at once', async () => {
    const h = await createHarness(kind, storeKind)
    try {
      const held = trained(TRAINED)
      for (const t of LEARNT) held.add(exampleOf(t))
      const retrained = trained([...TRAINED, ...LEARNT])
      const heldRows = expected(held)
      const retrainedRows = expected(retrained)
      // The test means something only if the two models disagree on some row.
      expect(heldRows).not.toEqual(retrainedRows)

      for (const bulk of [true, false]) {
        const a = await h.tenant(bulk ? 'Bulk' : 'Plain')
        const c = h.client({ apiKey: a.key })
        const r0 = await c.transactions.batch(TRAINED.map((t) => labelledRequest(a.accountId, t, true)))
        expect(r0.errors).toEqual([])
        const before = await c.categorization.model()
        expect(before.trained_on).toBe(TRAINED.length)

        const o = bulk ? { bulkRows: LEARNT.length + PREDICTED.length + LAST.length, importBatch: undefined } : {}
        const r1 = await c.transactions.batchMinimal(
          LEARNT.map((t) => labelledRequest(a.accountId, t, true)),
          o,
        )
        expect(r1.errors).toEqual([])
        const r2 = await c.transactions.batchMinimal(
          PREDICTED.map((t) => labelledRequest(a.accountId, t, false)),
          o,
        )
        expect(r2.errors).toEqual([])
        const got = await predictions(
          c,
          r2.created.map((x) => x.id),
        )
        expect(got).toEqual(bulk ? heldRows : retrainedRows)

        const r3 = await c.transactions.batchMinimal(
          LAST.map((t) => labelledRequest(a.accountId, t, true)),
          bulk ? { ...o, bulkEnd: true } : {},
        )
        expect(r3.errors).toEqual([])
        // After the bulk import: trained anew on every labelled row. Without the hint the model was
        // retrained before the predicted batch, and has learnt the last one incrementally since.
        const after = await c.categorization.model()
        expect(after.trained_on).toBe(TRAINED.length + LEARNT.length + (bulk ? LAST.length : 0))
        expect(after.trained_at).not.toBe(before.trained_at)
      }
    } finally {
      await h.close()
    }
  }, 180_000)
})

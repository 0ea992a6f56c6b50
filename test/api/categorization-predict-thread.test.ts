/**
 * A bulk import's predictions on the core's prediction thread (predict-thread.ts) are the core's own:
 * batch after batch, each predicted by the model as it stood when the batch came (the rows of the
 * batches before learnt, its own not yet), the same category and score on every row as a model
 * learning in this test gives. The thread must have followed every change the core made to its
 * model: a change not sent to it leaves the later batches predicted by an older model. A retraining
 * between two imports hands the thread the new model. Embedded transport (the core, and its thread,
 * in this process), both stores.
 */
import { describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { generateDataset, type LabelledTransaction } from '../../src/domain/categorization/dataset.js'
import type { Features } from '../../src/domain/categorization/features.js'
import { encodeLabel } from '../../src/domain/categorization/labels.js'
import { CategoryModel, type Example } from '../../src/domain/categorization/model.js'
import { MIN_THREAD_ROWS } from '../../src/domain/categorization/categorizer.js'
import { predictThreadOf } from '../../src/domain/categorization/predict-thread.js'
import { createHarness, STORES } from '../helpers/harness.js'
import { labelledRequest } from '../helpers/labelled-requests.js'

const data = generateDataset({ size: 3000, seed: 47, start: '2026-01-01' })
const TRAINED = data.slice(0, 400)
const BATCHES = 4
/** Each batch: rows labelled in the file (learnt once the batch is in), then rows for the model. */
const LABELLED = 60
const PREDICTED = MIN_THREAD_ROWS + 50
const batchRows = (k: number) => data.slice(400 + k * (LABELLED + PREDICTED), 400 + (k + 1) * (LABELLED + PREDICTED))

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

type Got = [string | null, number | null]

function expected(model: CategoryModel, rows: LabelledTransaction[]): Got[] {
  return rows.map((t) => {
    const p = model.predict(featuresOf(t))
    if (!p) return [null, null]
    return [p.score >= 0.9 ? p.label.split('\u001f')[0] : null, p.score]
  })
}

async function predictions(c: Client, ids: string[]): Promise<Got[]> {
  const out: Got[] = []
  for (const id of ids) {
    const t = await c.transactions.get(id)
    out.push([t.category, t.ai_confidence_score])
  }
  return out
}

/** One bulk import of BATCHES batches (one in flight): each batch's predicted rows as stored. */
async function bulkImport(c: Client, accountId: string, from: number): Promise<Got[][]> {
  const got: Got[][] = []
  for (let k = from; k < from + BATCHES; k++) {
    const rows = batchRows(k)
    const items = rows.map((t, i) => labelledRequest(accountId, t, i < LABELLED))
    const r = await c.transactions.batchMinimal(items, {
      bulkRows: BATCHES * rows.length,
      ...(k === from + BATCHES - 1 ? { bulkEnd: true } : {}),
    })
    expect(r.errors).toEqual([])
    // No errors and no duplicates: the rows created are the items, in order.
    const ids = r.created.slice(LABELLED).map((x) => x.id)
    got.push(await predictions(c, ids))
  }
  return got
}

describe.each(STORES)('a bulk import predicted on the core thread of %s', (storeKind) => {
  it('gives every row the category and score of the core model learning batch by batch, and follows a retraining', async () => {
    const h = await createHarness('embedded', storeKind)
    try {
      const a = await h.tenant('Thread')
      const c = h.client({ apiKey: a.key })
      expect((await c.transactions.batch(TRAINED.map((t) => labelledRequest(a.accountId, t, true)))).errors).toEqual([])
      expect((await c.categorization.model()).trained_on).toBe(TRAINED.length)

      // What the core's model predicts, learning each batch's labelled rows once the batch is in.
      const model = trained(TRAINED)
      const frozen = trained(TRAINED)
      const want: Got[][] = []
      const stale: Got[][] = []
      for (let k = 0; k < BATCHES; k++) {
        const rows = batchRows(k)
        want.push(expected(model, rows.slice(LABELLED)))
        stale.push(expected(frozen, rows.slice(LABELLED)))
        for (const t of rows.slice(0, LABELLED)) model.add(exampleOf(t))
      }
      // Meaningful only if learning changes some prediction: a thread that missed it would differ.
      expect(want.slice(1)).not.toEqual(stale.slice(1))

      const before = predictThreadOf(h.store)?.rowsPredicted ?? 0
      expect(await bulkImport(c, a.accountId, 0)).toEqual(want)
      // The thread predicted them (not the core's thread after a failure of it).
      expect(predictThreadOf(h.store)?.rowsPredicted).toBe(before + BATCHES * PREDICTED)

      // A retraining replaces the core's model: the next import's thread predicts with the new one.
      const status = await c.categorization.retrain()
      const retrained = trained([...TRAINED, ...Array.from({ length: BATCHES }, (_, k) => batchRows(k).slice(0, LABELLED)).flat()])
      expect(status.trained_on).toBe(TRAINED.length + BATCHES * LABELLED)
      const next: Got[][] = []
      for (let k = BATCHES; k < 2 * BATCHES; k++) {
        const rows = batchRows(k)
        next.push(expected(retrained, rows.slice(LABELLED)))
        for (const t of rows.slice(0, LABELLED)) retrained.add(exampleOf(t))
      }
      expect(await bulkImport(c, a.accountId, BATCHES)).toEqual(next)
    } finally {
      await h.close()
    }
  }, 120_000)
})

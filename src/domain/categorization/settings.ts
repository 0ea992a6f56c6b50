/**
 * A company's categorization settings and the version of its labelled data, and the per-process
 * cache of its model. Every change of labelled data moves `labels_version` on; the process that
 * made the change applies it to its cached model at once (incremental learning), and any other
 * process sees a newer version and retrains before its next prediction.
 *
 * This module is small on purpose: every transaction update loads it, while the model and the
 * rules engine load only when something is categorized (src/domain/categorization/categorizer.ts).
 */
import type { Kysely } from 'kysely'
import { incremented } from '../../store/fragments.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { exampleOf, type LabelledFields } from './labels.js'
import type { CategoryModel, Example } from './model.js'

export interface CategorizationSettings {
  auto_categorize: boolean
  /** Predictions scored at or above it fill the category; 0..1. */
  threshold: number
  labels_version: number
  updated_at: string | null
}

const DEFAULTS = { auto_categorize: true, threshold: 0.9 }

export async function getSettings(db: Kysely<Db>, companyId: string): Promise<CategorizationSettings> {
  const row = await db.selectFrom('categorization_settings').selectAll().where('company_id', '=', companyId).executeTakeFirst()
  if (!row) return { ...DEFAULTS, labels_version: 0, updated_at: null }
  return {
    auto_categorize: row.auto_categorize === 1,
    threshold: Number(row.threshold),
    labels_version: Number(row.labels_version),
    updated_at: row.updated_at,
  }
}

export async function updateSettings(
  store: Store,
  companyId: string,
  patch: { auto_categorize?: boolean; threshold?: number },
  now: Date,
): Promise<CategorizationSettings> {
  const ts = now.toISOString()
  const set: { auto_categorize?: number; threshold?: number; updated_at: string } = { updated_at: ts }
  if (patch.auto_categorize !== undefined) set.auto_categorize = patch.auto_categorize ? 1 : 0
  if (patch.threshold !== undefined) set.threshold = patch.threshold
  await store.db
    .insertInto('categorization_settings')
    .values({
      company_id: companyId,
      auto_categorize: (patch.auto_categorize ?? DEFAULTS.auto_categorize) ? 1 : 0,
      threshold: patch.threshold ?? DEFAULTS.threshold,
      labels_version: 0,
      updated_at: ts,
    })
    .onConflict((oc) => oc.column('company_id').doUpdateSet(set))
    .execute()
  return getSettings(store.db, companyId)
}

/** A company's model in this process, and the labels_version it has seen. */
export interface CachedModel {
  version: number
  model: CategoryModel
  trained_at: string
  trained_on: number
  /** Examples added or removed incrementally since the last full training. */
  changed: number
  /** The bulk import whose retraining falls due at its end, not inside it (`retrainAfter`). */
  heldFor?: string
}

/**
 * Incremental changes keep the counts exact but not the calibration, which was fitted on the
 * examples of the last full training. The map stays sound while the data keeps its character, so a
 * model is retrained (and recalibrated) before its next use only once the changes since its last
 * training outnumber what it was trained on: corrections stay incremental, and a large import of
 * categorized rows retrains it a few times (at 2x, 4x, ... its size), not once per batch.
 */
export function retrainAfter(trainedOn: number): number {
  return Math.max(50, trainedOn)
}

/** Whether the model's changes since its training call for a retraining before its next use. */
export function overdue(m: CachedModel): boolean {
  return m.changed > retrainAfter(m.trained_on)
}

const models = new WeakMap<Store, Map<string, CachedModel>>()

export function modelCache(store: Store): Map<string, CachedModel> {
  let m = models.get(store)
  if (!m) {
    m = new Map()
    models.set(store, m)
  }
  return m
}

/**
 * Record a change of the company's labelled data: moves labels_version on (inside `db`'s
 * transaction when given one) and returns a function that applies the change to this process's
 * model; call it once the change is committed. `untold` counts changed examples not given (a
 * large revert does not hold them all): the process's model is then dropped, to be trained again.
 * `holdFor` names the bulk import the change is part of: a retraining falling due then waits for
 * that import's end (`releaseHold`), so that one file's rows are predicted by one model learning
 * incrementally (docs/decisions.md, "No retraining inside a bulk import").
 */
export async function labelsChanged(
  db: Kysely<Db>,
  store: Store,
  companyId: string,
  removed: Example[],
  added: Example[],
  now: Date,
  untold = 0,
  holdFor?: string,
): Promise<() => void> {
  if (!removed.length && !added.length && !untold) return () => {}
  const row = await db
    .insertInto('categorization_settings')
    .values({
      company_id: companyId,
      auto_categorize: DEFAULTS.auto_categorize ? 1 : 0,
      threshold: DEFAULTS.threshold,
      labels_version: 1,
      updated_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ labels_version: incremented('categorization_settings.labels_version') }))
    .returning('labels_version')
    .executeTakeFirstOrThrow()
  const version = Number(row.labels_version)
  return () => {
    const cached = modelCache(store).get(companyId)
    if (!cached || cached.version !== version - 1) return // behind or absent: the next use retrains
    cached.changed += removed.length + added.length
    // Changes not given as examples (too many to hold) leave the model to be trained again.
    if (untold) {
      modelCache(store).delete(companyId)
      return
    }
    // Due for a retraining: at the next use, unless a bulk import holds it (already, or from now).
    if (overdue(cached) && cached.heldFor === undefined) {
      if (holdFor === undefined) {
        modelCache(store).delete(companyId)
        return
      }
      cached.heldFor = holdFor
    }
    for (const e of removed) cached.model.remove(e)
    for (const e of added) cached.model.add(e)
    cached.version = version
  }
}

/** A bulk import ended: the retraining it held falls due at the model's next use. */
export function releaseHold(store: Store, companyId: string, holdFor: string): void {
  const cached = modelCache(store).get(companyId)
  if (cached?.heldFor !== holdFor) return
  cached.heldFor = undefined
  if (overdue(cached)) modelCache(store).delete(companyId)
}

/** After rows were created (and committed): learn the labelled ones (`holdFor`: as labelsChanged). */
export async function learnCreated(store: Store, companyId: string, rows: LabelledFields[], now: Date, holdFor?: string): Promise<void> {
  const added: Example[] = []
  for (const r of rows) {
    const e = exampleOf(r)
    if (e) added.push(e)
  }
  ;(await labelsChanged(store.db, store, companyId, [], added, now, 0, holdFor))()
}

/**
 * Categorization of new transactions: a company's rules first, then its learned model.
 *
 * - Rows created by a batch (CSV import, seed) or a statement upload pass through `Categorizer.apply`
 *   before they are written. Rules fill the fields the row left empty (the first matching rule wins
 *   each field); a row still without a category gets the model's prediction and its calibrated
 *   `ai_confidence_score`. At or above the company's threshold the prediction fills category,
 *   accounting_category and cash_flow_category; below it the row stays uncategorized with the score
 *   kept, for `tx review`.
 * - The model learns from the company's labelled transactions: a category set by a person, a rule
 *   or the import file itself (`ai_confidence_score` null). The model's own predictions are never
 *   training data until someone accepts them (which clears the score).
 * - Each process keeps one model per company in memory. Every change of labelled data moves
 *   `labels_version` on in the database; the process that made the change applies it to its model
 *   at once (incremental), and any other process sees a newer version and retrains from the
 *   database before its next prediction. So several `finctl serve` processes never predict from a
 *   model that misses a correction made elsewhere for longer than one request.
 * - A full training is kept in the database with its labels_version (categorization_models): a
 *   process that needs the model at that version takes it instead of training (each `tx import`
 *   is a new process). Only full trainings are kept, so a kept model is the one training would make.
 */
import { countAll } from '../../store/fragments.js'
import type { NewTransactionRow, TransactionRow } from '../../store/transaction-codec.js'
import type { Store } from '../../store/store.js'
import { decodeLabel, exampleOf, featuresInto, featuresOf as features, type CategoryTriple, type ReusedFeatures } from './labels.js'
import { CategoryModel, type Example, type LabelScore, type Prediction } from './model.js'
import { decodeModel, encodeModel } from './model-snapshot.js'
import { applyRules, applyRulesInto, type CompiledRule, type RuleOutcome } from './rule-matcher.js'
import { getSettings, modelCache, overdue, type CachedModel } from './settings.js'
import { loadActiveRules } from './rules.js'
import { AppError } from '../../kernel/errors.js'
import { companyKey, findTransaction, toTransaction } from '../transaction-rows.js'

/** The most recent labelled transactions a model is trained on (newest first, by id). */
export const MAX_TRAINING_ROWS = 100_000

// ---- the model of each company, per process ----------------------------------------------------

const building = new WeakMap<Store, Map<string, Promise<CachedModel>>>()

async function train(store: Store, companyId: string, version: number): Promise<CachedModel> {
  const rows = await store.db
    .selectFrom('transactions')
    .select([
      'description',
      'merchant_name',
      'amount',
      'currency_code',
      'category',
      'accounting_category',
      'cash_flow_category',
      'ai_confidence_score',
    ])
    .where('company_key', '=', await companyKey(store, companyId))
    .where('category', 'is not', null)
    .where('ai_confidence_score', 'is', null)
    .orderBy('seq', 'desc')
    .limit(MAX_TRAINING_ROWS)
    .execute()
  // Each row is dropped once read: training's cross-validation (its peak) no longer holds them all.
  let trainedOn = 0
  function* examples(): Generator<Example> {
    for (let i = 0; i < rows.length; i++) {
      const e = exampleOf(rows[i])
      rows[i] = undefined as never
      if (!e) continue
      trainedOn++
      yield e
    }
    rows.length = 0
  }
  const model = CategoryModel.train(examples())
  const built = { version, model, trained_at: new Date().toISOString(), trained_on: trainedOn, changed: 0 }
  // Kept only if no label moved while the rows were read: then it is the model of `version`.
  if ((await getSettings(store.db, companyId)).labels_version === version) await keep(store, companyId, built)
  return built
}

async function keep(store: Store, companyId: string, m: CachedModel): Promise<void> {
  const row = { labels_version: m.version, trained_at: m.trained_at, trained_on: m.trained_on, model: encodeModel(m.model) }
  await store.db
    .insertInto('categorization_models')
    .values({ company_id: companyId, ...row })
    .onConflict((oc) => oc.column('company_id').doUpdateSet(row).where('categorization_models.labels_version', '<=', m.version))
    .execute()
}

/** The kept model of `version`, or a new training (kept in its turn). */
async function keptOrTrained(store: Store, companyId: string, version: number, force: boolean): Promise<CachedModel> {
  if (!force) {
    const kept = await store.db
      .selectFrom('categorization_models')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('labels_version', '=', version)
      .executeTakeFirst()
    const model = kept ? decodeModel(kept.model) : null
    if (kept && model) return { version, model, trained_at: kept.trained_at, trained_on: Number(kept.trained_on), changed: 0 }
  }
  return train(store, companyId, version)
}

/**
 * The company's model, retrained first when the database holds labels it has not seen, or when its
 * retraining fell due (`overdue`) and is not held for the bulk import `holdFor` names.
 */
export async function modelFor(store: Store, companyId: string, version?: number, force = false, holdFor?: string): Promise<CachedModel> {
  const v = version ?? (await getSettings(store.db, companyId)).labels_version
  const cache = modelCache(store)
  const have = cache.get(companyId)
  if (have && have.version === v && !force && (!overdue(have) || (holdFor !== undefined && have.heldFor === holdFor))) return have
  let b = building.get(store)
  if (!b) {
    b = new Map()
    building.set(store, b)
  }
  const pending = b.get(companyId)
  if (pending && !force) return pending
  const p = keptOrTrained(store, companyId, v, force).finally(() => b.delete(companyId))
  b.set(companyId, p)
  const built = await p
  // A newer version may have been applied incrementally while this one trained: keep the newer.
  const now = cache.get(companyId)
  if (!now || now.version <= built.version) cache.set(companyId, built)
  return cache.get(companyId) as CachedModel
}

// ---- categorizing new rows ---------------------------------------------------------------------

export interface Categorizer {
  /** Fill the empty category fields of new rows from rules, then the model (mutates the rows). */
  apply(rows: NewTransactionRow[]): void
}

const NO_CATEGORIZER: Categorizer = { apply() {} }

/**
 * Load what categorizing a company's new rows needs: settings, active rules and, when some of the
 * rows may need a prediction (`needModel`), the model. A file whose rows all bring their category
 * never loads (or retrains) the model: its rows only move labels_version on. `holdFor`: the bulk
 * import the rows are part of, whose retraining waits for its end (settings.ts, `labelsChanged`).
 */
export async function prepareCategorizer(store: Store, companyId: string, needModel = true, holdFor?: string): Promise<Categorizer> {
  const settings = await getSettings(store.db, companyId)
  const rules = await loadActiveRules(store.db, companyId)
  const cached = needModel && settings.auto_categorize ? await modelFor(store, companyId, settings.labels_version, false, holdFor) : null
  const model = cached && cached.model.labelCount > 0 ? cached.model : null
  if (!rules.length && !model) return NO_CATEGORIZER
  return rowCategorizer(rules, model, settings.threshold)
}

/** The categorizer of given rules, model and threshold (what `prepareCategorizer` loads). */
export function rowCategorizer(rules: CompiledRule[], model: CategoryModel | null, threshold: number): Categorizer {
  const scratch: Scratch = {
    label: '',
    score: 0,
    triples: new Map(),
    outcome: { add_tags: [], rule_ids: [] },
    features: { description: '', merchant_name: null, amount_minor: 0, currency_exponent: -1, currency: '' },
  }
  return {
    apply(rows) {
      for (const row of rows) categorizeRow(row, rules, model, threshold, scratch)
    },
  }
}

/**
 * One categorizer's scratch, filled anew for each row (an import's rows allocate none of it): the
 * prediction, the rules' outcome, the features; and its labels decoded once each.
 */
interface Scratch extends LabelScore {
  triples: Map<string, CategoryTriple>
  outcome: RuleOutcome
  features: ReusedFeatures
}

/** Whether any item of a create request comes without a category (so may need the model). */
export function anyUncategorized(items: readonly unknown[]): boolean {
  return items.some((i) => (i as { category?: unknown } | null)?.category == null)
}

function categorizeRow(row: NewTransactionRow, rules: CompiledRule[], model: CategoryModel | null, threshold: number, p: Scratch): void {
  if (rules.length) {
    const r = applyRulesInto(rules, row, p.outcome)
    if (r.category !== undefined && row.category == null) row.category = r.category
    if (r.accounting_category !== undefined && row.accounting_category == null) row.accounting_category = r.accounting_category
    if (r.cash_flow_category !== undefined && row.cash_flow_category == null) row.cash_flow_category = r.cash_flow_category
    if (r.merchant_name !== undefined && row.merchant_name == null) row.merchant_name = r.merchant_name
    if (r.add_tags.length) {
      const tags = JSON.parse(row.tags) as string[]
      row.tags = JSON.stringify([...new Set([...tags, ...r.add_tags])])
    }
  }
  if (row.category != null || !model) return
  if (!model.predictInto(featuresInto(row, p.features), p)) return
  row.ai_confidence_score = p.score
  if (p.score < threshold) return
  let t = p.triples.get(p.label)
  if (!t) {
    t = decodeLabel(p.label)
    p.triples.set(p.label, t)
  }
  row.category = t.category
  if (row.accounting_category == null) row.accounting_category = t.accounting_category
  if (row.cash_flow_category == null) row.cash_flow_category = t.cash_flow_category
}

// ---- suggestions and review ----------------------------------------------------------------------

export interface Suggestion {
  source: 'rule' | 'model'
  category: string
  accounting_category: string | null
  cash_flow_category: string | null
  /** The model's calibrated score; null for a rule. */
  confidence: number | null
  rule_ids: string[]
  /** The words that weighed most for the model's choice (token, weight in log-odds). */
  explanation: { token: string; weight: number }[]
}

export interface Suggester {
  suggest(row: TransactionRow): Suggestion | null
}

/** What rules, then the model, would set as the category of existing transactions. */
export async function suggester(store: Store, companyId: string, labelsVersion?: number): Promise<Suggester> {
  const rules = await loadActiveRules(store.db, companyId)
  const { model } = await modelFor(store, companyId, labelsVersion)
  return {
    suggest(row) {
      if (rules.length) {
        const r = applyRules(rules, row)
        if (r.category !== undefined) {
          return {
            source: 'rule',
            category: r.category,
            accounting_category: r.accounting_category ?? null,
            cash_flow_category: r.cash_flow_category ?? null,
            confidence: null,
            rule_ids: r.rule_ids,
            explanation: [],
          }
        }
      }
      const p: Prediction | null = model.labelCount > 0 ? model.predict(features(row)) : null
      if (!p) return null
      return { source: 'model', ...decodeLabel(p.label), confidence: p.score, rule_ids: [], explanation: p.explanation }
    },
  }
}

export async function suggestFor(store: Store, companyId: string, transactionId: string): Promise<Suggestion | null> {
  return (await suggester(store, companyId)).suggest(await findTransaction(store, companyId, transactionId))
}

export async function modelStatus(store: Store, companyId: string, retrain = false) {
  const settings = await getSettings(store.db, companyId)
  const m = await modelFor(store, companyId, settings.labels_version, retrain)
  return {
    auto_categorize: settings.auto_categorize,
    threshold: settings.threshold,
    labels_version: m.version,
    trained_at: m.trained_at,
    trained_on: m.trained_on,
    examples: m.model.exampleCount,
    labels: m.model.labelCount,
    vocabulary: m.model.vocabularySize,
    calibration: m.model.calibrationTable(),
  }
}

export interface ReviewQuery {
  limit: number
  cursor?: string
  /** Also list rows the model categorized with a score below this; default: the company's threshold. */
  below?: number
}

export interface ReviewItem {
  transaction: ReturnType<typeof toTransaction>
  suggestion: Suggestion | null
}

/**
 * Transactions that need a person: uncategorized ones (with or without a model score) and ones
 * the model categorized with a score below `below`, newest first (by seq: creation order), not void.
 */
export async function listReview(
  store: Store,
  companyId: string,
  q: ReviewQuery,
): Promise<{ data: ReviewItem[]; pagination: { limit: number; next_cursor: string | null; has_more: boolean; total: number } }> {
  const settings = await getSettings(store.db, companyId)
  const below = q.below ?? settings.threshold
  const base = store.db
    .selectFrom('transactions')
    .where('company_key', '=', await companyKey(store, companyId))
    .where('status', '!=', 'void')
    .where((eb) => eb.or([eb('category', 'is', null), eb('ai_confidence_score', '<', below)]))
  let page = base
    .selectAll()
    .orderBy('seq', 'desc')
    .limit(q.limit + 1)
  if (q.cursor) {
    const text = Buffer.from(q.cursor, 'base64url').toString('utf8')
    const seq = /^s\d{1,15}$/.test(text) ? Number(text.slice(1)) : Number.NaN
    if (!Number.isSafeInteger(seq))
      throw new AppError('validation_error', 'invalid cursor: pass the next_cursor of the previous page unchanged', {
        details: [{ path: 'cursor', message: 'is not a cursor of this list' }],
      })
    page = page.where('seq', '<', seq)
  }
  const [stored, count] = await Promise.all([page.execute(), base.select(countAll().as('n')).executeTakeFirstOrThrow()])
  const rows = await store.tx.decode(store.db, stored)
  const more = rows.length > q.limit
  const kept = more ? rows.slice(0, q.limit) : rows
  const s = await suggester(store, companyId, settings.labels_version)
  return {
    data: kept.map((r) => ({ transaction: toTransaction(r), suggestion: s.suggest(r) })),
    pagination: {
      limit: q.limit,
      next_cursor: more ? Buffer.from(`s${kept[kept.length - 1].seq}`).toString('base64url') : null,
      has_more: more,
      total: Number(count.n),
    },
  }
}

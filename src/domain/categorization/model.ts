/** The category model: multinomial naive Bayes counts of tokens per label, training, incremental learning and prediction. */

/*
 * Why naive Bayes: bank lines are short bags of very telling words (a merchant, a channel prefix,
 * a tax office...). NB learns from counts alone, so training is one pass, a correction is
 * "subtract the old counts, add the new" (exact incremental learning, no retraining), predicting
 * is a few hundred additions, and it needs no dependency. Its weakness is confidence: it treats
 * overlapping tokens ("AMAZON", "m:amazon", "amazon com") as independent evidence, so its
 * posteriors are far too sure of themselves (0.99999 for a coin toss between office supplies and
 * equipment).
 *
 * So its scores are calibrated: at train time it estimates how often it is right as a function of
 * its raw posterior, on predictions it makes for rows it has not seen. k-fold cross-validation is
 * cheap here: for each fold it subtracts the fold's counts from the full counts, predicts the fold,
 * and adds the counts back (no retraining; the counts end bit-for-bit as they were). Those held-out
 * (log-odds, right?) pairs are turned into a conservative monotone map by ./calibration.ts. The
 * held-out models see a fifth fewer rows than the final one, which errs on the safe side.
 * Contract (tested in test/domain/categorize-eval.test.ts): on held-out data, of the predictions
 * scored >= 0.9, at least 90% are right (what it measured, and its speed and memory: docs/performance.md).
 *
 * What it counts of a row is in ./features.ts. Memory is two token x label tables (int32 +
 * float64), one row of label slots per vocabulary slot.
 */
import { mulberry32 } from '../../kernel/random.js'
import {
  calibrationBins,
  fitCalibration,
  scoreOf,
  quickScore,
  scoreTable,
  type CalibrationBin,
  type CalibrationStep,
  type HeldOutPoint,
  type ScoreTable,
} from './calibration.js'
import { tokens, type Features } from './features.js'
import { labelSums } from './label-sums.js'
import type { Example, LabelScore, ModelState, Prediction, TrainOptions } from './model-types.js'
import { TokenIndex } from './token-index.js'

export type { Example, LabelScore, ModelState, Prediction, TrainOptions } from './model-types.js'

// Tuning

/** Lidstone smoothing of token counts. */
const ALPHA = 0.1
/** Laplace smoothing of label priors. */
const PRIOR_ALPHA = 1
/** Below this many examples no calibration is fitted. */
const MIN_CALIBRATION_EXAMPLES = 50
const EXPLANATION_SIZE = 5
const LOG_ALPHA = Math.log(ALPHA)
const floor3 = (x: number) => Math.floor(x * 1000) / 1000

const positiveInt = (value: number | undefined, fallback: number) =>
  value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback

// The model

interface Encoded {
  label: number
  ids: Int32Array
}

export class CategoryModel {
  private readonly labelIds = new Map<string, number>()
  private readonly labels: string[] = []
  /** Row stride of the token x label tables (grows by doubling). */
  private labelCapacity = 32
  private tokenCapacity = 1024
  /** Examples per label, and token occurrences per label (the NB denominators). */
  private docs = new Float64Array(this.labelCapacity)
  private tokenTotals = new Float64Array(this.labelCapacity)
  private readonly index = new TokenIndex()
  /** Token x label tables, flat: count, and the cached log(count + ALPHA). */
  private counts = new Int32Array(this.tokenCapacity * this.labelCapacity)
  private logCounts = new Float64Array(this.tokenCapacity * this.labelCapacity).fill(LOG_ALPHA)
  /** Per token: occurrences over all labels (a token at 0 is out of the vocabulary). */
  private tokenSums = new Int32Array(this.tokenCapacity)
  private vocabulary = 0
  private examples = 0
  private activeLabels = 0
  /** logPrior and logDenominator per label, refreshed lazily after counts change. */
  private stale = true
  private logPrior = new Float64Array(this.labelCapacity)
  private logDenominator = new Float64Array(this.labelCapacity)
  private scratch = new Float64Array(this.labelCapacity)
  /** A row's ids in the vocabulary (`known`) and their rows' offsets in the tables (`bases`): typed, so a row allocates nothing. */
  private known = new Int32Array(64)
  private bases = new Int32Array(64)
  private calibration: CalibrationStep[] | null = null
  private scores: ScoreTable | null = null
  /** What `score` found: top label, runner-up, posterior and log-odds of the top (exact even where `raw` rounds to 1). */
  private top = -1
  private second = -1
  private raw = 0
  private logit = 0

  /** Train on examples (in their order: same examples and seed, same model), then fit the calibration. */
  static train(examples: Iterable<Example>, opts: TrainOptions = {}): CategoryModel {
    const model = new CategoryModel()
    const encoded: Encoded[] = []
    for (const e of examples) encoded.push(model.addEncoded(model.encode(e, true)))
    if ((opts.calibrate ?? true) && encoded.length >= MIN_CALIBRATION_EXAMPLES) {
      const steps = model.crossValidate(
        encoded,
        positiveInt(opts.folds, 5),
        opts.seed ?? 1,
        positiveInt(opts.maxCalibrationSamples, 20_000),
      )
      model.setCalibration(steps.length > 0 ? steps : null)
    }
    return model
  }

  /** Learn one example; counts change at once (the calibration map stays until the next `train`). */
  add(e: Example): void {
    this.addEncoded(this.encode(e, true))
  }

  /** Forget an earlier `add` (a correction is remove(old) + add(new)); counts never go negative. */
  remove(e: Example): void {
    const label = this.labelIds.get(e.label)
    if (label === undefined || this.docs[label] === 0) return
    this.removeEncoded(this.encode(e, false))
  }

  /**
   * The most likely label with a calibrated score, or null while the model knows no label.
   * `explain: false` leaves the explanation empty (an import has no one to show it to).
   */
  predict(f: Features, o: { explain?: boolean } = {}): Prediction | null {
    if (this.activeLabels === 0) return null
    const k = this.knownIds(f)
    this.score(k)
    return {
      label: this.labels[this.top],
      score: floor3(scoreOf(this.scores, this.logit, this.raw)),
      raw: this.raw,
      explanation: o.explain === false ? [] : this.explain(Array.from(this.known.subarray(0, k)), this.top, this.second),
    }
  }

  /** `predict(f, { explain: false })`'s label and score, written into `out` (an import's path: no object a row); false for no prediction. */
  predictInto(f: Features, out: LabelScore): boolean {
    if (this.activeLabels === 0) return false
    this.joint(this.knownIds(f))
    let score = quickScore(this.scores, this.scratch, this.labels.length, this.top, this.second)
    if (Number.isNaN(score)) {
      this.posterior()
      score = scoreOf(this.scores, this.logit, this.raw)
    }
    out.label = this.labels[this.top]
    out.score = floor3(score)
    return true
  }

  get exampleCount(): number {
    return this.examples
  }

  get labelCount(): number {
    return this.activeLabels
  }

  get vocabularySize(): number {
    return this.vocabulary
  }

  /** What the model holds, as ./model-snapshot.ts stores it (counts by token, `labels` wide). */
  toState(): ModelState {
    const L = this.labels.length
    const counts = new Int32Array(this.index.size * L)
    for (let t = 0; t < this.index.size; t++) counts.set(this.counts.subarray(t * this.labelCapacity, t * this.labelCapacity + L), t * L)
    const tokenNames = Array.from({ length: this.index.size }, (_, t) => this.index.name(t))
    const calibration = this.calibration?.map((c) => ({ ...c })) ?? null
    return { labels: [...this.labels], tokens: tokenNames, counts, docs: this.docs.slice(0, L), examples: this.examples, calibration }
  }

  /** The model a state was taken of: the same counts, ids and calibration, so the same predictions. */
  static fromState(s: ModelState): CategoryModel {
    const m = new CategoryModel()
    for (const label of s.labels) m.labelId(label)
    for (const t of s.tokens) m.tokenId(t)
    const L = s.labels.length
    for (let t = 0; t < s.tokens.length; t++)
      for (let l = 0; l < L; l++) {
        const c = s.counts[t * L + l]
        if (c === 0) continue
        const at = t * m.labelCapacity + l
        m.counts[at] = c
        m.logCounts[at] = Math.log(c + ALPHA)
        if (m.tokenSums[t] === 0) m.vocabulary++
        m.tokenSums[t] += c
        m.tokenTotals[l] += c
      }
    m.docs.set(s.docs)
    for (let l = 0; l < L; l++) if (s.docs[l] > 0) m.activeLabels++
    m.examples = s.examples
    m.setCalibration(s.calibration)
    return m
  }

  private setCalibration(steps: CalibrationStep[] | null): void {
    this.calibration = steps
    this.scores = scoreTable(steps)
  }

  /** The held-out table the calibration was fitted on (the isotonic steps); empty when uncalibrated. */
  calibrationTable(): CalibrationBin[] {
    return calibrationBins(this.calibration)
  }

  // -------------------------------------------------------------------------------------------
  // Counts

  /** Label and token ids of an example; with `create`, unknown labels and tokens get new ids. */
  private encode(e: Example, create: boolean): Encoded {
    const label = create ? this.labelId(e.label) : this.labelIds.get(e.label)!
    // The ids of the tokens held, found without their strings; only a row with new tokens builds them.
    const n = this.index.find(e)
    if (create && this.index.missed > 0) return { label, ids: Int32Array.from(tokens(e), (t) => this.tokenId(t)) }
    return { label, ids: this.index.found.slice(0, n) }
  }

  private addEncoded(e: Encoded): Encoded {
    const l = e.label
    const stride = this.labelCapacity
    for (const id of e.ids) {
      const at = id * stride + l
      this.logCounts[at] = Math.log(++this.counts[at] + ALPHA)
      if (this.tokenSums[id]++ === 0) this.vocabulary++
    }
    this.tokenTotals[l] += e.ids.length
    if (this.docs[l]++ === 0) this.activeLabels++
    this.examples++
    this.stale = true
    return e
  }

  private removeEncoded(e: Encoded): void {
    const l = e.label
    const stride = this.labelCapacity
    let removed = 0
    for (const id of e.ids) {
      const at = id * stride + l
      if (this.counts[at] === 0) continue
      this.logCounts[at] = Math.log(--this.counts[at] + ALPHA)
      removed++
      if (--this.tokenSums[id] === 0) this.vocabulary--
    }
    this.tokenTotals[l] -= removed
    if (--this.docs[l] === 0) this.activeLabels--
    this.examples--
    this.stale = true
  }

  private labelId(label: string): number {
    let id = this.labelIds.get(label)
    if (id !== undefined) return id
    id = this.labels.length
    if (id === this.labelCapacity) this.resize(this.tokenCapacity, this.labelCapacity * 2)
    this.labelIds.set(label, id)
    this.labels.push(label)
    return id
  }

  private tokenId(token: string): number {
    const id = this.index.id(token, true)
    if (id === this.tokenCapacity) this.resize(this.tokenCapacity * 2, this.labelCapacity)
    return id
  }

  /** Re-lay the token x label tables for new capacities (amortised by doubling). */
  private resize(tokenCapacity: number, labelCapacity: number): void {
    const counts = new Int32Array(tokenCapacity * labelCapacity)
    const logCounts = new Float64Array(tokenCapacity * labelCapacity).fill(LOG_ALPHA)
    const oldStride = this.labelCapacity
    for (let t = 0; t < Math.min(this.index.size, this.tokenCapacity); t++) {
      counts.set(this.counts.subarray(t * oldStride, (t + 1) * oldStride), t * labelCapacity)
      logCounts.set(this.logCounts.subarray(t * oldStride, (t + 1) * oldStride), t * labelCapacity)
    }
    this.counts = counts
    this.logCounts = logCounts
    const grow = (old: Float64Array) => {
      const next = new Float64Array(labelCapacity)
      next.set(old)
      return next
    }
    if (labelCapacity !== this.labelCapacity) {
      this.docs = grow(this.docs)
      this.tokenTotals = grow(this.tokenTotals)
      this.logPrior = grow(this.logPrior)
      this.logDenominator = grow(this.logDenominator)
      this.scratch = new Float64Array(labelCapacity)
    }
    const sums = new Int32Array(tokenCapacity)
    sums.set(this.tokenSums)
    this.tokenSums = sums
    this.tokenCapacity = tokenCapacity
    this.labelCapacity = labelCapacity
  }

  /** Per-label log prior and log denominator; depend on totals and the vocabulary size. */
  private refresh(): void {
    const logTotal = Math.log(this.examples + PRIOR_ALPHA * this.activeLabels)
    for (let l = 0; l < this.labels.length; l++) {
      const active = this.docs[l] > 0
      this.logPrior[l] = active ? Math.log(this.docs[l] + PRIOR_ALPHA) - logTotal : -Infinity
      this.logDenominator[l] = Math.log(this.tokenTotals[l] + ALPHA * this.vocabulary)
    }
    this.stale = false
  }

  // -------------------------------------------------------------------------------------------
  // Scoring

  /** Ids of the tokens in the current vocabulary into `known` (unseen tokens carry no evidence and are skipped); returns how many. */
  private knownIds(f: Features): number {
    const n = this.index.find(f)
    return this.inVocabulary(this.index.found, n)
  }

  private inVocabulary(ids: Int32Array, n: number): number {
    if (this.known.length < n) this.known = new Int32Array(n)
    const known = this.known
    let k = 0
    for (let i = 0; i < n; i++) if (this.tokenSums[ids[i]] > 0) known[k++] = ids[i]
    return k
  }

  /** Log joint per label into `scratch`; top label, runner-up, posterior and log-odds of the top into their fields. */
  private score(k: number): void {
    this.joint(k)
    this.posterior()
  }

  /** Log joint per label, of the `k` ids in `known`, into `scratch` (./label-sums.ts); top label and runner-up into their fields. */
  private joint(k: number): void {
    if (this.stale) this.refresh()
    const n = this.labels.length
    const s = this.scratch
    if (this.bases.length < k) this.bases = new Int32Array(k)
    for (let i = 0; i < k; i++) this.bases[i] = this.known[i] * this.labelCapacity
    labelSums(s, n, this.logPrior, this.logDenominator, this.logCounts, this.bases, k)
    // Higher log joint first; exact ties by label text, so ids (insertion order) never decide.
    const labels = this.labels
    let top = -1
    let second = -1
    let topSum = 0
    let secondSum = 0
    for (let l = 0; l < n; l++) {
      const x = s[l]
      if (x === -Infinity) continue
      if (top < 0 || x > topSum || (x === topSum && labels[l] < labels[top])) {
        second = top
        secondSum = topSum
        top = l
        topSum = x
      } else if (second < 0 || x > secondSum || (x === secondSum && labels[l] < labels[second])) {
        second = l
        secondSum = x
      }
    }
    this.top = top
    this.second = second
  }

  /** Posterior and log-odds of the top label, from `joint`'s sums. */
  private posterior(): void {
    const s = this.scratch
    const top = this.top
    const best = s[top]
    let rest = 0
    for (let l = 0; l < this.labels.length; l++) if (l !== top) rest += Math.exp(s[l] - best)
    this.raw = 1 / (1 + rest)
    this.logit = rest === 0 ? Infinity : -Math.log(rest)
  }

  /**
   * Tokens by their log-likelihood ratio, top label vs runner-up (vs a uniform vocabulary when
   * there is no runner-up); a repeated token counts once per occurrence. Strongest 5, positive only.
   */
  private explain(ids: number[], top: number, second: number): { token: string; weight: number }[] {
    const stride = this.labelCapacity
    const against = second >= 0 ? this.logDenominator[second] : 0
    const uniform = -Math.log(Math.max(1, this.vocabulary))
    const best: { id: number; weight: number }[] = []
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]
      if (ids.indexOf(id) < i) continue // counted with its first occurrence
      let times = 1
      for (let j = i + 1; j < ids.length; j++) if (ids[j] === id) times++
      const forTop = this.logCounts[id * stride + top] - this.logDenominator[top]
      const forOther = second >= 0 ? this.logCounts[id * stride + second] - against : uniform
      const weight = times * (forTop - forOther)
      if (!(weight > 0)) continue
      let at = best.length
      while (
        at > 0 &&
        (best[at - 1].weight < weight || (best[at - 1].weight === weight && this.index.name(best[at - 1].id) > this.index.name(id)))
      )
        at--
      if (at < EXPLANATION_SIZE) {
        best.splice(at, 0, { id, weight })
        if (best.length > EXPLANATION_SIZE) best.pop()
      }
    }
    return best.map((b) => ({ token: this.index.name(b.id), weight: Math.round(b.weight * 1000) / 1000 }))
  }

  // -------------------------------------------------------------------------------------------
  // Held-out calibration

  /**
   * k-fold held-out log-odds on a seeded sample of the training examples: each fold is subtracted
   * from the full counts, predicted, and added back (the counts end exactly as they started).
   */
  private crossValidate(encoded: Encoded[], folds: number, seed: number, maxSamples: number): CalibrationStep[] {
    const order = encoded.map((_, i) => i)
    const rng = mulberry32(seed)
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1))
      const t = order[i]
      order[i] = order[j]
      order[j] = t
    }
    const sample = order.slice(0, Math.max(0, Math.min(maxSamples, order.length)))
    const k = Math.max(2, Math.min(Math.floor(folds), sample.length))
    const points: HeldOutPoint[] = []
    for (let f = 0; f < k; f++) {
      const fold = sample.filter((_, p) => p % k === f).map((i) => encoded[i])
      for (const e of fold) this.removeEncoded(e)
      for (const e of fold) {
        if (this.activeLabels === 0) break
        this.score(this.inVocabulary(e.ids, e.ids.length))
        points.push({ logit: this.logit, correct: this.top === e.label })
      }
      for (const e of fold) this.addEncoded(e)
    }
    return fitCalibration(points)
  }
}

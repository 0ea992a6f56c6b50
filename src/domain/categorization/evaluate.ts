/**
 * Evaluation of the category model on generated data (./dataset.ts): a seeded held-out split
 * (test rows are never seen in training), the label being the category triple, then top-1
 * accuracy, the coverage and precision at an auto-accept threshold, a reliability table of the
 * calibrated scores with its expected calibration error, and timings.
 *
 * Scores are conservative lower bounds by design, so a reliability table whose accuracy sits
 * above its mean score (and a non-zero ECE) is expected; the contract is the other direction:
 * among rows scored >= threshold, at least `threshold` of them are right.
 */
import { mulberry32 } from '../../kernel/random.js'
import { monotonicMs } from '../../kernel/clock.js'
import { generateDataset, type LabelledTransaction } from './dataset.js'
import { CategoryModel, type Example } from './model.js'

export interface EvaluationReport {
  size: number
  seed: number
  train: number
  test: number
  threshold: number
  /** Top-1 accuracy on all test rows. */
  accuracy: number
  /** Share of test rows scored >= threshold. */
  coverage: number
  /** Accuracy among the test rows scored >= threshold (0 when none is). */
  precision_at_threshold: number
  expected_calibration_error: number
  calibration: { from: number; to: number; count: number; mean_score: number; accuracy: number }[]
  train_ms: number
  predict_us_per_row: number
}

export interface EvaluateOptions {
  size?: number
  seed?: number
  testFraction?: number
  threshold?: number
}

/** The model's label for a row: the category triple. */
export function labelOf(row: Pick<LabelledTransaction, 'category' | 'accounting_category' | 'cash_flow_category'>): string {
  return `${row.category}|${row.accounting_category}|${row.cash_flow_category}`
}

export function toExample(row: LabelledTransaction): Example {
  return {
    description: row.description,
    merchant_name: row.merchant_name,
    amount_minor: row.amount_minor,
    currency_exponent: 2,
    label: labelOf(row),
  }
}

/** Deterministic split: a seeded shuffle, the first `testFraction` of it is the test set. */
export function splitRows<T>(rows: T[], seed: number, testFraction: number): { train: T[]; test: T[] } {
  const order = rows.map((_, i) => i)
  const rng = mulberry32(seed ^ 0x7e57_5eed)
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1))
    const t = order[i]
    order[i] = order[j]
    order[j] = t
  }
  const testCount = Math.round(rows.length * testFraction)
  const isTest = new Uint8Array(rows.length)
  for (let p = 0; p < testCount; p++) isTest[order[p]] = 1
  // Both sides keep the generator's (date) order.
  return { train: rows.filter((_, i) => !isTest[i]), test: rows.filter((_, i) => isTest[i] === 1) }
}

const BINS = 10
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits

export function evaluate(opts: EvaluateOptions = {}): EvaluationReport {
  const size = opts.size ?? 20_000
  const seed = opts.seed ?? 1
  const testFraction = opts.testFraction ?? 0.2
  const threshold = opts.threshold ?? 0.9
  if (!(testFraction > 0 && testFraction < 1)) throw new RangeError('testFraction must be in (0, 1)')

  const { train, test } = splitRows(generateDataset({ size, seed }), seed, testFraction)
  const t0 = monotonicMs()
  const model = CategoryModel.train(train.map(toExample), { seed })
  const trainMs = monotonicMs() - t0

  const features = test.map(toExample)
  // Warm the JIT on a few rows first, so the timing is the steady per-row cost.
  for (let i = 0; i < Math.min(200, features.length); i++) model.predict(features[i])
  const t1 = monotonicMs()
  const predictions = features.map((f) => model.predict(f))
  const predictUs = test.length > 0 ? ((monotonicMs() - t1) * 1000) / test.length : 0

  const bins = Array.from({ length: BINS }, (_, b) => ({ from: b / BINS, to: (b + 1) / BINS, count: 0, scoreSum: 0, correct: 0 }))
  let correct = 0
  let covered = 0
  let coveredCorrect = 0
  predictions.forEach((p, i) => {
    const right = p !== null && p.label === features[i].label
    const score = p?.score ?? 0
    if (right) correct++
    if (score >= threshold) {
      covered++
      if (right) coveredCorrect++
    }
    const bin = bins[Math.min(BINS - 1, Math.floor(score * BINS))]
    bin.count++
    bin.scoreSum += score
    if (right) bin.correct++
  })

  const n = test.length
  const ece =
    n === 0
      ? 0
      : bins.reduce((sum, b) => (b.count === 0 ? sum : sum + (b.count / n) * Math.abs(b.correct / b.count - b.scoreSum / b.count)), 0)
  return {
    size,
    seed,
    train: train.length,
    test: n,
    threshold,
    accuracy: n === 0 ? 0 : round(correct / n, 4),
    coverage: n === 0 ? 0 : round(covered / n, 4),
    // Rounded down, so a precision just under the threshold never reads as meeting it.
    precision_at_threshold: covered === 0 ? 0 : Math.floor((coveredCorrect / covered) * 10_000) / 10_000,
    expected_calibration_error: round(ece, 4),
    calibration: bins
      .filter((b) => b.count > 0)
      .map((b) => ({
        from: b.from,
        to: b.to,
        count: b.count,
        mean_score: round(b.scoreSum / b.count, 4),
        accuracy: round(b.correct / b.count, 4),
      })),
    train_ms: round(trainMs, 1),
    predict_us_per_row: round(predictUs, 2),
  }
}

/** Calibration of the category model: held-out (log-odds, right?) pairs -> a monotone map from raw score to a conservative probability. */

/** One row of the calibration table shown to people (`model status`). */
export interface CalibrationBin {
  /** Raw posterior range of the held-out predictions in this bin. */
  from: number
  to: number
  count: number
  /** Observed accuracy in the bin (the score given is a lower bound of it). */
  accuracy: number
}

/** A held-out prediction: its log-odds, and whether its top label was right. */
export interface HeldOutPoint {
  logit: number
  correct: boolean
}

export interface CalibrationStep {
  /** Lowest held-out log-odds in the step. */
  lo: number
  hi: number
  count: number
  correct: number
  /** Monotone lower confidence bound of the step's accuracy: the score given. */
  score: number
}

/** One-sided ~95% normal quantile for the Wilson lower bound. */
const WILSON_Z = 1.645
/** Pseudo-rows at the overall held-out accuracy that a better-than-average step is shrunk with. */
const SHRINK_STRENGTH = 10
/** The score of an uncalibrated model never exceeds this. */
const UNCALIBRATED_MAX_SCORE = 0.5

/** Wilson score interval, lower end. */
function wilsonLower(correct: number, n: number, z: number): number {
  if (n === 0) return 0
  const p = correct / n
  const z2 = z * z
  const centre = p + z2 / (2 * n)
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))
  return Math.max(0, (centre - margin) / (1 + z2 / n))
}

/**
 * The calibration map from held-out predictions (the model makes them by k-fold cross-validation
 * at train time, see CategoryModel.train): the points are sorted by raw confidence (on its
 * log-odds, so that the very confident end keeps its resolution where the posterior rounds to 1),
 * and a monotone step function is fitted by isotonic regression (pool-adjacent-violators). The
 * score of a step is not its observed accuracy but a deliberately pessimistic estimate of it:
 *   1. a step more accurate than the held-out set as a whole is shrunk toward that overall accuracy
 *      by 10 pseudo-rows (a short lucky run in a small data set is not evidence);
 *   2. of that, the one-sided Wilson lower bound at ~95% (z = 1.645) is taken;
 *   3. the bounds are made non-decreasing again (accuracy is assumed monotone in confidence, so a
 *      step inherits the bound proven for any step below it).
 * So 30 held-out rows all right score 0.80 when the model is right 60% of the time overall (a
 * 300-row training set) and 0.91 when it is right 94% of the time (16k rows); 12 such rows never
 * reach 0.9. Sorts `points` in place.
 */
export function fitCalibration(points: HeldOutPoint[]): CalibrationStep[] {
  points.sort((a, b) => a.logit - b.logit)
  const steps: CalibrationStep[] = []
  for (let i = 0; i < points.length; ) {
    // Equal log-odds cannot be told apart: they start in one step.
    let j = i
    let correct = 0
    while (j < points.length && points[j].logit === points[i].logit) correct += points[j++].correct ? 1 : 0
    let step: CalibrationStep = { lo: points[i].logit, hi: points[i].logit, count: j - i, correct, score: 0 }
    while (steps.length > 0) {
      const prev = steps[steps.length - 1]
      // Pool violators and equal neighbours alike (fewer, larger steps: tighter bounds).
      if (prev.correct * step.count < step.correct * prev.count) break
      steps.pop()
      step = { lo: prev.lo, hi: step.hi, count: prev.count + step.count, correct: prev.correct + step.correct, score: 0 }
    }
    steps.push(step)
    i = j
  }
  // A step more accurate than the whole held-out set is first shrunk toward it by SHRINK_STRENGTH
  // pseudo-rows (a short run of lucky rights is not evidence); shrinking only ever lowers.
  const overall = points.reduce((n, p) => n + (p.correct ? 1 : 0), 0) / Math.max(1, points.length)
  let floor = 0
  for (const s of steps) {
    const prior = Math.min(overall, s.correct / s.count)
    const bound = wilsonLower(s.correct + SHRINK_STRENGTH * prior, s.count + SHRINK_STRENGTH, WILSON_Z)
    s.score = floor = Math.max(floor, bound)
  }
  return steps
}

/** The calibration map as two typed arrays (each step's lowest log-odds, and its score): a prediction's lookup allocates nothing. */
export interface ScoreTable {
  lo: Float64Array
  score: Float64Array
  /** Steps in order and scores never falling (as fitCalibration makes them): the score cannot fall as the log-odds rise. */
  monotone: boolean
}

export function scoreTable(steps: CalibrationStep[] | null): ScoreTable | null {
  if (!steps?.length) return null
  const lo = Float64Array.from(steps, (s) => s.lo)
  const score = Float64Array.from(steps, (s) => s.score)
  let monotone = true
  for (let i = 1; i < lo.length; i++) if (!(lo[i - 1] <= lo[i] && score[i - 1] <= score[i])) monotone = false
  return { lo, score, monotone }
}

/** quickScore sums the posterior's terms within this many nats of the runner-up's alone. */
const NEAR = 8
/** Over e^-NEAR: a term left out is at most this times the runner-up's, rounding included. */
const LEFT_OUT = 1.01 * Math.exp(-NEAR)
/** Far over what rounding moves the log-odds by (a few ulps of numbers under 1,000). */
const SLACK = 1e-9

/**
 * The calibrated score of a prediction from its log joints `s` (labels 0..n-1, `top` the best and
 * `second` the runner-up) summing only the terms within NEAR nats of the runner-up's, or NaN when
 * they cannot settle it: then the caller sums them all. Most labels are far behind, and an exp each
 * was most of a prediction (docs/performance.md, "Categorization"). The m terms left out raise the
 * sum by at most m * LEFT_OUT of the runner-up's term, so the exact log-odds lie in
 * [logit - m * LEFT_OUT - SLACK, logit + SLACK]; a monotone map giving both ends one score gives it
 * to all between.
 */
export function quickScore(t: ScoreTable | null, s: Float64Array, n: number, top: number, second: number): number {
  if (t === null || !t.monotone || second < 0) return Number.NaN
  const best = s[top]
  // A runner-up this far behind would be a subnormal term, whose relative error the bound ignores.
  if (s[second] - best < -690) return Number.NaN
  const cut = s[second] - NEAR
  let rest = 0
  let left = 0
  for (let l = 0; l < n; l++) {
    if (l === top) continue
    if (s[l] >= cut) rest += Math.exp(s[l] - best)
    else left++
  }
  const logit = -Math.log(rest)
  const low = calibratedScore(t, logit - left * LEFT_OUT - SLACK)
  return low === calibratedScore(t, logit + SLACK) ? low : Number.NaN
}

function calibratedScore(t: ScoreTable, logit: number): number {
  // The last step starting at or below the log-odds; a gap between steps takes the lower one.
  let lo = 0
  let hi = t.lo.length - 1
  if (logit < t.lo[0]) return t.score[0]
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (t.lo[mid] <= logit) lo = mid
    else hi = mid - 1
  }
  return t.score[lo]
}

/**
 * The score of a prediction with log-odds `logit` and posterior `raw`: from the calibration map; without
 * one (under 50 examples, or `calibrate: false`) the raw posterior capped at 0.5, a valid
 * probability that no auto-accept threshold will trust.
 */
export function scoreOf(table: ScoreTable | null, logit: number, raw: number): number {
  return table ? calibratedScore(table, logit) : Math.min(raw, UNCALIBRATED_MAX_SCORE)
}

const sigmoid = (x: number) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)))

/** The map as a table of raw posterior ranges (the isotonic steps); empty when uncalibrated. */
export function calibrationBins(steps: CalibrationStep[] | null): CalibrationBin[] {
  return (steps ?? []).map((s) => ({ from: sigmoid(s.lo), to: sigmoid(s.hi), count: s.count, accuracy: s.correct / s.count }))
}

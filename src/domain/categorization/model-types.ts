/** The category model's public types (./model.ts): examples, predictions, its state and training options. */
import type { CalibrationStep } from './calibration.js'
import type { Features } from './features.js'

/** A labelled example; the label is opaque to the model (callers encode category triples in it). */
export interface Example extends Features {
  label: string
}

export interface Prediction {
  label: string
  /** Calibrated probability that `label` is right, 0..1, rounded down to 3 decimals. */
  score: number
  /** Naive Bayes posterior of the top label (over-confident; use `score`). */
  raw: number
  /** Up to 5 tokens that pushed most toward this label versus the runner-up, strongest first. */
  explanation: { token: string; weight: number }[]
}

/** A model's counts and calibration, in its ids' order (tokenSums, totals and logs are derived). */
export interface ModelState {
  labels: string[]
  tokens: string[]
  /** tokens x labels, row by row. */
  counts: Int32Array
  docs: Float64Array
  examples: number
  calibration: CalibrationStep[] | null
}

/** What an import needs of a prediction (`predictInto`): the top label and its calibrated score. */
export interface LabelScore {
  label: string
  score: number
}

export interface TrainOptions {
  /** Fit the held-out calibration map (default true). */
  calibrate?: boolean
  /** Cross-validation folds (default 5). */
  folds?: number
  /** Seed of the calibration sample and folds (default 1). */
  seed?: number
  /** At most this many examples are predicted for calibration (default 20000). */
  maxCalibrationSamples?: number
}

/**
 * A trained model as text, so that a process can take the model another one trained on the same
 * labels instead of training again (each `finctl tx import` is a new process). Counts are stored
 * sparse (most token x label cells are 0) and every float bit for bit (Float64Array in base64:
 * calibration bounds may be ±Infinity, which JSON cannot hold), so a decoded model predicts
 * exactly as the one encoded.
 */
import type { CalibrationStep } from './calibration.js'
import { CategoryModel, type ModelState } from './model.js'

const FORMAT = 1
const STEP_FIELDS = 5

interface Stored {
  format: number
  labels: string[]
  tokens: string[]
  /** (cell, count) pairs of the nonzero cells, cell = token * labels + label: Int32Array, base64. */
  cells: string
  docs: number[]
  examples: number
  /** lo, hi, count, correct, score per step: Float64Array, base64; null when uncalibrated. */
  calibration: string | null
}

const toBase64 = (a: Int32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64')

function fromBase64<T extends Int32Array | Float64Array>(text: string, make: (b: ArrayBuffer, n: number) => T, size: number): T {
  const bytes = Buffer.from(text, 'base64')
  const copy = new ArrayBuffer(bytes.byteLength) // aligned, unlike a pooled Buffer's offset
  new Uint8Array(copy).set(bytes)
  return make(copy, bytes.byteLength / size)
}

export function encodeModel(model: CategoryModel): string {
  const s = model.toState()
  let nonzero = 0
  for (const c of s.counts) if (c !== 0) nonzero++
  const cells = new Int32Array(nonzero * 2)
  for (let i = 0, k = 0; i < s.counts.length; i++) {
    if (s.counts[i] === 0) continue
    cells[k++] = i
    cells[k++] = s.counts[i]
  }
  const steps = s.calibration && Float64Array.from(s.calibration.flatMap((c) => [c.lo, c.hi, c.count, c.correct, c.score]))
  const stored: Stored = {
    format: FORMAT,
    labels: s.labels,
    tokens: s.tokens,
    cells: toBase64(cells),
    docs: [...s.docs],
    examples: s.examples,
    calibration: steps ? toBase64(steps) : null,
  }
  return JSON.stringify(stored)
}

/** The model encoded in `text`, or null when it is not a snapshot this version reads. */
export function decodeModel(text: string): CategoryModel | null {
  let stored: Stored
  try {
    stored = JSON.parse(text) as Stored
  } catch {
    return null
  }
  if (stored?.format !== FORMAT) return null
  const counts = new Int32Array(stored.tokens.length * stored.labels.length)
  const cells = fromBase64(stored.cells, (b, n) => new Int32Array(b, 0, n), 4)
  for (let k = 0; k < cells.length; k += 2) counts[cells[k]] = cells[k + 1]
  let calibration: CalibrationStep[] | null = null
  if (stored.calibration !== null) {
    const f = fromBase64(stored.calibration, (b, n) => new Float64Array(b, 0, n), 8)
    calibration = []
    for (let i = 0; i < f.length; i += STEP_FIELDS)
      calibration.push({ lo: f[i], hi: f[i + 1], count: f[i + 2], correct: f[i + 3], score: f[i + 4] })
  }
  const state: ModelState = {
    labels: stored.labels,
    tokens: stored.tokens,
    counts,
    docs: Float64Array.from(stored.docs),
    examples: stored.examples,
    calibration,
  }
  return CategoryModel.fromState(state)
}

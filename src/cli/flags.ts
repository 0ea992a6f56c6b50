/** Parsing of numeric flag values, with usage errors (exit 2) that name the flag. */
import { AppError } from '../kernel/errors.js'

/** A whole number flag, `min` (default 1) to `max`; undefined when the flag was not given. */
export function wholeNumber(text: string | undefined, flag: string, o: { min?: number; max?: number } = {}): number | undefined {
  if (text === undefined) return undefined
  const min = o.min ?? 1
  const n = Number(text)
  if (!/^\d+$/.test(text) || n < min || (o.max !== undefined && n > o.max)) {
    const range = o.max !== undefined ? `from ${min} to ${o.max}` : `of at least ${min}`
    throw new AppError('usage', `${flag} must be a whole number ${range} (got "${text}")`)
  }
  return n
}

/** A score flag between 0 and 1 (a model confidence or threshold); undefined when not given. */
export function unitScore(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined
  const n = Number(text)
  if (!/^\d*\.?\d+$/.test(text) || n > 1) throw new AppError('usage', `${flag} must be a score between 0 and 1, e.g. 0.9`)
  return n
}

/** Flags several commands share, and parsing of numeric flag values with usage errors (exit 2) that name the flag. */
import type { Command } from 'commander'
import { AppError } from '../kernel/errors.js'

/** --limit and --all of a paged list (tx list, statements list and transactions, accounts transactions). */
export function addPaging(cmd: Command, o: { limit?: boolean } = {}): Command {
  if (o.limit !== false) cmd.option('--limit <n>', 'rows per page (1-1000, default 50)')
  return cmd.option('--all', 'every page, streamed')
}

/**
 * A flag given once per value (`--set a=1 --set b=2`), never variadic: a variadic flag takes the
 * command's own argument after it as one more value (`rules update --set category=X R1`).
 */
export const collect = (v: string, prev: string[] = []): string[] => [...prev, v]

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

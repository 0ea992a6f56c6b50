/** What the verbs of `finctl tx` share: reading a boolean flag and a comma-separated list. */
import { AppError } from '../../src/kernel/errors.js'

/** true/yes/1 or false/no/0, any case; a usage error naming the flag otherwise. */
export function parseBool(text: string, flag: string): boolean {
  if (/^(true|yes|1)$/i.test(text)) return true
  if (/^(false|no|0)$/i.test(text)) return false
  throw new AppError('usage', `${flag} must be true or false`)
}

/** "a, b,,c" -> ["a", "b", "c"]. */
export const splitList = (v: string) =>
  v
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)

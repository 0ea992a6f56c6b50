/** What the verbs of `finctl close` share: a month as given on the command line. */
import { AppError } from '../../src/kernel/errors.js'
import { editDistance } from '../../src/kernel/near-names.js'

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/

/** The subcommands of `close`, which takes a month of its own (a misspelling of one is not a month). */
export const SUBCOMMANDS = ['status', 'reopen', 'history', 'pack']

/** `v` if it is a month written YYYY-MM; a usage error naming `flag` (or the subcommand meant) otherwise. */
export function month(flag: string, v: string): string {
  if (MONTH.test(v)) return v
  // `close statu`: a misspelled command, not a month (close takes a month of its own, so commander cannot tell).
  const near = SUBCOMMANDS.filter((c) => editDistance(c, v.toLowerCase()) <= 2)
  if (near.length && !/\d/.test(v))
    throw new AppError('usage', `unknown command '${v}' (Did you mean ${near.join(' or ')}?), or give the month to close, YYYY-MM`)
  throw new AppError('usage', `${flag} must be a month written YYYY-MM, not "${v}"`)
}

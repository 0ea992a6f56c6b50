/**
 * The rate of an opening balance in another currency than the base (docs/money.md): fixed when
 * the balance is recorded, kept on the account, and the one every report converts it at, so that no
 * later write (a transaction, a rate) moves it. It is the company's rate of the opening date (or,
 * without one, of the day it is recorded), by the rule and reach transactions take (rate-book.ts),
 * or the one given (`opening_exchange_rate`); with none in reach the write is refused, as a
 * transaction without a rate is.
 */
import type { Kysely } from 'kysely'
import type { Db } from '../../store/schema.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { validation } from '../../kernel/errors.js'
import { convertMinor, formatMinor, parseRate } from '../../kernel/money.js'
import { RateBook } from '../rate-book.js'

export interface OpeningRate {
  rate: string | null
  date: string | null
}

interface Recorded {
  name: string
  currency_code: string
  /** Minor units of the account's currency. */
  opening_balance: number
  opening_balance_date: string | null
}

/**
 * The rate to keep with an opening balance. `was` is the account's before a change (none on create):
 * a rate given by hand stays until another is given, one from the table follows a new opening date,
 * and one is looked up the first time a balance that is not 0 needs it.
 */
export async function openingRateOf(
  db: Kysely<Db>,
  companyId: string,
  base: string,
  account: Recorded,
  given: string | number | undefined,
  now: Date,
  was?: OpeningRate & { opening_balance_date: string | null },
): Promise<OpeningRate> {
  if (account.currency_code === base) {
    if (given !== undefined && parseRate(given) !== '1')
      throw validation('opening_exchange_rate', `must be 1 (or left out): the account is in the base currency ${base}`)
    return { rate: null, date: null }
  }
  if (given !== undefined) {
    const rate = parseRate(given)
    if (!rate) throw validation('opening_exchange_rate', 'must be a positive decimal number')
    return check(account, base, { rate, date: null })
  }
  if (was?.rate != null && (was.date === null || was.opening_balance_date === account.opening_balance_date)) return was
  if (account.opening_balance === 0) return was ?? { rate: null, date: null }
  const day = account.opening_balance_date ?? now.toISOString().slice(0, 10)
  const book = await RateBook.load(db, companyId, [{ currency: account.currency_code, date: day }])
  const found = book.find(account.currency_code, day)
  if (found) return check(account, base, { rate: found.rate, date: found.date })
  const reach = book.maxAgeDays === 0 ? 'that day' : `that day or the ${book.maxAgeDays} days before`
  const amount = formatMinor(account.opening_balance, currencyExponent(account.currency_code))
  throw validation(
    'opening_exchange_rate',
    `is required for the opening balance ${amount} ${account.currency_code} of bank account "${account.name}" on ${day}: the company's rates to ${base} have none for ${reach}; give \`opening_exchange_rate\` (${base} per 1 ${account.currency_code}), or import rates with \`finctl rates import FILE\` first`,
  )
}

/** The opening balance must convert into the base currency's range at the rate. */
function check(account: Recorded, base: string, r: OpeningRate & { rate: string }): OpeningRate {
  try {
    convertMinor(account.opening_balance, currencyExponent(account.currency_code), r.rate, currencyExponent(base))
  } catch {
    throw validation('opening_balance', `is too large once converted to the base currency ${base}`)
  }
  return r
}

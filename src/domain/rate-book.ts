/**
 * The rates a batch needs, loaded once: for each currency, the table's rates from the earliest date
 * wanted minus the reach (7 days unless FINCTL_RATE_MAX_AGE_DAYS says otherwise) to the latest, one
 * query per currency, never one a row. A date takes the rate of that day or, where none is published
 * (weekends, holidays), the latest earlier one within the reach.
 */
import type { Kysely } from 'kysely'
import { AppError, validation } from '../kernel/errors.js'
import type { Db } from '../store/schema.js'

export const DEFAULT_RATE_MAX_AGE_DAYS = 7
export const RATE_MAX_AGE_VAR = 'FINCTL_RATE_MAX_AGE_DAYS'

/** The reach of a rate in days: FINCTL_RATE_MAX_AGE_DAYS (0 to 366; 0 = the same day only), default 7. */
export function rateMaxAgeDays(env: NodeJS.ProcessEnv = process.env): number {
  const text = env[RATE_MAX_AGE_VAR]
  if (text === undefined || text === '') return DEFAULT_RATE_MAX_AGE_DAYS
  if (!/^\d{1,3}$/.test(text.trim()) || Number(text) > 366)
    throw new AppError('usage', `${RATE_MAX_AGE_VAR}: "${text.slice(0, 20)}" is not a number of days from 0 to 366`)
  return Number(text)
}

export function shiftDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

export interface FoundRate {
  rate: string
  date: string
}

export class RateBook {
  private constructor(
    private readonly byCurrency: Map<string, { dates: string[]; rates: string[] }>,
    readonly maxAgeDays: number,
  ) {}

  /** A book of rates already read (a client's dry run reads them through GET /exchange-rates). */
  static fromRates(rates: Iterable<{ currency: string; date: string; rate: string }>, maxAgeDays = rateMaxAgeDays()): RateBook {
    const sorted = [...rates].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    const byCurrency = new Map<string, { dates: string[]; rates: string[] }>()
    for (const r of sorted) {
      let t = byCurrency.get(r.currency)
      if (!t) {
        t = { dates: [], rates: [] }
        byCurrency.set(r.currency, t)
      }
      t.dates.push(r.date)
      t.rates.push(r.rate)
    }
    return new RateBook(byCurrency, maxAgeDays)
  }

  /** An empty book (nothing needed a rate). */
  static empty(): RateBook {
    return new RateBook(new Map(), DEFAULT_RATE_MAX_AGE_DAYS)
  }

  /** Load the rates for every (currency, date) wanted: one query per currency over its date range. */
  static async load(
    db: Kysely<Db>,
    companyId: string,
    wanted: Iterable<{ currency: string; date: string }>,
    maxAgeDays = rateMaxAgeDays(),
  ): Promise<RateBook> {
    const ranges = new Map<string, { from: string; to: string }>()
    for (const { currency, date } of wanted) {
      const r = ranges.get(currency)
      if (!r) ranges.set(currency, { from: date, to: date })
      else {
        if (date < r.from) r.from = date
        if (date > r.to) r.to = date
      }
    }
    const byCurrency = new Map<string, { dates: string[]; rates: string[] }>()
    for (const [currency, { from, to }] of ranges) {
      const rows = await db
        .selectFrom('exchange_rates')
        .select(['rate_date', 'rate'])
        .where('company_id', '=', companyId)
        .where('currency_code', '=', currency)
        .where('rate_date', '>=', shiftDays(from, -maxAgeDays))
        .where('rate_date', '<=', to)
        .orderBy('rate_date')
        .execute()
      byCurrency.set(currency, { dates: rows.map((r) => r.rate_date), rates: rows.map((r) => r.rate) })
    }
    return new RateBook(byCurrency, maxAgeDays)
  }

  /** The rate of `date`, or the latest earlier one within the reach; undefined when none. */
  find(currency: string, date: string): FoundRate | undefined {
    const t = this.byCurrency.get(currency)
    if (!t || t.dates.length === 0) return undefined
    // The last index whose date is <= date.
    let lo = 0
    let hi = t.dates.length - 1
    let at = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (t.dates[mid] <= date) {
        at = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    if (at < 0 || t.dates[at] < shiftDays(date, -this.maxAgeDays)) return undefined
    return { rate: t.rates[at], date: t.dates[at] }
  }

  /** The rate of `date` for a transaction, or the 400 that names the currency, the date and how to add rates. */
  require(currency: string, date: string, base: string): FoundRate {
    const found = this.find(currency, date)
    if (found) return found
    const reach = this.maxAgeDays === 0 ? 'that day' : `that day or the ${this.maxAgeDays} days before`
    return missingRate(currency, date, base, reach)
  }
}

export function missingRate(currency: string, date: string, base: string, reach: string): never {
  throw validation(
    'exchange_rate',
    `is required for ${currency} on ${date}: the company's rates to ${base} have none for ${reach}; import rates with \`finctl rates import FILE\` (or set one with finctl rates set), or give \`exchange_rate\``,
  )
}

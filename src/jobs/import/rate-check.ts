/**
 * A dry run's (and an atomic import's checking pass's) look at the company's exchange rates: a row
 * in another currency than the base, given no rate, is converted by the service at the rate of its
 * date or the latest earlier one within the reach, or refused. The check reads each currency's rates
 * once (GET /exchange-rates, every page) and answers with the service's own rule and message
 * (RateBook). The reach is FINCTL_RATE_MAX_AGE_DAYS where this runs (7 days by default): a remote
 * service set otherwise may decide differently. A service without the rates routes is not checked.
 */
import type { Client } from '../../client/client.js'
import { RateBook } from '../../domain/rate-book.js'
import { AppError } from '../../kernel/errors.js'

export class RateCheck {
  private readonly books = new Map<string, Promise<RateBook | undefined>>()

  private constructor(
    private readonly client: Client,
    /** The company's base currency: rows in it need no rate. */
    readonly base: string,
  ) {}

  /** A check for the company the client acts for (one request: its base currency). */
  static async open(client: Client): Promise<RateCheck> {
    return new RateCheck(client, (await client.company()).base_currency)
  }

  /** The service's refusal of a row in `currency` (not the base) dated `date` without a rate, or undefined when it has one. */
  async missing(currency: string, date: string): Promise<AppError | undefined> {
    let book = this.books.get(currency)
    if (!book) {
      book = this.read(currency)
      this.books.set(currency, book)
    }
    const b = await book
    if (!b) return undefined
    try {
      b.require(currency, date, this.base)
      return undefined
    } catch (e) {
      if (e instanceof AppError) return e
      throw e
    }
  }

  private async read(currency: string): Promise<RateBook | undefined> {
    const rates: Array<{ currency: string; date: string; rate: string }> = []
    try {
      for await (const page of this.client.rates.pages({ currency, limit: 1000 })) {
        for (const r of page.data) rates.push({ currency: r.currency, date: r.date, rate: r.rate })
      }
    } catch (e) {
      // A service without exchange rates (the interface as specified): it decides when the rows come.
      if (e instanceof AppError && (e.status === 404 || e.status === 405)) return undefined
      throw e
    }
    return RateBook.fromRates(rates)
  }
}

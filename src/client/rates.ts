/** The typed calls of exchange rates (client.ts: `client.rates`; docs/api.md, "Exchange rates"). */
import { exchangeRatesPaths } from '../api/paths.js'
import type { exchangeRatesApi } from '../api/routes/exchange-rates.js'
import type { RatesImportJson, SetExchangeRateRequest } from '../domain/rates/schemas.js'
import { type RouteInput, routeCalls, type Sender } from './route-call.js'

type ListQuery = NonNullable<RouteInput<typeof exchangeRatesApi.list>['query']>

export function rateCalls(c: Sender) {
  const call = routeCalls<typeof exchangeRatesApi>(c, exchangeRatesPaths)
  return {
    list: (query: ListQuery = {}) => call('list', { query }),
    /** Every page of the rates (memory holds one page). */
    pages: (query: ListQuery = {}) => call.pages('list', { query }),
    set: (date: string, currency: string, body: SetExchangeRateRequest) =>
      call('set', { params: { date, currency }, body }).then((r) => r.data),
    delete: (date: string, currency: string) => call('delete', { params: { date, currency } }).then((r) => r.data),
    /** Import a rates file (JSON, the file in base64): all of it or nothing. */
    import: (body: RatesImportJson) => call('import', { body }).then((r) => r.data),
  }
}

/** The typed calls of recurring items and the forecast (client.ts holds them as `client.recurring`, `client.forecast`; docs/forecast.md). */
import { forecastPaths, recurringPaths } from '../api/paths.js'
import type { forecastApi } from '../api/routes/forecast.js'
import type { recurringApi } from '../api/routes/recurring.js'
import type { ForecastRequest } from '../domain/recurring/forecast-schemas.js'
import type { AddRecurringRequest, DetectRequest } from '../domain/recurring/schemas.js'
import { routeCalls, type Sender } from './route-call.js'

export function recurringCalls(c: Sender) {
  const call = routeCalls<typeof recurringApi>(c, recurringPaths)
  return {
    detect: (body: DetectRequest = {}) => call('detect', { body }).then((r) => r.data),
    list: (query: { status?: 'suggested' | 'accepted' | 'all' } = {}) => call('list', { query }).then((r) => r.data),
    add: (body: AddRecurringRequest) => call('add', { body }).then((r) => r.data),
    accept: (id: string) => call('accept', { params: { id } }).then((r) => r.data),
    delete: (id: string) => call('delete', { params: { id } }).then((r) => r.data),
  }
}

export function forecastCalls(c: Sender) {
  const call = routeCalls<typeof forecastApi>(c, forecastPaths)
  return {
    run: (body: ForecastRequest) => call('run', { body }).then((r) => r.data),
  }
}

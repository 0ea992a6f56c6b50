/** The typed calls of /api-v1/recurring and the forecast (client.ts holds them as `client.recurring`, `client.forecast`). */
import type { Forecast, ForecastRequest } from '../domain/recurring/forecast-schemas.js'
import type { AddRecurringRequest, DetectRequest, DetectResult, RecurringItem } from '../domain/recurring/schemas.js'
import type { ApiResult, RequestOptions } from './request.js'

interface Requester {
  request<T>(method: string, path: string, o?: RequestOptions): Promise<ApiResult<T>>
}

const at = (id: string) => `/api-v1/recurring/${encodeURIComponent(id)}`

export function recurringCalls(c: Requester) {
  return {
    detect: (body: DetectRequest = {}) => c.request<DetectResult>('POST', '/api-v1/recurring/detect', { body }).then((r) => r.data),
    list: (q: { status?: 'suggested' | 'accepted' | 'all' } = {}) =>
      c.request<RecurringItem[]>('GET', '/api-v1/recurring', { query: q }).then((r) => r.data),
    add: (body: AddRecurringRequest) => c.request<RecurringItem>('POST', '/api-v1/recurring', { body }).then((r) => r.data),
    accept: (id: string) => c.request<RecurringItem>('POST', `${at(id)}/accept`).then((r) => r.data),
    delete: (id: string) => c.request<{ id: string; deleted: true }>('DELETE', at(id)).then((r) => r.data),
  }
}

export function forecastCalls(c: Requester) {
  return {
    run: (body: ForecastRequest) => c.request<Forecast>('POST', '/api-v1/forecast', { body }).then((r) => r.data),
  }
}

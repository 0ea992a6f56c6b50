/** The company's accounts map for the chart exports (GET/PUT/DELETE /exports/accounts-map, docs/api.md section 7). */
import type { AccountsMapFile, StoredAccountsMap } from '../domain/exports/accounts-map-schema.js'
import type { ApiResult, RequestOptions } from './request.js'

interface Requester {
  request<T>(method: string, path: string, o?: RequestOptions): Promise<ApiResult<T>>
}

export function exportMapCalls(c: Requester) {
  return {
    get: () => c.request<StoredAccountsMap>('GET', '/api-v1/exports/accounts-map').then((r) => r.data),
    /** An accountant's or the owner's call: a login before a key. */
    set: (map: AccountsMapFile) =>
      c.request<StoredAccountsMap>('PUT', '/api-v1/exports/accounts-map', { body: { map }, auth: 'admin' }).then((r) => r.data),
    clear: () => c.request<{ deleted: boolean }>('DELETE', '/api-v1/exports/accounts-map', { auth: 'admin' }).then((r) => r.data),
  }
}

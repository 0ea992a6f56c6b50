/** The company's accounts map for the chart exports (GET/PUT/DELETE /exports/accounts-map, docs/api.md section 7). */
import { exportsPaths } from '../api/paths.js'
import type { exportsApi } from '../api/routes/exports.js'
import type { AccountsMapFile } from '../domain/exports/accounts-map-schema.js'
import { routeCalls, type Sender } from './route-call.js'

export function exportMapCalls(c: Sender) {
  const call = routeCalls<typeof exportsApi>(c, exportsPaths)
  return {
    get: () => call('accountsMap').then((r) => r.data),
    /** An accountant's or the owner's call: a login before a key. */
    set: (map: AccountsMapFile) => call('setAccountsMap', { body: { map }, auth: 'admin' }).then((r) => r.data),
    clear: () => call('clearAccountsMap', { auth: 'admin' }).then((r) => r.data),
  }
}

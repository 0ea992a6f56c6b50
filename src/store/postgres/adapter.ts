/** What the store's shared modules ask of PostgreSQL (DialectAdapter in ../dialect-adapter.ts). */
import type { DialectAdapter } from '../dialect-adapter.js'
import { lockEventOrder } from './events.js'
import { postgresReportTotals } from './report-triggers.js'
import { postgresSql } from './sql.js'

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

export const postgresAdapter: DialectAdapter = {
  sql: postgresSql,
  // Ids are uuid, written as their lower-case text.
  storedId: (id) => (UUID.test(id) ? id.toLowerCase() : undefined),
  lockEventOrder,
  // Deleting rows out of the indexes costs no more than building them again.
  indexesToRebuild: async () => [],
  reportTotals: postgresReportTotals,
}

/**
 * 0018 adds the report totals kept with the rows (report-totals.ts): two tables, the triggers
 * that keep them inside each write's own statement, and their first computation from the rows.
 */
import type { AnyDb, Dialect, DialectAdapter } from './common.js'
import { dropReportTotalsDdl, rebuildReportTotals, reportTotalsDdl } from '../report-totals.js'
import { sql } from 'kysely'

export async function up(db: AnyDb, _dialect: Dialect, adapter: DialectAdapter): Promise<void> {
  for (const s of reportTotalsDdl(adapter.reportTotals)) await sql.raw(s).execute(db)
  await rebuildReportTotals(db)
}

export async function down(db: AnyDb, _dialect: Dialect, adapter: DialectAdapter): Promise<void> {
  for (const s of dropReportTotalsDdl(adapter.reportTotals)) await sql.raw(s).execute(db)
}

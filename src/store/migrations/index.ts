/**
 * Every migration, in the order it runs, and the migrator that runs them when a store opens.
 *
 * One file per migration (0001_foundation.ts ...), each with `up` and `down` for both dialects. The
 * list is static, imported here, not read from the folder at run time: the CLI ships as one
 * bundle. A new migration is a new file with the next number and one line in MIGRATIONS. A name,
 * once released, never changes: a database records each migration it has run by name.
 */
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'
import type { DialectAdapter } from '../dialect-adapter.js'
import { postgresAdapter } from '../postgres/adapter.js'
import { sqliteAdapter } from '../sqlite/adapter.js'
import type { AnyDb, Dialect, MigrationModule } from './common.js'
import { MIGRATION_COUNT } from './count.js'
import * as foundation from './0001_foundation.js'
import * as transactionsComplete from './0002_transactions_complete.js'
import * as importRefs from './0003_import_refs.js'
import * as reports from './0004_reports.js'
import * as statements from './0005_statements.js'
import * as partialIndexes from './0006_partial_indexes.js'
import * as categorization from './0007_categorization.js'
import * as amountIndex from './0008_amount_index.js'
import * as creationColumns from './0009_creation_columns.js'
import * as exchangeRates from './0010_exchange_rates.js'
import * as compactTransactions from './0011_compact_transactions.js'
import * as balanceIndex from './0012_balance_index.js'
import * as balanceCurrency from './0013_balance_currency.js'
import * as loginLimits from './0014_login_limits.js'
import * as statementWorker from './0015_statement_worker.js'
import * as periodLocks from './0016_period_locks.js'
import * as auditChain from './0017_audit_chain.js'
import * as reportTotals from './0018_report_totals.js'
import * as keyRolling from './0019_key_rolling.js'
import * as events from './0020_events.js'
import * as webhooks from './0021_webhooks.js'
import * as requestLog from './0022_request_log.js'
import * as closeRecords from './0024_close_records.js'
import * as periodLockTriggers from './0025_period_lock_triggers.js'
import * as closeContents from './0026_close_contents.js'
import * as openingRates from './0027_opening_rates.js'
import * as creationEntries from './0028_creation_entries.js'
import * as keyUsageTotals from './0029_key_usage_totals.js'
import * as importBatches from './0030_import_batches.js'
import * as eventPackedIds from './0031_event_packed_ids.js'
import * as people from './0032_people.js'
import * as importReverts from './0033_import_reverts.js'
import * as importReviews from './0034_import_reviews.js'
import * as keyUsagePeriods from './0035_key_usage_periods.js'
import * as categorizationModels from './0036_categorization_models.js'
import * as approvals from './0037_approvals.js'
import * as documents from './0038_documents.js'
import * as documentFields from './0039_document_fields.js'
import * as closePacks from './0040_close_packs.js'
import * as importReviewFiles from './0041_import_review_files.js'
import * as peopleChained from './0042_people_chained.js'
import * as usageNewest from './0043_usage_newest.js'
import * as statementFiles from './0044_statement_files.js'
import * as reviewChecked from './0045_review_checked.js'
import * as pendingRowsKeyed from './0046_pending_rows_keyed.js'
import * as closeNames from './0048_close_names.js'
import * as lockDatesChained from './0049_lock_dates_chained.js'
import * as budgets from './0055_budgets.js'
import * as recurringItems from './0056_recurring_items.js'
import * as exportAccountsMaps from './0058_export_accounts_maps.js'
import * as agents from './0060_agents.js'

export { AMOUNT_INDEX } from './0008_amount_index.js'
export { KEY_COUNTERS, transactionIndexes } from './0011_compact_transactions.js'

/** Names sort in the order they run (kysely's Migrator sorts by name). */
const MIGRATIONS: ReadonlyArray<readonly [name: string, migration: MigrationModule]> = [
  ['0001_foundation', foundation],
  ['0002_transactions_complete', transactionsComplete],
  ['0003_import_refs', importRefs],
  ['0004_reports', reports],
  ['0005_statements', statements],
  ['0006_partial_indexes', partialIndexes],
  ['0007_categorization', categorization],
  ['0008_amount_index', amountIndex],
  ['0009_creation_columns', creationColumns],
  ['0010_exchange_rates', exchangeRates],
  ['0011_compact_transactions', compactTransactions],
  ['0012_balance_index', balanceIndex],
  ['0013_balance_currency', balanceCurrency],
  ['0014_login_limits', loginLimits],
  ['0015_statement_worker', statementWorker],
  ['0016_period_locks', periodLocks],
  ['0017_audit_chain', auditChain],
  ['0018_report_totals', reportTotals],
  ['0019_key_rolling', keyRolling],
  ['0020_events', events],
  ['0021_webhooks', webhooks],
  ['0022_request_log', requestLog],
  ['0024_close_records', closeRecords],
  ['0025_period_lock_triggers', periodLockTriggers],
  ['0026_close_contents', closeContents],
  ['0027_opening_rates', openingRates],
  ['0028_creation_entries', creationEntries],
  ['0029_key_usage_totals', keyUsageTotals],
  ['0030_import_batches', importBatches],
  ['0031_event_packed_ids', eventPackedIds],
  ['0032_people', people],
  ['0033_import_reverts', importReverts],
  ['0034_import_reviews', importReviews],
  ['0035_key_usage_periods', keyUsagePeriods],
  ['0036_categorization_models', categorizationModels],
  ['0037_approvals', approvals],
  ['0038_documents', documents],
  ['0039_document_fields', documentFields],
  ['0040_close_packs', closePacks],
  ['0041_import_review_files', importReviewFiles],
  ['0042_people_chained', peopleChained],
  ['0043_usage_newest', usageNewest],
  ['0044_statement_files', statementFiles],
  ['0045_review_checked', reviewChecked],
  ['0046_pending_rows_keyed', pendingRowsKeyed],
  ['0048_close_names', closeNames],
  ['0049_lock_dates_chained', lockDatesChained],
  ['0055_budgets', budgets],
  ['0056_recurring_items', recurringItems],
  ['0058_export_accounts_maps', exportAccountsMaps],
  ['0060_agents', agents],
]

if (MIGRATIONS.length !== MIGRATION_COUNT)
  throw new Error(`migrations/count.ts says ${MIGRATION_COUNT} migrations and index.ts lists ${MIGRATIONS.length}: make them agree`)

/** Each dialect's adapter, handed to the migrations (no driver is loaded with it). */
const ADAPTERS: Record<Dialect, DialectAdapter> = { sqlite: sqliteAdapter, postgres: postgresAdapter }

/** Every migration, in order, for one dialect. */
export function migrations(dialect: Dialect): Record<string, Migration> {
  const adapter = ADAPTERS[dialect]
  const all: Record<string, Migration> = {}
  for (const [name, m] of MIGRATIONS) {
    const down = m.down
    all[name] = { up: (db) => m.up(db, dialect, adapter), ...(down ? { down: (db: AnyDb) => down(db, dialect, adapter) } : {}) }
  }
  return all
}

/** Bring a database up to the latest migration (kysely's Migrator; it locks on PostgreSQL). */
export async function migrate(db: AnyDb, all: Record<string, Migration>, schema?: string): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => all }
  let { error, results } = await new Migrator({ db, provider, migrationTableSchema: schema }).migrateToLatest()
  // The Migrator reads the tables of every schema on the server first: another schema dropped
  // meanwhile (another installation's, or a test run's) fails that read, and only that read. Drops
  // come in runs (a test run's end drops all of its schemas), so the tries wait a little longer each.
  for (let tries = 1; error && tries <= 10 && otherSchemaGone(error, schema); tries++) {
    await new Promise((r) => setTimeout(r, 50 * tries))
    ;({ error, results } = await new Migrator({ db, provider, migrationTableSchema: schema }).migrateToLatest())
  }
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`database migration ${failed ?? ''} failed: ${(error as Error).message ?? error}`)
  }
}

function otherSchemaGone(error: unknown, schema: string | undefined): boolean {
  const gone = /^schema "([^"]+)" does not exist$/.exec((error as Error)?.message ?? '')?.[1]
  return gone !== undefined && gone !== schema
}

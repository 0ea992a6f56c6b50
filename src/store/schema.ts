/**
 * Table shapes for kysely. Both dialects store the same values:
 * - money as integers of minor units (SQLite INTEGER, PostgreSQL BIGINT, parsed back to number);
 * - booleans as 0/1 integers (better-sqlite3 binds no booleans);
 * - timestamps as ISO 8601 UTC text ("2026-11-22T05:33:00.000Z"), dates as "YYYY-MM-DD" text,
 *   which sort and compare correctly as text in both dialects;
 * - arrays (scopes, tags) as JSON text.
 */
import type { Generated, Selectable, Insertable } from 'kysely'
import { STORED_TRANSACTION_COLUMNS, type StoredTransactionColumn, type TransactionColumnValues } from '../kernel/transaction-fields.js'
import type {
  ApprovalPoliciesTable,
  CloseExportsTable,
  CloseRowsTable,
  DocumentTables,
  EventsTable,
  PeriodClosesTable,
  ProposalsTable,
  ReportDayFlowsTable,
  ReportMonthGroupsTable,
  TransactionNotesTable,
  WebhookAttemptsTable,
  WebhookEndpointsTable,
} from './schema-records.js'
import type { ImportBatchesTable, ImportPendingRowsTable, ImportReviewFilesTable, ImportReviewsTable } from './schema-imports.js'
import type { BudgetsTable, BudgetVersionsTable, RecurringItemsTable } from './schema-planning.js'

export type * from './schema-records.js'
export type * from './schema-imports.js'
export type * from './schema-planning.js'

export interface SettingsTable {
  key: string
  value: string
}

export interface CompaniesTable {
  id: string
  /** Integer key that transactions refer to (0011); never reused. */
  key: number
  name: string
  base_currency: string
  created_at: string
  /** The last day of the last closed month: no transaction dated on or before it changes (0016). */
  lock_date: string | null
}

export interface UsersTable {
  id: string
  company_id: string
  email: string
  password_hash: string
  role: string
  created_at: string
  /** When an owner disabled the user (0032); null while enabled. */
  disabled_at: string | null
}

/** An invitation (0032): only its token's SHA-256 is kept. */
export interface UserInvitationsTable {
  id: string
  company_id: string
  email: string
  role: string
  token_hash: string
  invited_by: string
  created_at: string
  expires_at: string
  accepted_at: string | null
  user_id: string | null
  /** When an owner revoked it (0042); null while it may be accepted. */
  revoked_at: string | null
  revoked_by: string | null
}

export interface ApiKeysTable {
  id: string
  company_id: string
  name: string
  key_prefix: string
  key_hash: string
  scopes: string
  description: string
  rate_limit_per_minute: number
  rate_limit_per_day: number
  is_active: number
  expires_at: string | null
  revoked_at: string | null
  created_at: string
  created_by: string
  usage_count: number
  last_used_at: string | null
  /** Key rolling (0019): the successor, the predecessor, and when the old key's grace ends. */
  rolled_to: string | null
  rolled_from: string | null
  revoke_at: string | null
  agent: Generated<number> // 1: an agent's key, whose writes are proposals (0060)
}

export interface RateLimitCountersTable {
  key_id: string
  minute_window: number
  minute_count: number
  day_window: number
  day_count: number
  /** How many takes the last statement granted: 0 or 1 for one take, up to n for PostgreSQL's n at once. */
  allowed: number
}

export interface ApiRequestsTable {
  id: Generated<number>
  key_id: string
  company_id: string
  method: string
  endpoint: string
  status_code: number
  response_time_ms: number
  created_at: string
  /** The answer's X-Request-Id and the path as requested (0022); null on older records. */
  request_id: string | null
  path: string | null
  /** The record's number among its key's, 1, 2, ... in the order written (0043): the last is the key's usage_count. */
  seq: number
  /** The MCP tool that made the request (`mcp:get_transaction`, 0060), else null. */
  via: string | null
}

/** Each key's usage totals per endpoint and status (0029), kept with the records. */
export interface ApiKeyUsageTable {
  key_id: string
  endpoint: string
  status_code: number
  requests: number
  response_ms: number
  last_at: string
}

/** A key's requests in one ten-minute period (migration 0035): `period` is the first 15 characters of created_at. */
export interface ApiKeyUsagePeriodsTable {
  key_id: string
  period: string
  requests: number
}

export interface BankAccountsTable {
  id: string
  /** Integer key that transactions refer to (0011); never reused. */
  key: number
  company_id: string
  name: string
  institution_name: string | null
  account_type: string
  account_number_last4: string | null
  currency_code: string
  status: string
  opening_balance: number
  opening_balance_date: string | null
  /** Base-currency units per unit of the account's currency, fixed when the opening balance was recorded (0027); null: none needed, or unconverted. */
  opening_exchange_rate: string | null
  /** The date of the company's rate it came from; null when it was given (or there is none). */
  opening_exchange_rate_date: string | null
  created_at: string
  updated_at: string
}

/**
 * A transaction id as stored: 16 bytes on SQLite (a BLOB), a `uuid` on PostgreSQL (read as text).
 * Everywhere outside the store it is the UUID's text (transaction-codec.ts converts).
 */
export type StoredId = Uint8Array | string

/**
 * How transactions are stored (migration 0011): compact, because a bank's history runs to
 * millions of rows and every index repeats its keys.
 * - `seq`, an integer key (SQLite's rowid), is the row's identity inside the database: the
 *   tie-breaker of every sort and keyset page, so each index ends in a few bytes instead of a
 *   36-character UUID; `id`, the public UUID, is kept as 16 bytes with its own unique index.
 * - The company and the bank account are their integer keys (`companies.key`, `bank_accounts.key`),
 *   who created the row an `actors.key`, how (created_via) a small code.
 * - posted_date, original_description and updated_at are NULL when equal to transaction_date,
 *   description and created_at (the usual case).
 * The domain never reads this shape: it reads and writes `TransactionRow`s through the codec.
 * Its columns are src/kernel/transaction-fields.ts's stored ones, each as the domain reads it but
 * for those in `StoredAs`.
 */
export type TransactionsTable = { seq: Generated<number> } & {
  [K in StoredTransactionColumn]: K extends keyof StoredAs ? StoredAs[K] : TransactionColumnValues[K]
}

/** The stored columns kept otherwise than the domain reads them. */
interface StoredAs {
  id: StoredId
  /** NULL: the same as transaction_date. */
  posted_date: string | null
  /** NULL: the same as description. */
  original_description: string | null
  /** NULL: the same as created_at (never changed). */
  updated_at: string | null
  /** Who created it (actors.key); null for rows created before 0009, whose creation is in audit_entries. */
  created_by: number | null
  /** How it was created: CREATED_VIA codes (create, batch_create, statement_import); null as for created_by. */
  created_via: number | null
}

/** Who has created transactions (`key:ID` or `user:ID`), each once, under an integer key. */
export interface ActorsTable {
  key: Generated<number>
  name: string
}

/** A company's dated rate to its base currency: units of the base per 1 unit of currency_code (decimal text). */
export interface ExchangeRatesTable {
  company_id: string
  currency_code: string
  rate_date: string
  rate: string
  /** `ecb`, `manual`, or the file a plain CSV came from. */
  source: string
  created_at: string
  updated_at: string
}

export interface BankStatementsTable {
  id: string
  company_id: string
  bank_account_id: string
  file_name: string
  format: string
  file_sha256: string
  file_size: number
  /** The account's currency: balances are in its minor units. */
  currency_code: string
  status: string
  period_start: string | null
  period_end: string | null
  opening_balance: number | null
  closing_balance: number | null
  balance_check: string | null
  line_count: number
  transaction_count: number
  duplicate_count: number
  matched_count: number
  error: string | null
  /** JSON array of strings */
  warnings: string
  created_by: string
  created_at: string
  updated_at: string
  processed_at: string | null
  /** `host/pid` of the process that processes it (migration 0014; null before). */
  worker: string | null
}

export interface IdempotencyKeysTable {
  owner_id: string
  idem_key: string
  request_hash: string
  status_code: number
  response_body: string
  created_at: string
}

export interface AuditEntriesTable {
  id: Generated<number>
  company_id: string
  transaction_id: string
  /** `key:<id>` or `user:<id>` */
  actor: string
  action: string
  /** JSON: { field: { before, after } } */
  changes: string
  created_at: string
  /** The hash of the company's entry before this one (audit-chain.ts); null only on a row written outside the chain. */
  prev_hash: string | null
  /** SHA-256 over prev_hash and this entry's fields (audit-chain.ts). */
  hash: string | null
}

/** Per company, the last entry of its audit chain: every writer of audit_entries locks this row (0017). */
export interface AuditChainHeadsTable {
  company_id: string
  last_id: number
  hash: string
}

export interface CategorizationRulesTable {
  id: string
  company_id: string
  /** Rules run in ascending position; the first rule that sets a field wins it. */
  position: number
  name: string
  /** JSON: RuleConditions */
  conditions: string
  /** JSON: RuleActions */
  actions: string
  is_active: number
  created_at: string
  updated_at: string
}

export interface CategorizationSettingsTable {
  company_id: string
  auto_categorize: number
  threshold: number
  /** Moves on with every change of the company's labelled transactions (training data). */
  labels_version: number
  updated_at: string
}

/** A company's last trained categorization model (src/domain/categorization/model-snapshot.ts). */
export interface CategorizationModelsTable {
  company_id: string
  /** The company's labels_version the model was trained at: it is used only at that version. */
  labels_version: number
  trained_at: string
  trained_on: number
  model: string
}

/** Login attempts of the current minute per subject (`email:...`, `address:...`). */
export interface LoginCountersTable {
  subject: string
  minute_window: number
  count: number
}

/** One refused password: the audit of failed logins. */
export interface LoginFailuresTable {
  id: Generated<number>
  /** As given, lower-cased; user_id is set when such a user exists. */
  email: string
  user_id: string | null
  /** The client's address on `finctl serve`; null on the embedded core. */
  client_address: string | null
  created_at: string
}

export interface Db extends DocumentTables {
  settings: SettingsTable
  companies: CompaniesTable
  period_closes: PeriodClosesTable
  close_exports: CloseExportsTable
  close_rows: CloseRowsTable
  users: UsersTable
  user_invitations: UserInvitationsTable
  api_keys: ApiKeysTable
  rate_limit_counters: RateLimitCountersTable
  api_requests: ApiRequestsTable
  transaction_notes: TransactionNotesTable
  api_key_usage: ApiKeyUsageTable
  api_key_usage_periods: ApiKeyUsagePeriodsTable
  bank_accounts: BankAccountsTable
  transactions: TransactionsTable
  idempotency_keys: IdempotencyKeysTable
  audit_entries: AuditEntriesTable
  audit_chain_heads: AuditChainHeadsTable
  bank_statements: BankStatementsTable
  categorization_rules: CategorizationRulesTable
  categorization_settings: CategorizationSettingsTable
  categorization_models: CategorizationModelsTable
  exchange_rates: ExchangeRatesTable
  actors: ActorsTable
  login_counters: LoginCountersTable
  login_failures: LoginFailuresTable
  report_day_flows: ReportDayFlowsTable
  report_month_groups: ReportMonthGroupsTable
  events: EventsTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_attempts: WebhookAttemptsTable
  import_batches: ImportBatchesTable
  import_reviews: ImportReviewsTable
  import_pending_rows: ImportPendingRowsTable
  import_review_files: ImportReviewFilesTable
  approval_policies: ApprovalPoliciesTable
  proposals: ProposalsTable
  budgets: BudgetsTable
  budget_versions: BudgetVersionsTable
  recurring_items: RecurringItemsTable
}

export type CompanyRow = Selectable<CompaniesTable>
export type UserRow = Selectable<UsersTable>
export type UserInvitationRow = Selectable<UserInvitationsTable>
export type ApiKeyRow = Selectable<ApiKeysTable>
/** A key's row and its creator's role and disabling as they stand now (null role: no such user of the company). */
export type KeyWithCreator = ApiKeyRow & { creator_role: string | null; creator_disabled_at: string | null }
export type BankAccountRow = Selectable<BankAccountsTable>
export type StoredTransactionRow = Selectable<TransactionsTable>
/** A usage record as the recorder makes it: the usage write numbers it (`seq`). */
export type NewApiRequestRow = Omit<Insertable<ApiRequestsTable>, 'id' | 'seq'>
export type NewAuditEntryRow = Omit<Insertable<AuditEntriesTable>, 'id'>
/** An entry whose place in the chain was worked out already (its prev_hash and hash): a revert's thread chains them. */
export type ChainedAuditEntryRow = NewAuditEntryRow & { prev_hash: string; hash: string }
export type BankStatementRow = Selectable<BankStatementsTable>
export type CategorizationRuleRow = Selectable<CategorizationRulesTable>
export type ExchangeRateRow = Selectable<ExchangeRatesTable>
export type EventRow = Selectable<EventsTable>
export type NewEventRow = Omit<Insertable<EventsTable>, 'seq'>
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>
export type NewWebhookAttemptRow = Insertable<WebhookAttemptsTable>
export type ImportBatchRow = Selectable<ImportBatchesTable>

/** The columns the hot paths insert into `transactions`, in their order (seq is the database's; statement_ref is set only by statement uploads). */
export const TX_COLUMNS = STORED_TRANSACTION_COLUMNS
/** A row's stored values, every column (an insert through kysely may leave the nullable ones out; the codec writes them all). */
export type StoredTransactionValues = { [K in StoredTransactionColumn]: TransactionsTable[K] }

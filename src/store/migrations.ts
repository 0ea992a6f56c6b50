/**
 * Versioned migrations as code objects, run by kysely's Migrator when a store opens. One list
 * serves both dialects; `t` names the few column types that differ.
 */
import { randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'

export type Dialect = 'sqlite' | 'postgres'

interface Types {
  money: 'integer' | 'bigint'
}

function types(dialect: Dialect): Types {
  return { money: dialect === 'postgres' ? 'bigint' : 'integer' }
}

// biome-ignore lint: migrations work on an untyped database, as their schema changes over time
type AnyDb = Kysely<any>

function foundation(dialect: Dialect): Migration {
  const t = types(dialect)
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute()
      await db
        .insertInto('settings')
        .values({ key: 'jwt_secret', value: randomBytes(32).toString('base64url') })
        .execute()

      await db.schema
        .createTable('companies')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('base_currency', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('rate_limit_per_minute', 'integer', (c) => c.notNull())
        .addColumn('rate_limit_per_day', 'integer', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('revoked_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('usage_count', t.money, (c) => c.notNull().defaultTo(0))
        .addColumn('last_used_at', 'text')
        .execute()
      await db.schema.createIndex('api_keys_company').on('api_keys').columns(['company_id', 'created_at']).execute()

      await db.schema
        .createTable('rate_limit_counters')
        .addColumn('key_id', 'text', (c) => c.primaryKey().references('api_keys.id'))
        .addColumn('minute_window', t.money, (c) => c.notNull())
        .addColumn('minute_count', 'integer', (c) => c.notNull())
        .addColumn('day_window', t.money, (c) => c.notNull())
        .addColumn('day_count', 'integer', (c) => c.notNull())
        .addColumn('allowed', 'integer', (c) => c.notNull())
        .execute()

      let requests = db.schema.createTable('api_requests')
      requests =
        dialect === 'postgres'
          ? requests.addColumn('id', 'bigserial', (c) => c.primaryKey())
          : requests.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      await requests
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('company_id', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response_time_ms', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('api_requests_key_time').on('api_requests').columns(['key_id', 'created_at']).execute()

      await db.schema
        .createTable('bank_accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('institution_name', 'text')
        .addColumn('account_type', 'text', (c) => c.notNull())
        .addColumn('account_number_last4', 'text')
        .addColumn('currency_code', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('opening_balance', t.money, (c) => c.notNull())
        .addColumn('opening_balance_date', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('bank_accounts_company').on('bank_accounts').columns(['company_id', 'created_at']).execute()

      await db.schema
        .createTable('transactions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
        .addColumn('bank_account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
        .addColumn('bank_statement_id', 'text')
        .addColumn('transaction_date', 'text', (c) => c.notNull())
        .addColumn('posted_date', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('original_description', 'text', (c) => c.notNull())
        .addColumn('amount', t.money, (c) => c.notNull())
        .addColumn('currency_code', 'text', (c) => c.notNull())
        .addColumn('exchange_rate', 'text', (c) => c.notNull())
        .addColumn('base_amount', t.money, (c) => c.notNull())
        .addColumn('category', 'text')
        .addColumn('accounting_category', 'text')
        .addColumn('cash_flow_category', 'text')
        .addColumn('merchant_name', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('is_reconciled', 'integer', (c) => c.notNull())
        .addColumn('ai_confidence_score', 'real')
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('transactions_company_date')
        .on('transactions')
        .columns(['company_id', 'transaction_date', 'id'])
        .execute()
      await db.schema
        .createIndex('transactions_account_date')
        .on('transactions')
        .columns(['bank_account_id', 'transaction_date', 'id'])
        .execute()

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('idem_key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response_body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['owner_id', 'idem_key'])
        .execute()
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute()
    },
    async down(db: AnyDb) {
      for (const table of [
        'idempotency_keys',
        'transactions',
        'bank_accounts',
        'api_requests',
        'rate_limit_counters',
        'api_keys',
        'users',
        'companies',
        'settings',
      ]) {
        await db.schema.dropTable(table).execute()
      }
    },
  }
}

function transactionsComplete(dialect: Dialect): Migration {
  const audit = (db: AnyDb) => db.schema.createTable('audit_entries')
  return {
    async up(db: AnyDb) {
      let t = audit(db)
      t =
        dialect === 'postgres'
          ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
          : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      await t
        .addColumn('company_id', 'text', (c) => c.notNull())
        .addColumn('transaction_id', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('audit_entries_transaction').on('audit_entries').columns(['transaction_id', 'id']).execute()
      // Keyset pages for each sort order, within a company and within an account.
      await db.schema.createIndex('transactions_company_amount').on('transactions').columns(['company_id', 'amount', 'id']).execute()
      await db.schema.createIndex('transactions_company_created').on('transactions').columns(['company_id', 'created_at', 'id']).execute()
      await db.schema.createIndex('transactions_company_status_date').on('transactions').columns(['company_id', 'status', 'transaction_date', 'id']).execute()
      await db.schema.createIndex('transactions_company_category').on('transactions').columns(['company_id', 'category', 'transaction_date']).execute()
      await db.schema.createIndex('transactions_statement').on('transactions').columns(['bank_statement_id', 'transaction_date']).execute()
    },
    async down(db: AnyDb) {
      for (const i of ['transactions_company_amount', 'transactions_company_created', 'transactions_company_status_date', 'transactions_company_category', 'transactions_statement']) {
        await db.schema.dropIndex(i).execute()
      }
      await db.schema.dropTable('audit_entries').execute()
    },
  }
}

/**
 * Exactly-once imports: a row's identity (from its content and its occurrence in the file) is kept
 * on the transaction, unique per account, so the same row can never be created twice.
 */
function importRefs(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('transactions').addColumn('import_ref', 'text').execute()
      await db.schema.createIndex('transactions_import_ref').on('transactions').columns(['bank_account_id', 'import_ref']).unique().execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex('transactions_import_ref').execute()
      await db.schema.alterTable('transactions').dropColumn('import_ref').execute()
    },
  }
}

/**
 * Reports (cash flow, summary) read only these covering indexes: one range scan per date range,
 * within a company or an account, in an order whose prefixes are the reports' GROUP BYs (day, then
 * cash-flow category, accounting category, category, merchant), so SQLite groups without sorting.
 */
const REPORT_COLUMNS = ['transaction_date', 'cash_flow_category', 'accounting_category', 'category', 'merchant_name', 'status', 'is_reconciled', 'base_amount']
function reportIndexes(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.createIndex('transactions_report_company').on('transactions').columns(['company_id', ...REPORT_COLUMNS]).execute()
      await db.schema.createIndex('transactions_report_account').on('transactions').columns(['bank_account_id', ...REPORT_COLUMNS]).execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex('transactions_report_account').execute()
      await db.schema.dropIndex('transactions_report_company').execute()
    },
  }
}

/**
 * Bank statements (API.md section 5). The file itself is not kept, its sha256 is: the same file for
 * the same account once only, while its statement has not failed (a failed upload may be retried).
 * `statement_ref` is the identity of the statement line a transaction came from or was reconciled
 * with (the bank's id, else date + amount + description), unique per account: a line is never
 * imported twice, whichever statement brings it again.
 */
function statementsTable(dialect: Dialect): Migration {
  const t = types(dialect)
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('bank_statements')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
        .addColumn('bank_account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('file_sha256', 'text', (c) => c.notNull())
        .addColumn('file_size', 'integer', (c) => c.notNull())
        .addColumn('currency_code', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('period_start', 'text')
        .addColumn('period_end', 'text')
        .addColumn('opening_balance', t.money)
        .addColumn('closing_balance', t.money)
        .addColumn('balance_check', 'text')
        .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('transaction_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('duplicate_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('matched_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('processed_at', 'text')
        .execute()
      await db.schema.createIndex('bank_statements_company').on('bank_statements').columns(['company_id', 'id']).execute()
      await db.schema.createIndex('bank_statements_account').on('bank_statements').columns(['bank_account_id', 'id']).execute()
      // Partial unique index (both dialects): a failed statement does not hold its file.
      await sql`CREATE UNIQUE INDEX bank_statements_file ON bank_statements (bank_account_id, file_sha256) WHERE status <> 'failed'`.execute(db)
      await db.schema.alterTable('transactions').addColumn('statement_ref', 'text').execute()
      // Partial: rows that came from no statement (every imported or typed-in row) add nothing to it.
      await db.schema
        .createIndex('transactions_statement_ref')
        .on('transactions')
        .columns(['bank_account_id', 'statement_ref'])
        .unique()
        .where(sql.ref('statement_ref'), 'is not', null)
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex('transactions_statement_ref').execute()
      await db.schema.alterTable('transactions').dropColumn('statement_ref').execute()
      await db.schema.dropTable('bank_statements').execute()
    },
  }
}

/**
 * Indexes that only some rows need are partial: a row without a statement or without a category
 * (every freshly imported row) adds nothing to them. Queries filter with `= value`, which implies
 * NOT NULL, so both SQLite and PostgreSQL still use them.
 */
function partialIndexes(): Migration {
  const rebuild = async (db: AnyDb, partial: boolean) => {
    await db.schema.dropIndex('transactions_company_category').execute()
    await db.schema.dropIndex('transactions_statement').execute()
    // With `id` last it also gives the keyset order (date, id), so a page of a rare category is read
    // from it alone instead of scanning the whole date index for matches.
    const category = db.schema.createIndex('transactions_company_category').on('transactions').columns(['company_id', 'category', 'transaction_date', ...(partial ? ['id'] : [])])
    const statement = db.schema.createIndex('transactions_statement').on('transactions').columns(['bank_statement_id', 'transaction_date'])
    await (partial ? category.where(sql.ref('category'), 'is not', null) : category).execute()
    await (partial ? statement.where(sql.ref('bank_statement_id'), 'is not', null) : statement).execute()
  }
  return { up: (db: AnyDb) => rebuild(db, true), down: (db: AnyDb) => rebuild(db, false) }
}

/**
 * Categorization: a company's ordered rules, and its settings for the learned model (threshold,
 * on/off) with a version that every change of labelled data moves on, so that each process knows
 * when its in-memory model is behind the database.
 */
function categorization(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('categorization_rules')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('conditions', 'text', (c) => c.notNull())
        .addColumn('actions', 'text', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('categorization_rules_company').on('categorization_rules').columns(['company_id', 'position']).execute()
      await db.schema
        .createTable('categorization_settings')
        .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
        .addColumn('auto_categorize', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('threshold', 'real', (c) => c.notNull().defaultTo(0.9))
        .addColumn('labels_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('categorization_settings').execute()
      await db.schema.dropTable('categorization_rules').execute()
    },
  }
}

/**
 * Amount order on SQLite from a one-column index. `(company_id, amount, id)` took 37 µs of an
 * imported row's 81 µs at 1,000,000 rows (every insert lands on a random page, and the index,
 * about 130 MB, outgrew the page cache); `(amount)` alone, a fifth of its size, takes 13 µs. The
 * list names it for amount sorts (INDEXED BY, see transaction-queries.ts) and checks the company
 * per row, which costs nothing when one company owns the file, as an embedded database does.
 * PostgreSQL, where several companies share a server, keeps the company-first index.
 */
export const AMOUNT_INDEX = 'transactions_amount'
function amountIndex(dialect: Dialect): Migration {
  if (dialect === 'postgres') return { up: async () => {}, down: async () => {} }
  return {
    async up(db: AnyDb) {
      await db.schema.dropIndex('transactions_company_amount').execute()
      await db.schema.createIndex(AMOUNT_INDEX).on('transactions').column('amount').execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex(AMOUNT_INDEX).execute()
      await db.schema.createIndex('transactions_company_amount').on('transactions').columns(['company_id', 'amount', 'id']).execute()
    },
  }
}

/**
 * Who created a transaction, and how (`create`, `batch_create`, `statement_import`), on the row
 * itself instead of an audit entry per row: an imported row wrote a second row and a second index
 * entry that said nothing the transaction row could not say. `history` puts the creation first
 * from these columns; rows created before this migration have NULL here and keep their creation
 * entry in audit_entries. Deleting a transaction writes its creation entry there (see
 * deleteTransaction), so the audit trail of a deleted transaction stays whole.
 */
function creationColumns(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('transactions').addColumn('created_by', 'text').execute()
      await db.schema.alterTable('transactions').addColumn('created_via', 'text').execute()
    },
    async down(db: AnyDb) {
      await db.schema.alterTable('transactions').dropColumn('created_via').execute()
      await db.schema.alterTable('transactions').dropColumn('created_by').execute()
    },
  }
}

/** Every migration, in order. Names sort in the order they run. */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_foundation': foundation(dialect),
    '0002_transactions_complete': transactionsComplete(dialect),
    '0003_import_refs': importRefs(),
    '0004_reports': reportIndexes(),
    '0005_statements': statementsTable(dialect),
    '0006_partial_indexes': partialIndexes(),
    '0007_categorization': categorization(),
    '0008_amount_index': amountIndex(dialect),
    '0009_creation_columns': creationColumns(),
  }
}


/** Bring a database up to the latest migration (kysely's Migrator; it locks on PostgreSQL). */
export async function migrate(db: AnyDb, all: Record<string, Migration>, schema?: string): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => all }
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema: schema }).migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`database migration ${failed ?? ''} failed: ${(error as Error).message ?? error}`)
  }
}


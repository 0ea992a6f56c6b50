/**
 * The shared store: PostgreSQL through pg. Several `finctl serve` processes can share one database:
 * rate limits, idempotency and usage are kept with row-level atomic statements.
 */
import pg from 'pg'
import { atFirstWrite } from '../../kernel/first-write.js'
import { type DatabaseIntrospector, Kysely, PostgresDialect, sql, type TableMetadata } from 'kysely'
import { migrate, migrations } from '../migrations/index.js'
import { COPY_MIN_ROWS, copyTransactions } from './row-inserts.js'
import { postgresBulkLoad, TransactionStatistics } from './bulk-load.js'
import { BatchedReads } from './batched-reads.js'
import { GroupedInserts } from './grouped-inserts.js'
import { RateLimitTakes } from './rate-limit.js'
import { insertApiRequests } from './usage.js'
import { type PendingReview, type PendingRowValues, stagePendingRows } from '../pending-rows.js'
import type { BankAccountRow, Db, KeyWithCreator, NewApiRequestRow } from '../schema.js'
import { postgresAdapter } from './adapter.js'
import { keyWithCreatorSql } from '../queries.js'
import { dialectWrites } from '../writes.js'
import { type NewTransactionRow, TransactionCodec } from '../transaction-codec.js'
import {
  type BulkLoad,
  InsertedRows,
  type HotPaths,
  type InsertOptions,
  type RateLimitInput,
  type RateLimitResult,
  type Store,
} from '../store.js'

export interface PostgresOptions {
  /** Schema to work in (created if missing); tests use one per run. */
  schema?: string
  poolSize?: number
}

const INT8_OID = 20

function parseInt8(value: string): number {
  const n = Number(value)
  if (!Number.isSafeInteger(n)) throw new Error(`bigint value out of safe range: ${value}`)
  return n
}

/**
 * kysely's PostgreSQL introspector, which its Migrator asks whether the migration tables exist, reads
 * the tables of every schema on the server, and names each by its schema in
 * `pg_get_serial_sequence`: a schema dropped meanwhile by anyone else failed our migration
 * (`schema "..." does not exist`). This one reads the store's own schema only.
 */
export class OwnSchemaDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly schema: string,
  ) {
    super(config)
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    const schema = this.schema
    return {
      async getSchemas() {
        const r = await sql<{ name: string }>`SELECT nspname AS name FROM pg_namespace WHERE nspname = ${schema}`.execute(db)
        return r.rows
      },
      async getTables(): Promise<TableMetadata[]> {
        const r = await sql<{ name: string; kind: string }>`
          SELECT c.relname AS name, c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`.execute(db)
        return r.rows.map((t) => ({
          name: t.name,
          schema,
          isView: t.kind === 'v' || t.kind === 'm',
          isForeign: t.kind === 'f',
          columns: [],
        }))
      },
    }
  }
}

/** Create `schema` in the database at `url` unless it is there (a name checked by the caller). */
export async function createSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
  } finally {
    await admin.end()
  }
}

export async function openPostgresStore(url: string, opts: PostgresOptions = {}): Promise<Store> {
  const schema = opts.schema
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`)
  const types = {
    getTypeParser: ((oid: number, format?: string) =>
      oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  }
  if (schema) await createSchema(url, schema)
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    types,
    // Set at connection start-up, so every pooled connection works in the schema.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  })
  const db = new Kysely<Db>({ dialect: new OwnSchemaDialect({ pool }, schema ?? 'public') })
  await migrate(db, migrations('postgres'), schema ?? 'public')
  const tx = new TransactionCodec(postgresAdapter, db)
  return {
    dialect: 'postgres',
    sql: postgresAdapter.sql,
    writes: dialectWrites(tx),
    db,
    hot: new PostgresHotPaths(db, pool, tx),
    tx,
    location: redactUrl(url),
    writeTransaction: (fn) =>
      db.transaction().execute(async (trx) => {
        await atFirstWrite(trx)
        return fn(trx)
      }),
    async close() {
      await db.destroy()
    },
  }
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return 'postgres'
  }
}

const KEYS_BY_HASH = keyWithCreatorSql('= ANY($1::text[])')
const ACCOUNT_BY_ID = 'SELECT * FROM bank_accounts WHERE id = $1 AND company_id = $2'
// Each (account, company) asked: the company's row, the account's columns (all null when it is not
// the company's) beside it; the pair asked comes back by name, since the account's id may be null.
const ACCOUNTS_AND_LOCKS =
  'SELECT q.account_id AS finctl_q_account, q.company_id AS finctl_q_company, a.*, c.lock_date AS finctl_lock_date' +
  ' FROM unnest($1::text[], $2::text[]) AS q(account_id, company_id) JOIN companies c ON c.id = q.company_id' +
  ' LEFT JOIN bank_accounts a ON a.id = q.account_id AND a.company_id = c.id'

type AccountAndLock = { account: BankAccountRow | undefined; lockDate: string | null }
type AccountAndLockRow = BankAccountRow & { finctl_q_account: string; finctl_q_company: string; finctl_lock_date: string | null }

class PostgresHotPaths implements HotPaths {
  private readonly statistics: TransactionStatistics
  private readonly grouped: GroupedInserts
  private readonly keys: BatchedReads<KeyWithCreator>
  private readonly accounts: BatchedReads<AccountAndLock>
  private readonly takes: RateLimitTakes
  constructor(
    private readonly db: Kysely<Db>,
    private readonly pool: pg.Pool,
    private readonly codec: TransactionCodec,
  ) {
    this.statistics = new TransactionStatistics(db)
    this.grouped = new GroupedInserts(pool, codec)
    this.takes = new RateLimitTakes(pool)
    this.keys = new BatchedReads(async (hashes) => {
      const rows = (await pool.query<KeyWithCreator>(KEYS_BY_HASH, [hashes])).rows
      return new Map(rows.map((r) => [r.key_hash, r]))
    })
    // A create's account and lock date, read with those of the creates of the same moment.
    this.accounts = new BatchedReads(async (pairs) => {
      const asked = pairs.map((p) => JSON.parse(p) as [string, string])
      const { rows } = await pool.query<AccountAndLockRow>(ACCOUNTS_AND_LOCKS, [asked.map((p) => p[1]), asked.map((p) => p[0])])
      return new Map(
        rows.map((row) => {
          const { finctl_q_account: id, finctl_q_company: companyId, finctl_lock_date: lockDate, ...account } = row
          return [JSON.stringify([companyId, id]), { account: account.id === null ? undefined : account, lockDate }]
        }),
      )
    })
  }

  // Every request's statements as fixed texts on the pool: no query built and compiled a call.
  async findKeyByHash(hash: string): Promise<KeyWithCreator | undefined> {
    // Each caller its own row: two requests of one key may share a read.
    const row = await this.keys.get(hash)
    return row && { ...row }
  }

  async findBankAccount(companyId: string, id: string): Promise<BankAccountRow | undefined> {
    return (await this.pool.query<BankAccountRow>(ACCOUNT_BY_ID, [id, companyId])).rows[0]
  }

  async findBankAccountAndLock(companyId: string, id: string): Promise<AccountAndLock> {
    const found = await this.accounts.get(JSON.stringify([companyId, id]))
    // Each caller its own row, as for keys.
    return found ? { account: found.account && { ...found.account }, lockDate: found.lockDate } : { account: undefined, lockDate: null }
  }

  takeRateLimit(i: RateLimitInput): Promise<RateLimitResult> {
    return this.takes.take(i)
  }

  insertApiRequests(rows: NewApiRequestRow[]): Promise<void> {
    return insertApiRequests(this.pool, rows)
  }

  readonly recordsJoinGroups = false

  // Every write here resolves once committed: nothing is acknowledged early, nothing to wait for.
  answering<T>(fn: () => Promise<T>): Promise<T> {
    return fn()
  }

  durable(): Promise<void> {
    return Promise.resolve()
  }

  stagePendingRows(review: PendingReview, rows: readonly PendingRowValues[]): Promise<void> {
    return this.db.transaction().execute((trx) => stagePendingRows(trx, review, rows))
  }

  /** PostgreSQL sets nothing aside for bulk loads; at their end, it refreshes the table's statistics (bulk-load.ts). */
  bulkLoad(): BulkLoad {
    return postgresBulkLoad((rows, o) => this.insertTransactions(rows, o), this.statistics)
  }

  async insertTransactions(rows: NewTransactionRow[], o: InsertOptions = {}): Promise<InsertedRows> {
    if (rows.length === 0) return InsertedRows.byPlace(rows, new Uint8Array(0))
    await this.codec.prepareActors(rows)
    // The insert's event goes in the same database transaction as its rows (docs/events.md), either way.
    if (rows.length < COPY_MIN_ROWS) {
      // With the other small inserts of this turn, in one transaction (grouped-inserts.ts).
      const done = await this.grouped.insert(rows, o)
      this.statistics.wrote(done.size)
      return done
    }
    const eventOf = (ids: Set<string>) => o.event?.(InsertedRows.ofIds(rows, ids))
    const inserted = await copyTransactions(this.pool, this.codec, rows, eventOf, o.batch)
    this.statistics.wrote(inserted.size)
    return InsertedRows.ofIds(rows, inserted)
  }
}

/**
 * Transactions as finctl's domain sees them (`TransactionRow`: the UUID as text, the account's id,
 * every column whole) and as they are stored (`TransactionsTable` in schema.ts: an integer `seq`, the
 * UUID in 16 bytes, integer keys of the company, account and creator, columns equal to another left
 * NULL). This module is the one place that converts between the two; the domain reads rows through
 * `decode` and writes them through `insert`, `update` and the store's hot paths.
 *
 * Keys that are cached (per store): a company's key (a company is never deleted and its key never
 * changes) and the actors' keys (an actor row is never deleted or changed, and is written in a
 * transaction of its own before any row names it, so a cached key always names a committed row).
 * An account's id is looked up by key with every decode: accounts can be deleted, and one query per
 * page of rows costs nothing beside the rows.
 */
import type { Kysely } from 'kysely'
import { notFound } from '../kernel/errors.js'
import type { OptionalTransactionColumn, StoredTransactionColumn, TransactionColumnValues } from '../kernel/transaction-fields.js'
import type { DialectAdapter } from './dialect-adapter.js'
import { type Db, type StoredId, type StoredTransactionRow, type StoredTransactionValues, TX_COLUMNS } from './schema.js'

/** A transaction as the domain reads it: every column of src/kernel/transaction-fields.ts, whole. */
export type TransactionRow = TransactionColumnValues

/** A transaction to insert: every column but seq (the database's), some optional. */
export type NewTransactionRow = Omit<TransactionRow, 'seq' | OptionalTransactionColumn> &
  Partial<Pick<TransactionRow, OptionalTransactionColumn>>

/** The columns a change never touches: the row's identity, company, creation and import_ref. */
type Fixed = 'id' | 'company_key' | 'created_at' | 'import_ref' | 'created_by' | 'created_via'

/** Each stored column's place in TX_COLUMNS (encodeValues). */
const AT = Object.fromEntries(TX_COLUMNS.map((c, i) => [c, i])) as Record<StoredTransactionColumn, number>

/** created_via as stored. */
export const CREATED_VIA = { create: 1, batch_create: 2, statement_import: 3 } as const
const VIA_NAMES: Record<number, string> = { 1: 'create', 2: 'batch_create', 3: 'statement_import' }

/** The key of an import_ref in an account, as InsertOptions.existing and duplicate reports name it. */
export const refKey = (accountKey: number, ref: string | null | undefined): string => `${accountKey}\u0000${ref}`

/** The value of each hex digit's character code (0-9, a-f, A-F), -1 for any other below 128. */
const HEX_VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < 10; i++) HEX_VALUE[48 + i] = i
for (let i = 0; i < 6; i++) HEX_VALUE[97 + i] = HEX_VALUE[65 + i] = 10 + i
/** Where each of a UUID's 16 bytes starts in its text (8-4-4-4-12 hex digits, dashes between). */
const BYTE_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]

/**
 * A UUID's 16 bytes; undefined for text that is not a UUID (no transaction has it). Read digit by
 * digit: every row a batch creates passes here, and a regular expression, five slices and a hex
 * decode showed in an import's profile (docs/performance.md, "Inserting a row").
 */
export function uuidBytes(id: string): Buffer | undefined {
  if (id.length !== 36) return undefined
  if (id.charCodeAt(8) !== 45 || id.charCodeAt(13) !== 45 || id.charCodeAt(18) !== 45 || id.charCodeAt(23) !== 45) return undefined
  const out = Buffer.allocUnsafe(16)
  for (let b = 0; b < 16; b++) {
    const at = BYTE_AT[b]
    const c1 = id.charCodeAt(at)
    const c2 = id.charCodeAt(at + 1)
    const hi = c1 < 128 ? HEX_VALUE[c1] : -1
    const lo = c2 < 128 ? HEX_VALUE[c2] : -1
    if ((hi | lo) < 0) return undefined
    out[b] = (hi << 4) | lo
  }
  return out
}

/** A UUID's text (lower case) from its 16 bytes. */
export function uuidText(bytes: Uint8Array): string {
  const h = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

export class TransactionCodec {
  private readonly companyKeys = new Map<string, number>()
  private readonly companyIds = new Map<number, string>()
  private readonly actorKeys = new Map<string, number>()
  private readonly actorNames = new Map<number, string>()

  constructor(
    /** What the store's dialect does its own way (the stored form of an id among it). */
    readonly adapter: DialectAdapter,
    /** The store's own handle, outside any transaction (actors are written in a transaction of their own). */
    private readonly base: Kysely<Db>,
    /**
     * Called inside a write transaction before import_refs are written outside the hot path: on SQLite,
     * builds the unique (account_key, import_ref) index again if a bulk load set it aside.
     */
    private readonly beforeRefWrites: () => void = () => {},
  ) {}

  /** Before writing import_refs (inside the write transaction): the unique index is there (see beforeRefWrites). */
  refsWillChange(): void {
    this.beforeRefWrites()
  }

  /** The stored form of a transaction id; undefined when `id` is not a UUID (no transaction has it). */
  idParam(id: string): StoredId | undefined {
    return this.adapter.storedId(id)
  }

  /**
   * The lowest and highest stored ids that start with `hex` (1 to 32 lower-case hex digits, no
   * dashes): a range the unique index on id answers (a short id's prefix, docs/cli.md "Short ids").
   */
  idRange(hex: string): [StoredId, StoredId] {
    const text = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
    return [this.storedId(text(hex.padEnd(32, '0'))), this.storedId(text(hex.padEnd(32, 'f')))]
  }

  /** The stored forms of ids, those that are UUIDs. */
  idParams(ids: readonly string[]): StoredId[] {
    const out: StoredId[] = []
    for (const id of ids) {
      const p = this.idParam(id)
      if (p !== undefined) out.push(p)
    }
    return out
  }

  /** A stored id as text. */
  idText(v: StoredId): string {
    return typeof v === 'string' ? v : uuidText(v)
  }

  /** A company's key (`db` may be an open transaction). */
  async companyKey(companyId: string, db: Kysely<Db> = this.base): Promise<number> {
    const known = this.companyKeys.get(companyId)
    if (known !== undefined) return known
    const row = await db.selectFrom('companies').select('key').where('id', '=', companyId).executeTakeFirst()
    if (!row) throw notFound('company')
    this.companyKeys.set(companyId, Number(row.key))
    this.companyIds.set(Number(row.key), companyId)
    return Number(row.key)
  }

  /** The id of a company by key, known already (companyKey or prepareActors); a programming error otherwise. */
  companyIdOf(key: number): string {
    const id = this.companyIds.get(key)
    if (id === undefined) throw new Error(`company ${key} was not prepared before the write (TransactionCodec.prepareActors)`)
    return id
  }

  /**
   * The key of an actor (`key:ID`, `user:ID`), written if new. Runs on the store's own handle in a
   * statement of its own, never inside the caller's transaction: call it before opening one.
   */
  async actorKey(name: string): Promise<number> {
    const known = this.actorKeys.get(name)
    if (known !== undefined) return known
    await this.base
      .insertInto('actors')
      .values({ name })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute()
    const row = await this.base.selectFrom('actors').select('key').where('name', '=', name).executeTakeFirstOrThrow()
    const key = Number(row.key)
    this.actorKeys.set(name, key)
    this.actorNames.set(key, name)
    return key
  }

  /**
   * The actors' keys of rows about to be written (each written if new), and their companies' ids (the
   * creation's audit entry names the company), before the write transaction.
   */
  async prepareActors(rows: ReadonlyArray<{ created_by?: string | null; company_key?: number }>): Promise<void> {
    let last: string | undefined
    let lastCompany: number | undefined
    for (const r of rows) {
      if (r.company_key !== undefined && r.company_key !== lastCompany) {
        lastCompany = r.company_key
        if (!this.companyIds.has(r.company_key)) {
          const c = await this.base.selectFrom('companies').select('id').where('key', '=', r.company_key).executeTakeFirst()
          if (c) {
            this.companyIds.set(r.company_key, c.id)
            this.companyKeys.set(c.id, r.company_key)
          }
        }
      }
      if (!r.created_by || r.created_by === last) continue
      last = r.created_by
      if (!this.actorKeys.has(r.created_by)) await this.actorKey(r.created_by)
    }
  }

  /** The key of an actor already prepared (prepareActors); a programming error otherwise. */
  knownActorKey(name: string): number {
    const key = this.actorKeys.get(name)
    if (key === undefined) throw new Error(`actor ${name} was not prepared before the write (TransactionCodec.prepareActors)`)
    return key
  }

  /** A row as stored, to insert. The actor must be prepared (prepareActors). */
  encode(row: NewTransactionRow): StoredTransactionValues {
    return {
      id: this.storedId(row.id),
      company_key: row.company_key,
      ...changeable(row),
      created_at: row.created_at,
      import_ref: row.import_ref ?? null,
      created_by: row.created_by ? this.knownActorKey(row.created_by) : null,
      created_via: row.created_via ? viaCode(row.created_via) : null,
    }
  }

  /**
   * A row's stored values in TX_COLUMNS order, into `out` (the SQLite hot path: no object a row):
   * the values `encode` gives (test/store/hot-paths.test.ts holds them to it). The actor
   * must be prepared (prepareActors).
   */
  encodeValues(row: NewTransactionRow, out: Array<StoredId | string | number | null>): void {
    out[AT.id] = this.storedId(row.id)
    out[AT.company_key] = row.company_key
    out[AT.account_key] = row.account_key
    out[AT.bank_statement_id] = row.bank_statement_id
    out[AT.transaction_date] = row.transaction_date
    out[AT.posted_date] = row.posted_date === row.transaction_date ? null : row.posted_date
    out[AT.description] = row.description
    out[AT.original_description] = row.original_description === row.description ? null : row.original_description
    out[AT.amount] = row.amount
    out[AT.currency_code] = row.currency_code
    out[AT.exchange_rate] = row.exchange_rate
    out[AT.base_amount] = row.base_amount
    out[AT.category] = row.category
    out[AT.accounting_category] = row.accounting_category
    out[AT.cash_flow_category] = row.cash_flow_category
    out[AT.merchant_name] = row.merchant_name
    out[AT.status] = row.status
    out[AT.is_reconciled] = row.is_reconciled
    out[AT.ai_confidence_score] = row.ai_confidence_score
    out[AT.tags] = row.tags
    out[AT.created_at] = row.created_at
    out[AT.updated_at] = row.updated_at === row.created_at ? null : row.updated_at
    out[AT.import_ref] = row.import_ref ?? null
    out[AT.statement_ref] = row.statement_ref ?? null
    out[AT.created_by] = row.created_by ? this.knownActorKey(row.created_by) : null
    out[AT.created_via] = row.created_via ? viaCode(row.created_via) : null
    out[AT.exchange_rate_date] = row.exchange_rate_date ?? null
  }

  private storedId(id: string): StoredId {
    const p = this.idParam(id)
    if (p === undefined) throw new Error(`not a UUID: ${id}`)
    return p
  }

  /** Stored rows as the domain reads them (`db` may be an open transaction). */
  async decode(db: Kysely<Db>, rows: StoredTransactionRow[]): Promise<TransactionRow[]> {
    if (rows.length === 0) return []
    const accountKeys = new Set<number>()
    const actorKeys = new Set<number>()
    for (const r of rows) {
      accountKeys.add(Number(r.account_key))
      if (r.created_by != null && !this.actorNames.has(Number(r.created_by))) actorKeys.add(Number(r.created_by))
    }
    const accounts = await this.accountIds(db, [...accountKeys])
    if (actorKeys.size) {
      const found = await db
        .selectFrom('actors')
        .select(['key', 'name'])
        .where('key', 'in', [...actorKeys])
        .execute()
      for (const a of found) this.actorNames.set(Number(a.key), a.name)
    }
    // A list page reads its rows by the same rules (shown-transactions.ts; test/store/shown-transactions.test.ts).
    return rows.map((r) => {
      const accountId = accounts.get(Number(r.account_key))
      if (accountId === undefined) throw new Error(`transaction ${this.idText(r.id)}: no bank account has key ${r.account_key}`)
      return {
        seq: Number(r.seq),
        id: this.idText(r.id),
        company_key: Number(r.company_key),
        account_key: Number(r.account_key),
        bank_account_id: accountId,
        bank_statement_id: r.bank_statement_id,
        transaction_date: r.transaction_date,
        posted_date: r.posted_date ?? r.transaction_date,
        description: r.description,
        original_description: r.original_description ?? r.description,
        amount: Number(r.amount),
        currency_code: r.currency_code,
        exchange_rate: r.exchange_rate,
        base_amount: Number(r.base_amount),
        category: r.category,
        accounting_category: r.accounting_category,
        cash_flow_category: r.cash_flow_category,
        merchant_name: r.merchant_name,
        status: r.status,
        is_reconciled: Number(r.is_reconciled),
        ai_confidence_score: r.ai_confidence_score,
        tags: r.tags,
        created_at: r.created_at,
        updated_at: r.updated_at ?? r.created_at,
        import_ref: r.import_ref,
        statement_ref: r.statement_ref,
        created_by: r.created_by == null ? null : (this.actorNames.get(Number(r.created_by)) ?? null),
        created_via: r.created_via == null ? null : (VIA_NAMES[Number(r.created_via)] ?? null),
        exchange_rate_date: r.exchange_rate_date,
      }
    })
  }

  /** The ids of bank accounts by key (`db` may be an open transaction). */
  async accountIds(db: Kysely<Db>, keys: number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>()
    for (let i = 0; i < keys.length; i += 500) {
      const found = await db
        .selectFrom('bank_accounts')
        .select(['key', 'id'])
        .where('key', 'in', keys.slice(i, i + 500))
        .execute()
      for (const a of found) out.set(Number(a.key), a.id)
    }
    return out
  }

  /**
   * Insert rows through kysely, inside the caller's transaction `db`, in statements of 500; a row
   * whose import_ref its account holds already is left out. The ids of the rows inserted. The actors
   * must be prepared (prepareActors), before the transaction.
   */
  async insert(db: Kysely<Db>, rows: NewTransactionRow[]): Promise<Set<string>> {
    const inserted = new Set<string>()
    // ON CONFLICT names the unique ref index, rows with a ref or not: it must be there.
    if (rows.length) this.beforeRefWrites()
    for (let i = 0; i < rows.length; i += 500) {
      const done = await db
        .insertInto('transactions')
        .values(rows.slice(i, i + 500).map((r) => this.encode(r)))
        .onConflict((oc) => oc.columns(['account_key', 'import_ref']).doNothing())
        .returning('id')
        .execute()
      for (const d of done) inserted.add(this.idText(d.id))
    }
    return inserted
  }

  /** Write a changed row: every column a change may touch (not its identity, company, creation or import_ref), inside `db`. */
  async update(db: Kysely<Db>, row: TransactionRow): Promise<void> {
    await db.updateTable('transactions').set(changeable(row)).where('seq', '=', row.seq).execute()
  }
}

/**
 * The stored values of every column a change may touch (not the row's identity, company, creation or
 * import_ref), as insert and update write them: dates, descriptions and times equal to the ones they
 * default to are left NULL. encodeValues writes the same values on the hot path.
 */
function changeable(row: TransactionRow | NewTransactionRow): Omit<StoredTransactionValues, Fixed> {
  return {
    account_key: row.account_key,
    bank_statement_id: row.bank_statement_id,
    transaction_date: row.transaction_date,
    posted_date: row.posted_date === row.transaction_date ? null : row.posted_date,
    description: row.description,
    original_description: row.original_description === row.description ? null : row.original_description,
    amount: row.amount,
    currency_code: row.currency_code,
    exchange_rate: row.exchange_rate,
    base_amount: row.base_amount,
    category: row.category,
    accounting_category: row.accounting_category,
    cash_flow_category: row.cash_flow_category,
    merchant_name: row.merchant_name,
    status: row.status,
    is_reconciled: row.is_reconciled,
    ai_confidence_score: row.ai_confidence_score,
    tags: row.tags,
    updated_at: row.updated_at === row.created_at ? null : row.updated_at,
    statement_ref: row.statement_ref ?? null,
    exchange_rate_date: row.exchange_rate_date ?? null,
  }
}

function viaCode(via: string): number {
  const code = (CREATED_VIA as Record<string, number>)[via]
  if (code === undefined) throw new Error(`unknown created_via: ${via}`)
  return code
}

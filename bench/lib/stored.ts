/**
 * The bench's raw SQLite baselines write and read transactions as the store keeps them (the
 * compact layout of migration 0011), so that a ceiling does the same storage work as finctl:
 * rows in TX_COLUMNS order as stored, and the keys of a company and its accounts.
 */
import type Database from 'better-sqlite3'
import { TX_COLUMNS } from '../../src/store/schema.js'
import { type NewTransactionRow, TransactionCodec } from '../../src/store/transaction-codec.js'
import { sqliteAdapter } from '../../src/store/sqlite/adapter.js'

export { uuidText } from '../../src/store/transaction-codec.js'

// Rows here name no creator (created_by null), so the codec never looks an actor up.
const codec = new TransactionCodec(sqliteAdapter, undefined as never)

/** INSERT of one transaction as stored, its values in TX_COLUMNS order (storedValues). */
export const INSERT_STORED = `INSERT INTO transactions (${TX_COLUMNS.join(', ')}) VALUES (${TX_COLUMNS.map(() => '?').join(', ')})`

/** A row's values as stored (created_by must be null). */
export function storedValues(row: NewTransactionRow): unknown[] {
  const out: unknown[] = new Array(TX_COLUMNS.length)
  codec.encodeValues(row, out as Parameters<TransactionCodec['encodeValues']>[1])
  return out
}

/** The keys of a bank account and its company, read from the file. */
export function keysOf(db: Database.Database, accountId: string): { companyId: string; companyKey: number; accountKey: number } {
  const r = db
    .prepare(
      'SELECT a.company_id AS companyId, c.key AS companyKey, a.key AS accountKey FROM bank_accounts a JOIN companies c ON c.id = a.company_id WHERE a.id = ?',
    )
    .get(accountId) as { companyId: string; companyKey: number; accountKey: number } | undefined
  if (!r) throw new Error(`no bank account ${accountId}`)
  return r
}

/** SQLite's writes inside a write transaction (DialectWrites in ../store.ts): the audit chain on the raw connection. */
import type BetterSqlite3 from 'better-sqlite3'
import { appendAuditSync, appendChainedSync, chainHeadSync, GENESIS, type RawChainSql } from '../audit-chain.js'
import type { DialectWrites } from '../store.js'
import type { TransactionCodec } from '../transaction-codec.js'
import { dialectWrites } from '../writes.js'

/**
 * The dialect's writes, with entries appended by one prepared statement a row inside the open
 * transaction (as the hot paths do): cheaper than kysely's multi-row inserts for a large revert's
 * entries. Outside a transaction, kysely's way keeps the head and rows together.
 */
export function sqliteWrites(raw: BetterSqlite3.Database, tx: TransactionCodec): DialectWrites {
  const base = dialectWrites(tx)
  const chain = sqliteChainSql(raw)
  return {
    ...base,
    appendAudit: async (trx, rows, chunk) => (raw.inTransaction ? appendAuditSync(chain, rows) : base.appendAudit(trx, rows, chunk)),
    chainHead: async (trx, companyId) => (raw.inTransaction ? chainHeadSync(chain, companyId) : base.chainHead(trx, companyId)),
    appendChained: async (trx, companyId, rows) =>
      raw.inTransaction ? appendChainedSync(chain, companyId, rows) : base.appendChained(trx, companyId, rows),
  }
}

/**
 * The audit chain's statements on the raw connection (appendAuditSync), prepared on first use: a
 * store is opened by every command, and most append nothing (8 statements a read did not need).
 */
export function sqliteChainSql(raw: BetterSqlite3.Database): RawChainSql {
  const lazy = (sql: string) => {
    let statement: BetterSqlite3.Statement | undefined
    return () => (statement ??= raw.prepare(sql))
  }
  const head = lazy('SELECT last_id, hash FROM audit_chain_heads WHERE company_id = ?')
  const create = lazy(
    `INSERT INTO audit_chain_heads (company_id, last_id, hash) VALUES (?, 0, '${GENESIS}') ON CONFLICT (company_id) DO NOTHING`,
  )
  const insert = lazy(
    'INSERT INTO audit_entries (company_id, transaction_id, actor, action, changes, created_at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const move = lazy('UPDATE audit_chain_heads SET last_id = ?, hash = ? WHERE company_id = ?')
  return {
    head: (c) => head().get(c) as { last_id: number; hash: string } | undefined,
    createHead: (c) => create().run(c),
    insert: (r) =>
      insert().run(r.company_id, r.transaction_id, r.actor, r.action, r.changes, r.created_at, r.prev_hash, r.hash).lastInsertRowid,
    moveHead: (c, id, hash) => move().run(id, hash, c),
  }
}

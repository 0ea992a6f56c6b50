/**
 * The hash chain of audit_entries (docs/audit.md): per company, each entry holds the hash of the
 * entry before it (prev_hash) and its own hash, SHA-256 over prev_hash and a canonical form of its
 * fields. The company's row in audit_chain_heads holds the last entry's id and hash; every writer
 * locks it (PostgreSQL: FOR UPDATE; SQLite: writers take turns already), so two writers never
 * chain onto the same entry, and a row appended without it is found by `verifyChain`.
 */
import { hash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { ChainedAuditEntryRow, Db, NewAuditEntryRow } from './schema.js'
import type { DialectSql } from './dialect-adapter.js'

/** prev_hash of a company's first entry. */
export const GENESIS = '0'.repeat(64)

export interface ChainedFields {
  company_id: string
  transaction_id: string
  actor: string
  action: string
  changes: string
  created_at: string
}

/** SHA-256 (hex) of the previous hash and the entry's fields as a JSON array (the id is not in it: it is the order). */
export function entryHash(prev: string, e: ChainedFields): string {
  const canonical = JSON.stringify([e.company_id, e.transaction_id, e.actor, e.action, e.changes, e.created_at])
  // One-shot: the same bytes hashed as one string, without a Hash object an entry (revert, verify).
  return hash('sha256', `${prev}\n${canonical}`, 'hex')
}

/** The company's head, locked for this transaction; created (at the genesis) on the first write. */
async function lockHead(trx: Kysely<Db>, dialect: DialectSql, companyId: string): Promise<{ last_id: number; hash: string }> {
  const read = async () => {
    let q = trx.selectFrom('audit_chain_heads').select(['last_id', 'hash']).where('company_id', '=', companyId)
    if (dialect.rowLocks) q = q.forUpdate()
    return q.executeTakeFirst()
  }
  let head = await read()
  if (!head) {
    await trx
      .insertInto('audit_chain_heads')
      .values({ company_id: companyId, last_id: 0, hash: GENESIS })
      .onConflict((oc) => oc.column('company_id').doNothing())
      .execute()
    head = await read()
  }
  return { last_id: Number(head!.last_id), hash: head!.hash }
}

/**
 * Append entries to their companies' chains inside the caller's write transaction: one head lock,
 * multi-row inserts of `chunk` rows, one head update per company and call.
 */
export async function appendAudit(trx: Kysely<Db>, dialect: DialectSql, rows: readonly NewAuditEntryRow[], chunk = 500): Promise<void> {
  const byCompany = new Map<string, NewAuditEntryRow[]>()
  for (const r of rows) {
    const list = byCompany.get(r.company_id)
    if (list) list.push(r)
    else byCompany.set(r.company_id, [r])
  }
  for (const [companyId, list] of byCompany) {
    const head = await lockHead(trx, dialect, companyId)
    let prev = head.hash
    let lastId = head.last_id
    for (let i = 0; i < list.length; i += chunk) {
      const values = list.slice(i, i + chunk).map((r) => {
        const hash = entryHash(prev, r)
        const row = { ...r, prev_hash: prev, hash }
        prev = hash
        return row
      })
      const ids = await trx.insertInto('audit_entries').values(values).returning('id').execute()
      for (const { id } of ids) lastId = Math.max(lastId, Number(id))
    }
    await trx.updateTable('audit_chain_heads').set({ last_id: lastId, hash: prev }).where('company_id', '=', companyId).execute()
  }
}

/** The hash of a company's head, locked for this transaction (created at the genesis on its first write). */
export async function chainHead(trx: Kysely<Db>, dialect: DialectSql, companyId: string): Promise<string> {
  return (await lockHead(trx, dialect, companyId)).hash
}

/** Entries of one company that must follow its head: a chain worked out elsewhere that does not start at the head is a bug, never written. */
function checkFollows(companyId: string, head: string, rows: readonly ChainedAuditEntryRow[]): void {
  for (let i = 0; i < rows.length; i++) {
    const prev = i === 0 ? head : rows[i - 1].hash
    if (rows[i].company_id !== companyId || rows[i].prev_hash !== prev)
      throw new Error(`audit chain: entry ${i} of ${rows.length} does not follow the chain's head of company ${companyId}`)
  }
}

/**
 * Entries already chained (prev_hash and hash set) appended after their company's head, inside the
 * caller's write transaction: the head locked, then checked to be the first entry's prev_hash.
 */
export async function appendChained(
  trx: Kysely<Db>,
  dialect: DialectSql,
  companyId: string,
  rows: readonly ChainedAuditEntryRow[],
): Promise<void> {
  if (!rows.length) return
  const head = await lockHead(trx, dialect, companyId)
  checkFollows(companyId, head.hash, rows)
  let lastId = head.last_id
  for (let i = 0; i < rows.length; i += 500) {
    const ids = await trx
      .insertInto('audit_entries')
      .values(rows.slice(i, i + 500))
      .returning('id')
      .execute()
    for (const { id } of ids) lastId = Math.max(lastId, Number(id))
  }
  await trx
    .updateTable('audit_chain_heads')
    .set({ last_id: lastId, hash: rows[rows.length - 1].hash })
    .where('company_id', '=', companyId)
    .execute()
}

/** chainHead on SQLite's own connection, inside its open transaction. */
export function chainHeadSync(sql: RawChainSql, companyId: string): string {
  let head = sql.head(companyId)
  if (!head) {
    sql.createHead(companyId)
    head = sql.head(companyId)!
  }
  return head.hash
}

/** appendChained on SQLite's own connection, inside its open transaction. */
export function appendChainedSync(sql: RawChainSql, companyId: string, rows: readonly ChainedAuditEntryRow[]): void {
  if (!rows.length) return
  const head = sql.head(companyId)
  checkFollows(companyId, head?.hash ?? GENESIS, rows)
  if (!head) sql.createHead(companyId)
  let lastId = Number(head?.last_id ?? 0)
  for (const r of rows) lastId = Math.max(lastId, Number(sql.insert(r)))
  sql.moveHead(companyId, lastId, rows[rows.length - 1].hash)
}

/** The chain's statements on SQLite's own connection (the hot paths write without kysely, synchronously). */
export interface RawChainSql {
  /** The company's head row, undefined when there is none yet. */
  head(companyId: string): { last_id: number | string; hash: string } | undefined
  createHead(companyId: string): unknown
  /** Insert the entry; its id. */
  insert(row: ChainedAuditEntryRow): number | bigint
  moveHead(companyId: string, lastId: number, hash: string): unknown
}

/** appendAudit inside SQLite's open transaction on its own connection (writers take turns: no lock to take). */
export function appendAuditSync(sql: RawChainSql, rows: readonly NewAuditEntryRow[]): void {
  for (const [companyId, list] of byCompanyOf(rows)) {
    let head = sql.head(companyId)
    if (!head) {
      sql.createHead(companyId)
      head = sql.head(companyId)!
    }
    let prev = head.hash
    let lastId = Number(head.last_id)
    for (const r of list) {
      const hash = entryHash(prev, r)
      lastId = Math.max(lastId, Number(sql.insert({ ...r, prev_hash: prev, hash })))
      prev = hash
    }
    sql.moveHead(companyId, lastId, prev)
  }
}

function byCompanyOf(rows: readonly NewAuditEntryRow[]): Map<string, NewAuditEntryRow[]> {
  const byCompany = new Map<string, NewAuditEntryRow[]>()
  for (const r of rows) {
    const list = byCompany.get(r.company_id)
    if (list) list.push(r)
    else byCompany.set(r.company_id, [r])
  }
  return byCompany
}

export type BreakKind = 'changed' | 'removed' | 'inserted'

export interface ChainBreak {
  kind: BreakKind
  /** The entry changed or inserted; for a removal, the entry after the gap (null: the gap is at the end). */
  entry_id: number | null
  /** The last intact entry before the break (null: none). */
  after_id: number | null
  message: string
}

export interface ChainReport {
  intact: boolean
  entries: number
  head: { id: number | null; hash: string }
  broken: ChainBreak | null
}

/**
 * Walk a company's chain in id order (on the caller's snapshot) and name the first break: an entry
 * whose fields no longer give its hash (changed), one whose prev_hash is not the hash of the entry
 * before it (the entry it followed was removed), one without a hash or past the head (inserted), or
 * a head whose entry is gone (the last entries were removed).
 */
export async function verifyChain(db: Kysely<Db>, companyId: string, page = 5000): Promise<ChainReport> {
  const headRow = await db
    .selectFrom('audit_chain_heads')
    .select(['last_id', 'hash'])
    .where('company_id', '=', companyId)
    .executeTakeFirst()
  const head = { id: headRow && Number(headRow.last_id) > 0 ? Number(headRow.last_id) : null, hash: headRow?.hash ?? GENESIS }
  let expected = GENESIS
  let afterId: number | null = null
  let count = 0
  let cursor = 0
  const report = (broken: ChainBreak | null): ChainReport => ({ intact: broken === null, entries: count, head, broken })
  for (;;) {
    const rows = await db
      .selectFrom('audit_entries')
      .select(['id', 'company_id', 'transaction_id', 'actor', 'action', 'changes', 'created_at', 'prev_hash', 'hash'])
      .where('company_id', '=', companyId)
      .where('id', '>', cursor)
      .orderBy('id', 'asc')
      .limit(page)
      .execute()
    for (const r of rows) {
      const id = Number(r.id)
      const broken = (kind: BreakKind, entry: number | null, message: string) =>
        report({ kind, entry_id: entry, after_id: afterId, message })
      if (!r.hash || !r.prev_hash) return broken('inserted', id, `audit entry #${id} was inserted outside the chain (it has no hash)`)
      if (head.id === null || id > head.id)
        return broken('inserted', id, `audit entry #${id} was inserted after the chain's head (#${head.id ?? 'none'})`)
      if (entryHash(r.prev_hash, r) !== r.hash)
        return broken('changed', id, `audit entry #${id} was changed: its fields do not give its hash`)
      if (r.prev_hash !== expected) {
        const where = afterId === null ? 'before it' : `between #${afterId} and it`
        return broken(
          'removed',
          id,
          `an audit entry before #${id} was removed (${where}): its prev_hash is not the hash of the entry before it`,
        )
      }
      expected = r.hash
      afterId = id
      count++
    }
    if (rows.length < page) break
    cursor = Number(rows[rows.length - 1].id)
  }
  if (expected !== head.hash) {
    const message =
      head.id === null
        ? "the chain's head was removed or reset"
        : `audit entry #${head.id} (the chain's head) was removed${afterId === null ? '' : `, or entries after #${afterId}`}`
    return report({ kind: 'removed', entry_id: null, after_id: afterId, message })
  }
  return report(null)
}

/**
 * 0017 chains the audit trail (docs/audit.md): audit_entries.prev_hash and hash, and
 * audit_chain_heads, the per-company row every writer locks. Entries already there are chained
 * here, per company in id order, so `finctl verify` covers them too. Two indexes: a company's
 * entries in chain order (verify) and by time (reports --as-of).
 */
import { type ChainedFields, entryHash, GENESIS } from '../audit-chain.js'
import type { AnyDb, Dialect } from './common.js'

const PAGE = 2000

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('audit_entries').addColumn('prev_hash', 'text').execute()
  await db.schema.alterTable('audit_entries').addColumn('hash', 'text').execute()
  await db.schema
    .createTable('audit_chain_heads')
    .addColumn('company_id', 'text', (c) => c.primaryKey())
    .addColumn('last_id', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('audit_entries_company').on('audit_entries').columns(['company_id', 'id']).execute()
  await db.schema.createIndex('audit_entries_company_time').on('audit_entries').columns(['company_id', 'created_at']).execute()

  const companies = await db.selectFrom('audit_entries').select('company_id').distinct().execute()
  for (const { company_id } of companies as Array<{ company_id: string }>) {
    let prev = GENESIS
    let lastId = 0
    for (;;) {
      const rows = await db
        .selectFrom('audit_entries')
        .selectAll()
        .where('company_id', '=', company_id)
        .where('id', '>', lastId)
        .orderBy('id', 'asc')
        .limit(PAGE)
        .execute()
      for (const r of rows) {
        const hash = entryHash(prev, r as ChainedFields)
        await db.updateTable('audit_entries').set({ prev_hash: prev, hash }).where('id', '=', r.id).execute()
        prev = hash
        lastId = Number(r.id)
      }
      if (rows.length < PAGE) break
    }
    await db.insertInto('audit_chain_heads').values({ company_id, last_id: lastId, hash: prev }).execute()
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('audit_entries_company_time').execute()
  await db.schema.dropIndex('audit_entries_company').execute()
  await db.schema.dropTable('audit_chain_heads').execute()
  await db.schema.alterTable('audit_entries').dropColumn('hash').execute()
  await db.schema.alterTable('audit_entries').dropColumn('prev_hash').execute()
}

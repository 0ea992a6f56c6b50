/**
 * 0015 adds bank_statements.worker: `host/pid` of the process that processes a statement (the one
 * that took its upload). A statement left pending or processing by a process of this host that is
 * gone is failed at once, instead of after the heartbeat's lease; null before this migration.
 */
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('bank_statements').addColumn('worker', 'text').execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('bank_statements').dropColumn('worker').execute()
}

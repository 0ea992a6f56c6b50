/**
 * 0025 enforces the period lock inside every write of a transaction row: a row dated on or
 * before its company's lock date cannot be inserted, updated (before or after) or deleted, whatever
 * path writes it. The domain refuses such writes first, with its own words (period-lock.ts); these
 * triggers close the race between a write that read the lock date and a `close` committed
 * meanwhile. On PostgreSQL each write also holds its companies' rows FOR SHARE until it commits, so
 * a close (which takes the row FOR UPDATE) waits for the writes in flight, and writes after it see
 * the new lock date. A later migration that rewrites transaction rows of closed months must drop
 * these triggers first.
 */
import { sql } from 'kysely'
import type { AnyDb, Dialect } from './common.js'
import { PERIOD_LOCKED_RAISE } from '../store-errors.js'

const lockOf = (row: 'NEW' | 'OLD') => `(SELECT lock_date FROM companies WHERE key = ${row}.company_key)`

function sqliteDdl(): string[] {
  const raise = `BEGIN SELECT RAISE(ABORT, '${PERIOD_LOCKED_RAISE}'); END`
  return [
    `CREATE TRIGGER transactions_lock_insert BEFORE INSERT ON transactions
      WHEN NEW.transaction_date <= ${lockOf('NEW')} ${raise}`,
    `CREATE TRIGGER transactions_lock_update BEFORE UPDATE ON transactions
      WHEN OLD.transaction_date <= ${lockOf('OLD')} OR NEW.transaction_date <= ${lockOf('NEW')} ${raise}`,
    `CREATE TRIGGER transactions_lock_delete BEFORE DELETE ON transactions
      WHEN OLD.transaction_date <= ${lockOf('OLD')} ${raise}`,
  ]
}

// Statement triggers over the transition tables: one check a statement, also for COPY.
const PG_EVENTS = [
  ['insert', 'INSERT', 'NEW TABLE AS new_rows', ['new_rows']],
  ['update', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows', ['old_rows', 'new_rows']],
  ['delete', 'DELETE', 'OLD TABLE AS old_rows', ['old_rows']],
] as const

function postgresDdl(): string[] {
  return PG_EVENTS.flatMap(([name, event, referencing, tables]) => {
    const keys = tables.map((t) => `SELECT company_key FROM ${t}`).join(' UNION ')
    const locked = tables
      .map((t) => `EXISTS (SELECT 1 FROM ${t} r JOIN companies c ON c.key = r.company_key WHERE r.transaction_date <= c.lock_date)`)
      .join(' OR ')
    return [
      `CREATE FUNCTION transactions_lock_${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        PERFORM 1 FROM companies WHERE key IN (${keys}) FOR SHARE;
        IF ${locked} THEN RAISE EXCEPTION '${PERIOD_LOCKED_RAISE}'; END IF;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER transactions_lock_${name} AFTER ${event} ON transactions REFERENCING ${referencing}
        FOR EACH STATEMENT EXECUTE FUNCTION transactions_lock_${name}()`,
    ]
  })
}

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  for (const s of dialect === 'postgres' ? postgresDdl() : sqliteDdl()) await sql.raw(s).execute(db)
}

export async function down(db: AnyDb, dialect: Dialect): Promise<void> {
  for (const name of ['insert', 'update', 'delete']) {
    await sql.raw(`DROP TRIGGER IF EXISTS transactions_lock_${name}${dialect === 'postgres' ? ' ON transactions' : ''}`).execute(db)
    if (dialect === 'postgres') await sql.raw(`DROP FUNCTION IF EXISTS transactions_lock_${name}()`).execute(db)
  }
}

/**
 * A database that cannot take a request, in the user's words: locked past the wait, full, damaged,
 * read-only. The store raises these as AppErrors naming its file (what the embedded CLI prints);
 * `finctl serve` answers them without the file (serviceWords) and logs the file instead. Either way
 * the code says what happened, and nothing was written.
 */
import { AppError, type ErrorCode } from '../kernel/errors.js'

export type StoreProblem = 'busy' | 'full' | 'damaged' | 'read_only'

const CODE: Record<StoreProblem, ErrorCode> = {
  busy: 'database_busy',
  full: 'database_full',
  damaged: 'database_damaged',
  read_only: 'database_read_only',
}

/** What the period-lock triggers raise (migration 0025) when a write reached a closed month. */
export const PERIOD_LOCKED_RAISE = 'finctl_period_locked'

/** The period_locked error of a write the lock triggers refused: the domain checked an older lock date. */
export function periodLockedByTrigger(err: unknown): AppError | undefined {
  const message = (err as { message?: unknown } | null)?.message
  if (typeof message !== 'string' || !message.includes(PERIOD_LOCKED_RAISE)) return undefined
  return new AppError(
    'period_locked',
    'a month was closed while this write was under way, and it holds a transaction dated in that month: nothing of this write was saved (finctl close history shows the close; rows of open months can be written again)',
    { cause: err },
  )
}

/** Seconds a client waits before it tries a locked database again (Retry-After). */
export const BUSY_RETRY_AFTER_S = 1

/** The problem behind a driver's error (better-sqlite3's SqliteError, pg's DatabaseError), if it is one. */
export function storeProblemOf(err: unknown): StoreProblem | undefined {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return undefined
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return 'busy'
  // 53100: PostgreSQL's disk_full.
  if (code === 'SQLITE_FULL' || code === '53100') return 'full'
  // XX001, XX002: PostgreSQL's data_corrupted, index_corrupted.
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_') || code === 'XX001' || code === 'XX002')
    return 'damaged'
  // 25006: PostgreSQL's read_only_sql_transaction (a standby, default_transaction_read_only).
  if (code.startsWith('SQLITE_READONLY') || code === '25006') return 'read_only'
  return undefined
}

/** The store error for `problem` on database `file`; `cause` is the driver's error, `waitedMs` the wait for a lock. */
export function storeError(problem: StoreProblem, file: string, o: { cause?: unknown; waitedMs?: number } = {}): AppError {
  const driverCode = (o.cause as { code?: unknown } | undefined)?.code
  const why = typeof driverCode === 'string' ? ` (${driverCode})` : ''
  const db = `the database ${file}`
  const message = {
    busy: `${db} is locked by another process and stayed locked for ${seconds(o.waitedMs ?? 0)}: nothing was written; run the command again once the other one is done (an import, \`finctl serve\`, a backup), or see \`finctl doctor\``,
    full: `${db} cannot grow: its disk is full${why}; nothing was written. Free space on that disk, then run \`finctl doctor\``,
    damaged: `${db} ${driverCode === 'SQLITE_NOTADB' ? 'is not a database, or is damaged' : 'is damaged'}${why}: finctl refuses to write to it. Run \`finctl doctor\`; if its check fails, restore a backup`,
    read_only: `${db} is read-only${why}: nothing was written. Check the permissions of the file and its folder (\`finctl doctor\`)`,
  }[problem]
  return new AppError(CODE[problem], message, {
    cause: o.cause,
    internal: message,
    retryAfter: problem === 'busy' ? BUSY_RETRY_AFTER_S : undefined,
  })
}

/** The same error in the words of a service, whose clients do not see its files (the server's log names the file). */
export function serviceWords(err: AppError): AppError {
  const message = {
    database_busy: "the service's database stayed locked by another process: nothing was written; try again after Retry-After",
    database_full:
      "the service's database is full: nothing was written; its operator must free disk space (the server's log names the file)",
    database_damaged: "the service's database is damaged: writes are refused; its operator should run `finctl doctor` on the server",
    database_read_only: "the service's database is read-only: nothing was written; its operator should check the file's permissions",
  }[err.code as string]
  if (!message) return err
  return new AppError(err.code, message, { internal: err.internal ?? err.message, retryAfter: err.retryAfter, status: err.status })
}

function seconds(ms: number): string {
  const s = ms / 1000
  return `${s >= 10 ? Math.round(s) : Math.round(s * 10) / 10} s`
}

/** A unique index refused a row (another writer inserted the same key first), on either dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/**
 * Processing statements off the request path. POST /statements records the statement (`pending`)
 * and answers 201 at once; the job then runs in the same process: `processing`, parse (on a worker
 * thread for files over WORKER_THRESHOLD bytes), pick the account's statement, write it in one
 * database transaction, `completed` -- or `failed` with the reason, having written nothing.
 *
 * Jobs in flight are kept per store: the core waits for them before it closes (`finctl serve`
 * shutdown, the end of an embedded CLI command), so a clean stop never cuts one off. A job cut off
 * by a crash cannot be resumed (the file is not kept): its heartbeat stops and readers mark it
 * failed after STALE_AFTER_MS (statements.ts).
 */
import { LIABILITY_ACCOUNT_TYPES } from '../../kernel/vocabulary.js'
import type { Store } from '../../store/store.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { AppError } from '../../kernel/errors.js'
import { applyStatement, warningsJson } from './apply.js'
import { parseUpload, StatementFileError, type ParsedUpload } from './parse.js'
import { selectStatement } from './select.js'
import { toStatement, type StatementJob } from './statements.js'
import { eventRow, recordEvents } from '../events.js'
import { trackStatementJob } from './inflight.js'

/**
 * Smaller files parse on the loop in a few milliseconds, whatever they hold (the parsers are linear):
 * a thread would cost more than it saves. `finctl serve` gives 0: every file on a thread.
 */
export const WORKER_THRESHOLD = 16 * 1024
const HEARTBEAT_MS = 20_000

export interface JobDeps {
  now: () => Date
  /** Unexpected errors (bugs, database failures) are reported here; the statement says only "internal error". */
  report?: (err: unknown) => void
  /** Files of more bytes are parsed on a worker thread (default WORKER_THRESHOLD). */
  workerThreshold?: number
}

/** Start processing in the background; returns at once. */
export function startStatementJob(store: Store, job: StatementJob, deps: JobDeps): void {
  trackStatementJob(
    store,
    job.statementId,
    processStatement(store, job, deps).catch((err) => deps.report?.(err)),
  )
}

async function setStatus(store: Store, id: string, from: string, to: string, now: Date): Promise<void> {
  await store.db
    .updateTable('bank_statements')
    .set({ status: to, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', from)
    .execute()
}

/** The file parsed as a statement's job parses it (on a worker thread past `threshold` bytes). */
export async function parseStatementFile(
  job: Pick<StatementJob, 'bytes' | 'fileName' | 'format' | 'account' | 'options'>,
  threshold: number,
): Promise<ParsedUpload> {
  const target = {
    fileName: job.fileName,
    format: job.format,
    currency: job.account.currency_code,
    exponent: currencyExponent(job.account.currency_code),
    ...(LIABILITY_ACCOUNT_TYPES.has(job.account.account_type) ? { liability: true } : {}),
  }
  if (job.bytes.length <= threshold) return parseUpload(job.bytes, target, job.options)
  const { parseInWorker } = await import('./worker.js')
  return parseInWorker(job.bytes, target, job.options)
}

async function processStatement(store: Store, job: StatementJob, deps: JobDeps): Promise<void> {
  const heartbeat = setInterval(() => {
    void store.db
      .updateTable('bank_statements')
      .set({ updated_at: deps.now().toISOString() })
      .where('id', '=', job.statementId)
      .where('status', 'in', ['pending', 'processing'])
      .execute()
      .catch(() => {})
  }, HEARTBEAT_MS)
  heartbeat.unref()
  try {
    await setStatus(store, job.statementId, 'pending', 'processing', deps.now())
    const parsed = await parseStatementFile(job, deps.workerThreshold ?? WORKER_THRESHOLD)
    const selected = selectStatement(
      parsed,
      { name: job.account.name, currency: job.account.currency_code, last4: job.account.account_number_last4 },
      job.options.accountNumber,
    )
    await applyStatement(store, job, selected, deps.now())
  } catch (err) {
    const expected = err instanceof StatementFileError || err instanceof AppError
    if (!expected) deps.report?.(err)
    const message = expected
      ? (err as Error).message
      : 'internal error while processing the statement (reported in the server log): nothing was imported'
    const ts = deps.now().toISOString()
    const lines = err instanceof StatementFileError ? err.lines : []
    await store.writeTransaction(async (trx) => {
      const r = await trx
        .updateTable('bank_statements')
        .set({
          status: 'failed',
          error: message,
          ...(lines.length ? { warnings: warningsJson(lines) } : {}),
          updated_at: ts,
          processed_at: ts,
        })
        .where('id', '=', job.statementId)
        .where('status', 'in', ['pending', 'processing'])
        .executeTakeFirst()
      if (Number(r.numUpdatedRows) !== 1) return
      const stored = await trx.selectFrom('bank_statements').selectAll().where('id', '=', job.statementId).executeTakeFirstOrThrow()
      await recordEvents(store, trx, [eventRow(job.actor, 'statement.failed', job.statementId, toStatement(stored), deps.now())])
    })
  } finally {
    clearInterval(heartbeat)
    job.bytes = new Uint8Array(0)
  }
}

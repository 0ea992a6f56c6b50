/**
 * Review imports (`tx import --review`): the batch's rows are validated as an import's would be and
 * kept as pending rows (import_pending_rows, by line), not as transactions, until `imports apply`
 * (review-apply.ts) lands them through the batch create path, or `imports discard` drops them. A
 * pending batch expires PENDING_DAYS after it was stored; the hourly sweep drops what expired.
 */
import type { Kysely } from 'kysely'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PendingRowValues } from '../../store/pending-rows.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { refKey } from '../../store/transaction-codec.js'
import type { Actor } from '../actor.js'
import { eventRow, recordEvents } from '../events.js'
import { type BatchCreateResponse, CREATE_REQUEST_SHAPE } from '../schemas.js'
import { createTransactionBatch } from '../transactions/create.js'
import { existingByRef } from '../transactions/import-refs.js'
import type { DateWindow } from '../transactions/plausibility.js'
import { finishImportBatch, getImportBatch } from './batches.js'
import {
  PENDING_DAYS,
  type PendingPageData,
  type PendingQuery,
  type PendingRow,
  type SetPendingRowRequest,
  type StageRowsRequest,
  type StageRowsResponse,
} from './review-schemas.js'
import type { FinishImportRequest, ImportBatchDetail } from './schemas.js'

const DAY_MS = 86_400_000

/** The batch's row as the review reads it (through a write transaction's `db` too); 404 when it is not the company's. */
export async function reviewBatch(db: Kysely<Db>, companyId: string, id: string) {
  const row = await db
    .selectFrom('import_batches')
    .leftJoin('import_reviews', 'import_reviews.batch_id', 'import_batches.id')
    .leftJoin('bank_statements', 'bank_statements.id', 'import_batches.statement_id')
    .select([
      'import_batches.id',
      'import_batches.kind',
      'import_batches.state',
      'import_batches.statement_id',
      'bank_statements.status as statement_status',
      'import_batches.options',
      'import_batches.bank_account_id',
      'import_reviews.staged',
      'import_reviews.expires_at',
      'import_reviews.checked_shape',
    ])
    .where('import_batches.company_id', '=', companyId)
    .where('import_batches.id', '=', id)
    .executeTakeFirst()
  if (!row) throw notFound('import batch')
  const review = (JSON.parse(row.options) as { review?: unknown }).review === true
  return { ...row, review }
}

export type ReviewBatch = Awaited<ReturnType<typeof reviewBatch>>

/** Why a batch's pending rows cannot be used now (applied, discarded, expired, or no review at all); undefined when they can. */
export function unusable(b: ReviewBatch, now: Date): AppError | undefined {
  if (!b.review) return new AppError('conflict', 'the import batch is no review import: only `tx import --review` keeps rows pending')
  if (b.state === 'expired' || (b.state === 'pending' && b.expires_at && Date.parse(b.expires_at) <= now.getTime()))
    return new AppError(
      'conflict',
      `the import batch expired at ${b.expires_at ?? 'its end'} (a pending batch is kept ${PENDING_DAYS} days): import the file again with --review`,
    )
  // An applied statement upload's batch is its statement's state, as `imports show` says it.
  if (b.statement_id && b.statement_status === 'failed')
    return new AppError(
      'conflict',
      `the import batch failed: its statement ${b.statement_id} failed when it was applied (finctl statements get ${b.statement_id} says why), so nothing of it is pending`,
    )
  if (b.state !== 'pending') return new AppError('conflict', `the import batch is ${b.state}, not pending`)
  return undefined
}

/** A statement upload's lines are uploaded as the file says them: `set` and `remap` are for `tx import --review`. */
export function csvOnly(b: ReviewBatch, verb: string): AppError | undefined {
  if (b.kind === 'csv') return undefined
  return new AppError('conflict', `the import batch is a statement upload: ${verb} changes only a tx import --review batch`)
}

export async function loadReview(store: Store, companyId: string, id: string): Promise<ReviewBatch> {
  return reviewBatch(store.db, companyId, id)
}

/**
 * Stage rows of a running review batch: each validated as the batch create validates it (schema,
 * account, lock, rates, plausibility), the valid ones not yet on the account kept by line. What is
 * refused comes back by index, as a batch create's errors.
 */
export async function stageRows(
  store: Store,
  actor: Actor,
  id: string,
  body: StageRowsRequest,
  now: Date,
  window: DateWindow,
): Promise<StageRowsResponse> {
  const b = await reviewBatch(store.db, actor.companyId, id)
  if (!b.review || b.state !== 'running')
    throw new AppError(
      'conflict',
      b.review ? `the import batch is ${b.state}: rows are staged while it runs` : 'the import batch is no review import',
    )
  const items = body.rows.map((r) => r.transaction)
  const built = await createTransactionBatch(store, actor, items, now, window)
  const errors: BatchCreateResponse['errors'] = [...built.errors]
  const existing = await existingByRef(store, store.db, built.rows)
  const staged: number[] = []
  const duplicates: StageRowsResponse['duplicates'] = [...built.there]
  const values: PendingRowValues[] = []
  built.rows.forEach((row, i) => {
    const index = built.indexes[i]
    if (!row.import_ref || row.bank_account_id !== b.bank_account_id) {
      const why = row.import_ref ? 'must be the import batch’s account' : 'is required for a staged row'
      const path = row.import_ref ? 'bank_account_id' : 'import_ref'
      errors.push({ index, code: 'validation_error', message: `${path}: ${why}`, details: [{ path, message: why }] })
      return
    }
    const there = existing.get(refKey(row.account_key, row.import_ref))
    if (there) duplicates.push({ index, id: there, import_ref: row.import_ref })
    else {
      staged.push(index)
      // Kept as parsed (text trimmed), so that an apply of the same shape need not parse it again.
      values.push({ line: body.rows[index].line, body: storedBody(built.inputs[i]) })
    }
  })
  // A batch of rows sent again (a retry) keeps the rows staged first. Made durable by the batch's
  // finish (a synced write after the last stage): the store need not sync each stage.
  await store.hot.stagePendingRows(
    { batch_id: id, company_id: actor.companyId, expires_at: reviewExpiry(now), checked_shape: CREATE_REQUEST_SHAPE },
    values,
  )
  errors.sort((x, y) => x.index - y.index)
  duplicates.sort((x, y) => x.index - y.index)
  return { staged, duplicates, errors }
}

/**
 * A staged row as it is kept: its create request as parsed, without the batch's account (every row of
 * a review is on it: stageRows refuses another), a quarter of the bytes a review writes and an apply reads.
 */
export function storedBody(input: object): string {
  const { bank_account_id: _, ...rest } = input as Record<string, unknown>
  return JSON.stringify(rest)
}

/** A kept row as its create request again: the batch's account first, as the request has it (a row kept with it keeps its own). */
export function pendingRequest(body: string, b: Pick<ReviewBatch, 'kind' | 'bank_account_id'>): Record<string, unknown> {
  const request = JSON.parse(body) as Record<string, unknown>
  // A statement upload's lines name no account: they are the statement's.
  return b.kind === 'csv' && b.bank_account_id ? { bank_account_id: b.bank_account_id, ...request } : request
}

/** When a batch reviewed now expires. */
export function reviewExpiry(now: Date): string {
  return new Date(now.getTime() + PENDING_DAYS * DAY_MS).toISOString()
}

/** The end of a review import's run: its batch waits `pending` (import.pending), its expiry counted from now. */
export async function finishReview(
  store: Store,
  actor: Actor,
  id: string,
  input: FinishImportRequest,
  now: Date,
): Promise<ImportBatchDetail> {
  const b = await reviewBatch(store.db, actor.companyId, id)
  if (!b.review) throw new AppError('conflict', 'only a review import (tx import --review) ends pending')
  const count = await store.db
    .selectFrom('import_pending_rows')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('batch_id', '=', id)
    .executeTakeFirstOrThrow()
  const staged = Number(count.n)
  const expires = reviewExpiry(now)
  await store.db
    .insertInto('import_reviews')
    .values({ batch_id: id, company_id: actor.companyId, staged, expires_at: expires })
    .onConflict((oc) => oc.column('batch_id').doUpdateSet({ staged, expires_at: expires }))
    .execute()
  const done = await finishImportBatch(store, actor.companyId, id, input, now)
  await store.writeTransaction((trx) =>
    recordEvents(store, trx, [
      eventRow(
        actor,
        'import.pending',
        id,
        { id, file_name: done.file_name, staged, rejected: done.counts.rejected, expires_at: expires },
        now,
      ),
    ]),
  )
  return done
}

/** A page of a batch's pending rows, by line. */
export async function listPending(store: Store, companyId: string, id: string, q: PendingQuery): Promise<PendingPageData> {
  const b = await reviewBatch(store.db, companyId, id)
  if (!b.review) throw new AppError('conflict', 'the import batch is no review import: it has no pending rows')
  const limit = q.limit ?? 100
  const rows = await store.db
    .selectFrom('import_pending_rows')
    .select(['line', 'body'])
    .where('batch_id', '=', id)
    .where('line', '>', q.after ?? 0)
    .orderBy('line')
    .limit(limit + 1)
    .execute()
  const page = rows.slice(0, limit)
  const more = rows.length > limit
  return {
    data: {
      staged: Number(b.staged ?? 0),
      expires_at: b.expires_at ?? '',
      rows: page.map((r) => ({ line: Number(r.line), transaction: pendingRequest(r.body, b) })),
    },
    pagination: { limit, next_after: more ? Number(page[page.length - 1].line) : null, has_more: more },
  }
}

/** Change fields of one pending row; the row is validated again as a whole (400 naming the field). */
export async function setPendingRow(
  store: Store,
  actor: Actor,
  id: string,
  line: number,
  change: SetPendingRowRequest,
  now: Date,
  window: DateWindow,
): Promise<PendingRow> {
  const b = await reviewBatch(store.db, actor.companyId, id)
  const bad = unusable(b, now) ?? csvOnly(b, 'set')
  if (bad) throw bad
  const row = await store.db
    .selectFrom('import_pending_rows')
    .select('body')
    .where('batch_id', '=', id)
    .where('line', '=', line)
    .executeTakeFirst()
  if (!row) throw new AppError('not_found', `no pending row at line ${line} of the import batch`)
  const body = pendingRequest(row.body, b)
  for (const [k, v] of Object.entries(change)) {
    if (v === null) delete body[k]
    else if (v !== undefined) body[k] = v
  }
  const built = await createTransactionBatch(store, actor, [body], now, window)
  const err = built.errors[0]
  if (err)
    throw new AppError(err.code as AppError['code'], err.message.replace(/^invalid transactions\[0\]: /, ''), { details: err.details })
  if (built.there[0]) throw new AppError('conflict', `line ${line} is on the account already, as transaction ${built.there[0].id}`)
  // Stored as parsed, as a staged row is (the batch's checked_shape holds for it too).
  const parsed = built.inputs[0] as unknown as Record<string, unknown>
  await store.db
    .updateTable('import_pending_rows')
    .set({ body: storedBody(parsed) })
    .where('batch_id', '=', id)
    .where('line', '=', line)
    .execute()
  return { line, transaction: parsed }
}

/** Drop a pending batch's rows: its state becomes `discarded` (a second discard answers the same). */
export async function discardReview(store: Store, actor: Actor, id: string, now: Date): Promise<ImportBatchDetail> {
  const b = await reviewBatch(store.db, actor.companyId, id)
  if (b.review && b.state === 'discarded') return getImportBatch(store, actor.companyId, id)
  // A review stopped midway (interrupted, failed) may be discarded too: its staged rows go.
  if (!b.review || !['pending', 'running', 'interrupted', 'failed'].includes(b.state)) throw unusable(b, now)
  await store.writeTransaction(async (trx) => {
    await trx.deleteFrom('import_pending_rows').where('batch_id', '=', id).execute()
    await trx.deleteFrom('import_review_files').where('batch_id', '=', id).execute()
    await trx
      .updateTable('import_batches')
      .set({ state: 'discarded', finished_at: now.toISOString() })
      .where('id', '=', id)
      .where('state', 'in', ['pending', 'running', 'interrupted', 'failed'])
      .execute()
  })
  return getImportBatch(store, actor.companyId, id)
}

/**
 * The hourly sweep: review batches past their expiry lose their rows; a pending one (or a run that
 * never ended) becomes `expired`, a stopped or failed run keeps its state.
 */
export async function sweepExpiredReviews(store: Store, now: Date): Promise<number> {
  const due = await store.db
    .selectFrom('import_reviews')
    .innerJoin('import_batches', 'import_batches.id', 'import_reviews.batch_id')
    .select('import_reviews.batch_id')
    .where('import_reviews.expires_at', '<=', now.toISOString())
    .where((eb) =>
      eb.or([
        eb('import_batches.state', 'in', ['pending', 'running']),
        eb.exists(
          eb.selectFrom('import_pending_rows').select('line').whereRef('import_pending_rows.batch_id', '=', 'import_reviews.batch_id'),
        ),
        eb.exists(
          eb.selectFrom('import_review_files').select('part').whereRef('import_review_files.batch_id', '=', 'import_reviews.batch_id'),
        ),
      ]),
    )
    .execute()
  for (const { batch_id: id } of due)
    await store.writeTransaction(async (trx) => {
      await trx.deleteFrom('import_pending_rows').where('batch_id', '=', id).execute()
      await trx.deleteFrom('import_review_files').where('batch_id', '=', id).execute()
      await trx
        .updateTable('import_batches')
        .set({ state: 'expired', finished_at: now.toISOString() })
        .where('id', '=', id)
        .where('state', 'in', ['pending', 'running'])
        .execute()
    })
  return due.length
}

/**
 * `statements upload --review`: the upload is checked and its file parsed as a statement's would be,
 * but no statement is recorded: the batch (kind `statement`) waits `pending` with the file kept
 * (import_review_files) and its lines as pending rows, so no statement list or reconciliation sees
 * them. `imports apply` uploads the kept file then, through the statement's own path (one statement
 * per file and account: a second apply, or two at once, record it once); discard and expiry are
 * those of any review batch (review.ts).
 */
import { currencyExponent } from '../../kernel/currencies.js'
import { AppError } from '../../kernel/errors.js'
import { formatMinor } from '../../kernel/money.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { eventRow, recordEvents } from '../events.js'
import { type JobDeps, parseStatementFile, startStatementJob, WORKER_THRESHOLD } from '../statements/jobs.js'
import { StatementFileError } from '../statements/parse.js'
import { selectStatement } from '../statements/select.js'
import { checkStatementUpload, createStatement, type StatementUpload } from '../statements/statements.js'
import { createImportBatch, getImportBatch } from './batches.js'
import { keptFile } from './remap.js'
import { loadReview, reviewExpiry, unusable } from './review.js'
import { FILE_PART_BYTES, type ApplyResult } from './review-schemas.js'
import type { ImportBatchDetail } from './schemas.js'

type Recorded = Omit<StatementUpload, 'bytes'>

export async function reviewStatementUpload(
  store: Store,
  actor: Actor,
  u: StatementUpload,
  now: Date,
  deps: Pick<JobDeps, 'workerThreshold'> & { running?: (id: string) => boolean },
): Promise<ImportBatchDetail> {
  const { account, options, format, sha } = await checkStatementUpload(store, actor, u, now, deps.running)
  let lines: ReturnType<typeof selectStatement>['lines']
  try {
    const parsed = await parseStatementFile(
      { bytes: u.bytes, fileName: u.fileName, format, account, options: { ...options, format } },
      deps.workerThreshold ?? WORKER_THRESHOLD,
    )
    lines = selectStatement(
      parsed,
      { name: account.name, currency: account.currency_code, last4: account.account_number_last4 },
      options.accountNumber,
    ).lines
  } catch (e) {
    if (!(e instanceof StatementFileError)) throw e
    throw new AppError('validation_error', `file: ${e.message}`, { details: [{ path: 'file', message: e.message }] })
  }
  const { bytes, review: _review, ...upload } = u
  const recorded: Recorded = upload
  const batch = await createImportBatch(
    store,
    actor,
    {
      kind: 'statement',
      bank_account_id: account.id,
      file_name: u.fileName,
      file_sha256: sha,
      options: { review: true, format, upload: recorded },
      state: 'pending',
      read: lines.length,
    },
    now,
  )
  const expires = reviewExpiry(now)
  const rows = lines.map((l, i) => ({
    batch_id: batch.id,
    line: l.line ?? i + 1,
    body: JSON.stringify({
      transaction_date: l.date,
      amount: formatMinor(l.amountMinor, currencyExponent(l.currency)),
      currency_code: l.currency,
      description: l.description,
      ...(l.merchant ? { merchant_name: l.merchant } : {}),
      ...(l.category ? { category: l.category } : {}),
    }),
  }))
  // Lines of a statement file need not have distinct line numbers (OFX): the index keeps them apart.
  const seen = new Set<number>()
  rows.forEach((r, i) => {
    if (seen.has(r.line)) r.line = 1_000_000_000 + i
    seen.add(r.line)
  })
  await store.writeTransaction(async (trx) => {
    await trx
      .insertInto('import_reviews')
      .values({ batch_id: batch.id, company_id: actor.companyId, staged: rows.length, expires_at: expires })
      .execute()
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('import_pending_rows')
        .values(rows.slice(i, i + 500))
        .execute()
    for (let part = 0; part * FILE_PART_BYTES < bytes.length; part++)
      await trx
        .insertInto('import_review_files')
        .values({ batch_id: batch.id, part, content: Buffer.from(bytes.subarray(part * FILE_PART_BYTES, (part + 1) * FILE_PART_BYTES)) })
        .execute()
    await recordEvents(store, trx, [
      eventRow(
        actor,
        'import.pending',
        batch.id,
        { id: batch.id, file_name: u.fileName, staged: rows.length, rejected: 0, expires_at: expires },
        now,
      ),
    ])
  })
  return getImportBatch(store, actor.companyId, batch.id)
}

/** Upload a pending statement batch's kept file as its statement; the statement is processed in the background, as an upload's. */
export async function applyStatementReview(
  store: Store,
  actor: Actor,
  id: string,
  now: Date,
  deps: JobDeps & { running?: (id: string) => boolean },
): Promise<ApplyResult> {
  const none = { created: 0, existing: 0, reconciled: 0, rejected: 0 }
  const b = await loadReview(store, actor.companyId, id)
  if (b.review && b.state === 'completed') return { ...(await getImportBatch(store, actor.companyId, id)), applied: none }
  const bad = unusable(b, now)
  if (bad) throw bad
  const bytes = await keptFile(store, id)
  if (!bytes) throw new AppError('conflict', 'the import batch keeps no file: upload the statement again')
  const recorded = (JSON.parse(b.options) as { upload: Recorded }).upload
  let made: Awaited<ReturnType<typeof createStatement>>
  try {
    made = await createStatement(store, actor, { ...recorded, bytes }, now, deps.running)
  } catch (e) {
    // Another apply recorded the statement first: this one answers as a second apply does.
    const now2 = await loadReview(store, actor.companyId, id)
    if (e instanceof AppError && e.code === 'conflict' && now2.state === 'completed')
      return { ...(await getImportBatch(store, actor.companyId, id)), applied: none }
    throw e
  }
  const { statement, job } = made
  await store.writeTransaction(async (trx) => {
    await trx
      .updateTable('import_batches')
      .set({ state: 'completed', statement_id: statement.id, finished_at: now.toISOString() })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .execute()
    await trx.deleteFrom('import_pending_rows').where('batch_id', '=', id).execute()
    await trx.deleteFrom('import_review_files').where('batch_id', '=', id).execute()
    await recordEvents(store, trx, [
      eventRow(actor, 'import.applied', id, { id, file_name: statement.file_name, statement_id: statement.id, ...none }, now),
    ])
  })
  startStatementJob(store, job, deps)
  return { ...(await getImportBatch(store, actor.companyId, id)), applied: none }
}

/**
 * `imports apply`: a pending batch's rows land through the batch create path the import uses
 * (storeTransactionBatch), so that each row's import_ref keeps it exactly once: a second apply, or
 * two at once, create nothing the first did not. Locks, accounts, rates and the date window are
 * checked again now (the request's shape is not, when the review stored it parsed under today's
 * CREATE_REQUEST_SHAPE); what they refuse is named by line in the batch's rejects.
 */
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { incremented, lessColumns } from '../../store/fragments.js'
import type { Actor } from '../actor.js'
import { eventRow, recordEvents } from '../events.js'
import { storeTransactionBatch } from '../transactions/create.js'
import type { DateWindow } from '../transactions/plausibility.js'
import { CREATE_REQUEST_SHAPE } from '../schemas.js'
import { countIntoBatch, getImportBatch } from './batches.js'
import { loadReview, unusable } from './review.js'
import type { ApplyResult } from './review-schemas.js'
import { MAX_KEPT_REJECTS } from '../../kernel/vocabulary.js'
import type { ImportReject } from './schemas.js'

/**
 * Rows a create batch of the apply holds: the most a batch create takes. Each chunk is two commits
 * (its rows, its count), an fsync each (docs/performance.md, "Review before it lands").
 */
const APPLY_CHUNK = 5000

export async function applyReview(store: Store, actor: Actor, id: string, now: Date, window: DateWindow): Promise<ApplyResult> {
  const b = await loadReview(store, actor.companyId, id)
  const none = { created: 0, existing: 0, reconciled: 0, rejected: 0 }
  // Applied already: nothing is created again, and the answer says so.
  if (b.review && b.state === 'completed') return { ...(await getImportBatch(store, actor.companyId, id)), applied: none }
  const bad = unusable(b, now)
  if (bad) throw bad
  // The rows the review refused, counted before this apply adds its own.
  const reviewRejected = (await getImportBatch(store, actor.companyId, id)).counts.rejected
  const applied = { ...none }
  const rejects: ImportReject[] = []
  const staged = Number(b.staged ?? 0)
  // The rows go in as a direct import's do: one bulk load announced with the batch's rows (the store
  // decides whether it sets indexes aside), ended with the last chunk.
  // Rows checked and stored as parsed by a build of today's shape are not parsed again; every check
  // of a row against its account, the lock date, the rates and the date window runs now, as before.
  const parsed = b.checked_shape === CREATE_REQUEST_SHAPE
  // Kept rows name no account (storedBody): each is the batch's.
  const account = b.bank_account_id ?? undefined
  let sent = 0
  let ended = staged === 0
  let after = 0
  for (;;) {
    const rows = await store.db
      .selectFrom('import_pending_rows')
      .select(['line', 'body'])
      .where('batch_id', '=', id)
      .where('line', '>', after)
      .orderBy('line')
      .limit(APPLY_CHUNK)
      .execute()
    if (!rows.length) break
    after = Number(rows[rows.length - 1].line)
    const items = rows.map((r) => {
      // pendingRequest without its copy: the create path reads the fields, not their order.
      const item = JSON.parse(r.body) as { bank_account_id?: string }
      item.bank_account_id ??= account
      return item as unknown
    })
    sent += rows.length
    const last = rows.length < APPLY_CHUNK || sent >= staged
    const res = await storeTransactionBatch(store, actor, items, {
      now,
      window,
      minimal: true,
      matchStatementLines: true,
      importBatch: id,
      bulk: { rows: staged, end: last },
      parsed,
    })
    if (last) ended = true
    const matched = res.matched?.length ?? 0
    applied.created += res.created.length
    applied.existing += res.duplicates.length
    applied.reconciled += matched
    applied.rejected += res.errors.length
    for (const e of res.errors)
      rejects.push({ line: Number(rows[e.index].line), reason: e.message.replace(/^invalid transactions\[\d+\]: /, '') })
    // What the batch created is counted at the end from its writes' own entries (createdBy); a chunk's
    // count would be a commit (an fsync) of its own. Pairings have no entry of their own: counted here,
    // only what this apply paired (two applies at once each add their own).
    if (matched) await countIntoBatch(store, actor.companyId, id, { created: 0, existing: 0, reconciled: matched, rejected: 0 })
    if (rows.length < APPLY_CHUNK) break
  }
  // A load begun whose last chunk was not known as the last (fewer rows than staged) ends here.
  if (!ended) await store.hot.bulkLoad({ rows: staged }).end()
  await store.writeTransaction(async (trx) => {
    // What the batch created is counted from its writes' own entries: an apply killed between a
    // write and its count must not leave those rows counted as already there.
    const made = await createdBy(trx, actor.companyId, id)
    // Rows neither created nor reconciled by any apply nor refused now were on the account already.
    const existing = lessColumns(staged - applied.rejected - made, 'reconciled')
    const batch = await trx.selectFrom('import_batches').select(['rejects', 'file_name']).where('id', '=', id).executeTakeFirstOrThrow()
    const moved = await trx
      .updateTable('import_batches')
      .set({
        state: 'completed',
        finished_at: now.toISOString(),
        created: made,
        existing,
        rejected: incremented('rejected', applied.rejected),
        rejects: JSON.stringify((JSON.parse(batch.rejects) as ImportReject[]).concat(rejects).slice(0, MAX_KEPT_REJECTS)),
      })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst()
    if (Number(moved.numUpdatedRows) === 0) {
      // Another apply ended first: the counts are settled again with every row created meanwhile.
      const settled = lessColumns(staged + reviewRejected - made, 'rejected', 'reconciled')
      await trx
        .updateTable('import_batches')
        .set({ created: made, existing: settled })
        .where('id', '=', id)
        .where('state', '=', 'completed')
        .execute()
      return
    }
    await trx.deleteFrom('import_pending_rows').where('batch_id', '=', id).execute()
    await trx.deleteFrom('import_review_files').where('batch_id', '=', id).execute()
    await recordEvents(store, trx, [eventRow(actor, 'import.applied', id, { id, file_name: batch.file_name, ...applied }, now)])
  })
  const done = await getImportBatch(store, actor.companyId, id)
  if (done.state !== 'completed') throw new AppError('conflict', `the import batch is ${done.state} now: it was not applied`)
  return { ...done, applied }
}

/** The rows a batch's writes created: the counts of the `rows_created` entries naming it. */
async function createdBy(db: Kysely<Db>, companyId: string, id: string): Promise<number> {
  const entries = await db
    .selectFrom('audit_entries')
    .select('changes')
    .where('company_id', '=', companyId)
    .where('action', '=', 'rows_created')
    .where('changes', 'like', `%"batch_id":"${id.toLowerCase()}"%`)
    .execute()
  return entries.reduce((n, e) => n + Number((JSON.parse(e.changes) as { count?: number }).count ?? 0), 0)
}

/**
 * `imports remap`: a pending review batch's kept file (import_review_files, sent by `tx import
 * --review` as it starts) read again with another mapping, through the same stages as the import
 * (plan, read rows, map) and the same validation as staging (review.ts), its pending rows replaced
 * by the new ones in one write; what the new mapping refuses is named by line in the batch's rejects.
 */
import { balanceRefusal } from '../../import/balance-check.js'
import { LIABILITY_ACCOUNT_TYPES } from '../../kernel/vocabulary.js'
import { type CsvMapping, ImportError, planImportBytes } from '../../import/plan.js'
import { dateFormatProblem } from '../../import/dates.js'
import { currencyRefusal } from '../../import/file-currency.js'
import { ROLES, type Role, roleNamed, splitPair } from '../../import/mapping.js'
import { RowMapper } from '../../import/map-rows.js'
import { readRecordChunksBytes } from '../../import/read-rows.js'
import { AppError } from '../../kernel/errors.js'
import type { Store } from '../../store/store.js'
import { refKey } from '../../store/transaction-codec.js'
import type { Actor } from '../actor.js'
import { CREATE_REQUEST_SHAPE, MAX_BATCH } from '../schemas.js'
import { createTransactionBatch } from '../transactions/create.js'
import { existingByRef } from '../transactions/import-refs.js'
import type { DateWindow } from '../transactions/plausibility.js'
import { getImportBatch } from './batches.js'
import { csvOnly, loadReview, storedBody, unusable } from './review.js'
import { FILE_PART_BYTES, type FilePartRequest, MAX_KEPT_FILE, type RemapRequest, type RemapResult } from './review-schemas.js'
import { MAX_KEPT_REJECTS } from '../../kernel/vocabulary.js'
import type { ImportReject } from './schemas.js'

const invalid = (path: string, message: string) => new AppError('validation_error', `${path}: ${message}`, { details: [{ path, message }] })

/** Keep a part of a running review import's file (a part sent again replaces itself). */
export async function keepFilePart(
  store: Store,
  actor: Actor,
  id: string,
  part: number,
  body: FilePartRequest,
): Promise<{ part: number; size: number }> {
  const b = await loadReview(store, actor.companyId, id)
  if (!b.review || b.state !== 'running')
    throw new AppError(
      'conflict',
      b.review ? `the import batch is ${b.state}: its file is kept while it runs` : 'the import batch is no review import',
    )
  const bytes = Buffer.from(body.content_base64, 'base64')
  if (bytes.length > FILE_PART_BYTES) throw invalid('content_base64', `a part holds at most ${FILE_PART_BYTES} bytes (got ${bytes.length})`)
  await store.db
    .insertInto('import_review_files')
    .values({ batch_id: id, part, content: bytes })
    .onConflict((oc) => oc.columns(['batch_id', 'part']).doUpdateSet({ content: bytes }))
    .execute()
  return { part, size: bytes.length }
}

/** The kept file, its parts in order; undefined when none was kept or a part is missing. */
export async function keptFile(store: Store, id: string): Promise<Uint8Array | undefined> {
  const parts = await store.db
    .selectFrom('import_review_files')
    .select(['part', 'content'])
    .where('batch_id', '=', id)
    .orderBy('part')
    .execute()
  if (!parts.length || parts.some((p, i) => Number(p.part) !== i)) return undefined
  return Buffer.concat(parts.map((p) => Buffer.from(p.content)))
}

/** The batch's mapping with the request's changes: each field mapped anew replaces the batch's columns of that field. */
function remapped(old: CsvMapping, body: RemapRequest): CsvMapping {
  const map = (body.map ?? []).map((item, i): [Role, string] => {
    const pair = splitPair(item)
    const role = pair && roleNamed(pair[0])
    if (!pair || !role) throw invalid(`map.${i}`, `unknown field "${pair?.[0] ?? item}": use one of ${ROLES.join(', ')}`)
    return [role, pair[1]]
  })
  if (body.date_format !== undefined) {
    const problem = dateFormatProblem(body.date_format)
    if (problem) throw invalid('date_format', problem)
  }
  const given = new Set(map.map(([r]) => r))
  const kept = (old.map ?? []).filter(([r]) => !given.has(r))
  return {
    ...old,
    map: [...kept, ...map],
    ...(body.invert_sign !== undefined ? { invertSign: body.invert_sign } : {}),
    ...(body.date_format !== undefined ? { dateFormat: body.date_format } : {}),
  }
}

interface Options {
  mapping?: CsvMapping
  set?: Record<string, unknown>
  plan?: Record<string, unknown>
  [k: string]: unknown
}

export async function remapReview(
  store: Store,
  actor: Actor,
  id: string,
  body: RemapRequest,
  now: Date,
  window: DateWindow,
): Promise<RemapResult> {
  const b = await loadReview(store, actor.companyId, id)
  const bad = unusable(b, now) ?? csvOnly(b, 'remap')
  if (bad) throw bad
  const bytes = await keptFile(store, id)
  if (!bytes)
    throw new AppError(
      'conflict',
      `the import batch keeps no file to read again (a file over ${MAX_KEPT_FILE / 1024 / 1024} MiB is not kept): discard it and import the file again with --review and the new mapping`,
    )
  const options = JSON.parse(b.options) as Options
  const mapping = remapped(options.mapping ?? {}, body)
  const account = await store.db
    .selectFrom('bank_accounts')
    .select(['id', 'name', 'currency_code', 'account_type'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', b.bank_account_id ?? '')
    .executeTakeFirst()
  if (!account) throw new AppError('conflict', "the import batch's account is gone")
  let plan: Awaited<ReturnType<typeof planImportBytes>>
  try {
    plan = await planImportBytes(bytes, LIABILITY_ACCOUNT_TYPES.has(account.account_type) ? { ...mapping, liability: true } : mapping)
  } catch (e) {
    if (e instanceof ImportError) throw invalid('map', e.message)
    throw e
  }
  const constants = options.set as ConstructorParameters<typeof RowMapper>[1]['constants']
  const refusal = currencyRefusal(plan.currency, { name: account.name, currency: account.currency_code }, constants?.currency_code)
  if (refusal) throw invalid('map', refusal)
  const mapper = new RowMapper(plan, { accountId: account.id, currency: account.currency_code, constants })
  const rejects: ImportReject[] = []
  const values: Array<{ batch_id: string; line: number; body: string }> = []
  let read = 0
  let rejected = 0
  let existing = 0
  const reject = (line: number, reason: string) => {
    rejected++
    if (rejects.length < MAX_KEPT_REJECTS) rejects.push({ line, reason: reason.slice(0, 1000) })
  }
  let items: Array<{ line: number; request: object }> = []
  const validate = async () => {
    const built = await createTransactionBatch(
      store,
      actor,
      items.map((x) => x.request),
      now,
      window,
    )
    for (const e of built.errors) reject(items[e.index].line, e.message.replace(/^invalid transactions\[\d+\]: /, ''))
    existing += built.there.length
    const there = await existingByRef(store, store.db, built.rows)
    built.rows.forEach((row, i) => {
      const item = items[built.indexes[i]]
      if (row.import_ref && there.has(refKey(row.account_key, row.import_ref))) existing++
      // Kept as parsed, as a staged row is (the batch's checked_shape, set below).
      else values.push({ batch_id: id, line: item.line, body: storedBody(built.inputs[i]) })
    })
    items = []
  }
  for await (const chunk of readRecordChunksBytes(bytes, plan.layout)) {
    for (const rec of chunk) {
      const r = mapper.map(rec)
      if (!r) continue
      read++
      if (!r.ok) reject(r.line, r.reason)
      else items.push({ line: r.line, request: r.request })
      if (items.length >= MAX_BATCH) await validate()
    }
  }
  if (items.length) await validate()
  mapper.close()
  // A running balance in the file that the new reading breaks refuses it, as the import's own check does.
  const broken = balanceRefusal(plan, mapper.balanceResult())
  if (broken) throw invalid('map', broken)
  const recorded = {
    ...options,
    mapping,
    plan: { ...options.plan, map: plan.map, invert_sign: plan.invertSign, date_format: plan.dateFormat },
  }
  await store.writeTransaction(async (trx) => {
    // Only a batch still pending is remapped: an apply or discard that came first wins.
    const moved = await trx
      .updateTable('import_batches')
      .set({ options: JSON.stringify(recorded), read_rows: read, rejected, rejects: JSON.stringify(rejects) })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst()
    if (Number(moved.numUpdatedRows) === 0) throw new AppError('conflict', 'the import batch is no longer pending: it was not remapped')
    await trx.deleteFrom('import_pending_rows').where('batch_id', '=', id).execute()
    for (let i = 0; i < values.length; i += 500)
      await trx
        .insertInto('import_pending_rows')
        .values(values.slice(i, i + 500))
        .execute()
    await trx
      .updateTable('import_reviews')
      .set({ staged: values.length, checked_shape: CREATE_REQUEST_SHAPE })
      .where('batch_id', '=', id)
      .execute()
  })
  return { ...(await getImportBatch(store, actor.companyId, id)), remap: { read, staged: values.length, existing, rejected } }
}

/**
 * Import batches: every `tx import` and statement upload is recorded with its file, options, actor,
 * counts and state. The command opens a batch, its row requests name it (X-Import-Batch) so that the
 * service counts what it created as it goes, and it finishes the batch; a killed import's batch
 * stays `running` with the counts so far, a stopped one is `interrupted`.
 */
import { incremented } from '../../store/fragments.js'
import { AppError, notFound } from '../../kernel/errors.js'
import { uuidv7 } from '../../kernel/ids.js'
import { MAX_KEPT_REJECTS } from '../../kernel/vocabulary.js'
import type { BankStatementRow, ImportBatchRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import type { CreateImportRequest, FinishImportRequest, ImportBatch, ImportBatchDetail, ImportListQuery, ImportReject } from './schemas.js'

/** What a statement's batch reads from the statement: its processing is the batch's state and counts. */
type StatementFigures = Pick<
  BankStatementRow,
  'status' | 'transaction_count' | 'duplicate_count' | 'matched_count' | 'line_count' | 'processed_at'
>

const STATEMENT_STATES: Record<string, ImportBatch['state']> = { completed: 'completed', failed: 'failed' }

export function toImportBatch(row: ImportBatchRow, st?: StatementFigures): ImportBatch {
  if (st && row.state !== 'reverted') {
    const matched = Number(st.matched_count)
    row = {
      ...row,
      state: STATEMENT_STATES[st.status] ?? 'running',
      read_rows: Number(st.line_count),
      created: Number(st.transaction_count) - matched,
      existing: Number(st.duplicate_count),
      reconciled: matched,
      finished_at: st.processed_at,
    }
  }
  return {
    id: row.id,
    kind: row.kind as ImportBatch['kind'],
    bank_account_id: row.bank_account_id,
    statement_id: row.statement_id,
    file_name: row.file_name,
    file_sha256: row.file_sha256,
    options: JSON.parse(row.options) as Record<string, unknown>,
    actor: row.actor,
    state: row.state as ImportBatch['state'],
    read: row.read_rows == null ? null : Number(row.read_rows),
    counts: {
      created: Number(row.created),
      existing: Number(row.existing),
      reconciled: Number(row.reconciled),
      rejected: Number(row.rejected),
    },
    created_at: row.created_at,
    finished_at: row.finished_at,
    reverted_at: row.reverted_at ?? null,
    reverted_by: row.reverted_by ?? null,
  }
}

async function accountOf(store: Store, companyId: string, id: string | undefined): Promise<void> {
  if (id === undefined) return
  const row = await store.db
    .selectFrom('bank_accounts')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row)
    throw new AppError('validation_error', 'bank_account_id: no such bank account', {
      details: [{ path: 'bank_account_id', message: 'no such bank account' }],
    })
}

export interface NewBatch extends CreateImportRequest {
  statement_id?: string
  state?: ImportBatch['state']
  counts?: Partial<ImportBatch['counts']>
  read?: number
}

/** Open a batch (a finished one when `state` is given: a statement upload records itself at once). */
export async function createImportBatch(store: Store, actor: Actor, input: NewBatch, now: Date): Promise<ImportBatch> {
  await accountOf(store, actor.companyId, input.bank_account_id)
  const ts = now.toISOString()
  const state = input.state ?? 'running'
  const row: ImportBatchRow = {
    id: uuidv7(now.getTime()),
    company_id: actor.companyId,
    kind: input.kind ?? 'csv',
    bank_account_id: input.bank_account_id ?? null,
    statement_id: input.statement_id ?? null,
    file_name: input.file_name,
    file_sha256: input.file_sha256 ?? null,
    options: JSON.stringify(input.options ?? {}),
    actor: actorId(actor),
    state,
    read_rows: input.read ?? null,
    created: input.counts?.created ?? 0,
    existing: input.counts?.existing ?? 0,
    reconciled: input.counts?.reconciled ?? 0,
    rejected: input.counts?.rejected ?? 0,
    rejects: '[]',
    created_at: ts,
    finished_at: state === 'running' ? null : ts,
    reverted_at: null,
    reverted_by: null,
  }
  await store.db.insertInto('import_batches').values(row).execute()
  return toImportBatch(row)
}

/** A statement upload's batch, recorded beside the statement: its state and counts are the statement's. */
export async function recordStatementBatch(
  store: Store,
  actor: Actor,
  st: { id: string; bank_account_id: string; file_name: string; file_sha256: string; format: string },
  upload: object,
  now: Date,
): Promise<ImportBatch> {
  // The flags as given, without the file itself.
  const options: Record<string, unknown> = { format: st.format }
  for (const [k, v] of Object.entries(upload)) if (v !== undefined && k !== 'bytes' && k !== 'fileName') options[k] = v
  return createImportBatch(
    store,
    actor,
    {
      kind: 'statement',
      bank_account_id: st.bank_account_id,
      statement_id: st.id,
      file_name: st.file_name,
      file_sha256: st.file_sha256,
      options,
    },
    now,
  )
}

/** The statements of `rows` that are statement batches, by id. */
async function statementsOf(store: Store, rows: readonly ImportBatchRow[]): Promise<Map<string, StatementFigures>> {
  const ids = rows.flatMap((r) => (r.statement_id ? [r.statement_id] : []))
  if (!ids.length) return new Map()
  const found = await store.db
    .selectFrom('bank_statements')
    .select(['id', 'status', 'transaction_count', 'duplicate_count', 'matched_count', 'line_count', 'processed_at'])
    .where('id', 'in', ids)
    .execute()
  return new Map(found.map((s) => [s.id, s]))
}

async function batchRow(store: Store, companyId: string, id: string): Promise<ImportBatchRow> {
  const row = await store.db
    .selectFrom('import_batches')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw notFound('import batch')
  return row
}

export async function getImportBatch(store: Store, companyId: string, id: string): Promise<ImportBatchDetail> {
  const row = await batchRow(store, companyId, id)
  const st = await statementsOf(store, [row])
  return { ...toImportBatch(row, st.get(row.statement_id ?? '')), rejects: JSON.parse(row.rejects) as ImportReject[] }
}

/** Newest first; the cursor is the last id of the page (ids are time-ordered uuidv7s). */
export async function listImportBatches(
  store: Store,
  companyId: string,
  q: ImportListQuery,
): Promise<{ data: ImportBatch[]; pagination: { limit: number; next_cursor: string | null; has_more: boolean } }> {
  const limit = q.limit ?? 50
  let query = store.db.selectFrom('import_batches').selectAll().where('company_id', '=', companyId)
  if (q.kind) query = query.where('kind', '=', q.kind)
  if (q.bank_account_id) query = query.where('bank_account_id', '=', q.bank_account_id)
  if (q.cursor) query = query.where('id', '<', q.cursor)
  const rows = await query
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
  const page = rows.slice(0, limit)
  const more = rows.length > limit
  const st = await statementsOf(store, page)
  return {
    data: page.map((r) => toImportBatch(r, st.get(r.statement_id ?? ''))),
    pagination: { limit, next_cursor: more ? page[page.length - 1].id : null, has_more: more },
  }
}

/** The outcome of one request of the batch's rows, added to its counts (one UPDATE: concurrent batches add up). */
export async function countIntoBatch(
  store: Store,
  companyId: string,
  id: string,
  n: { created: number; existing: number; reconciled: number; rejected: number },
): Promise<void> {
  await store.db
    .updateTable('import_batches')
    .set({
      created: incremented('created', n.created),
      existing: incremented('existing', n.existing),
      reconciled: incremented('reconciled', n.reconciled),
      rejected: incremented('rejected', n.rejected),
    })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute()
}

/** A batch that rows are sent for: it must be the company's and still running (else 400 naming the header). */
export async function runningBatch(store: Store, companyId: string, id: string): Promise<void> {
  const row = await store.db
    .selectFrom('import_batches')
    .select('state')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst()
  const why = !row ? 'no such import batch' : row.state !== 'running' ? `the import batch is ${row.state}` : undefined
  if (why) throw new AppError('validation_error', `X-Import-Batch: ${why}`, { details: [{ path: 'X-Import-Batch', message: why }] })
}

export async function finishImportBatch(
  store: Store,
  companyId: string,
  id: string,
  input: FinishImportRequest,
  now: Date,
): Promise<ImportBatchDetail> {
  const row = await batchRow(store, companyId, id)
  if (row.kind === 'statement') throw new AppError('conflict', "a statement upload's batch ends with the statement's processing")
  if (row.state !== 'running') throw new AppError('conflict', `the import batch is ${row.state} already`)
  const kept = (JSON.parse(row.rejects) as ImportReject[]).concat(input.rejects ?? []).slice(0, MAX_KEPT_REJECTS)
  await store.db
    .updateTable('import_batches')
    .set({
      state: input.state,
      finished_at: now.toISOString(),
      rejects: JSON.stringify(kept),
      ...(input.read !== undefined ? { read_rows: input.read } : {}),
      ...(input.rejected !== undefined ? { rejected: input.rejected } : {}),
    })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('state', '=', 'running')
    .execute()
  return getImportBatch(store, companyId, id)
}

/**
 * Reverting an import batch (docs/importing-csv.md, "Revert a batch"): its rows go in one write
 * transaction, each with one `delete` entry holding its fields and its creation (so `finctl verify`
 * takes it off its write's group), the pairings it made are given back as they were,
 * and the batch becomes `reverted`. Rows of a closed month stop it; rows changed by hand since the
 * import stop it unless asked. A deleted row frees its import_ref (the unique key lives on the row),
 * so the corrected file creates its rows again.
 */
import type { Kysely } from 'kysely'
import { AppError, notFound } from '../../kernel/errors.js'
import { UuidPacker } from '../../kernel/packed-ids.js'
import { count } from '../../kernel/words.js'
import type { ChainedAuditEntryRow, Db, ImportBatchRow, NewAuditEntryRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { TransactionRow } from '../../store/transaction-codec.js'
import { actorId, type Actor } from '../actor.js'
import { isLocked, lockDateOf } from '../accounts/period-lock.js'
import { exampleOf } from '../categorization/labels.js'
import type { Example } from '../categorization/model.js'
import { labelsChanged } from '../categorization/settings.js'
import { eventRow, recordEvents } from '../events.js'
import { dropUnusedStatementFiles } from '../statement-files.js'
import { toTransaction } from '../transaction-rows.js'
import { auditRow, deletionRow, diff } from '../transactions/audit.js'
import { getImportBatch, toImportBatch } from './batches.js'
import { MAX_LISTED_ROWS, type RevertedRow, type RevertImportRequest, type RevertRefusal, type RevertResult } from './revert-schemas.js'
import {
  csvSource,
  editedOf,
  linkedDocuments,
  revertTuning,
  rowsByRuns,
  type RowSource,
  SeqRuns,
  statementCounts,
  statementSource,
  type UnlinkedDocument,
  type Unpair,
  unlinkDocuments,
} from './revert-rows.js'
import { RowVersions, type Versions } from '../row-versions.js'

/** Examples of deleted rows handed to the process's model at most; beyond, it is trained again. */
const MAX_HELD_EXAMPLES = 20_000

/**
 * What the first pass found: counts, the rows' seqs as runs, the refusals (the first
 * MAX_LISTED_ROWS, with each reason's count) and the first rows to list. No list of every row.
 */
interface Plan {
  deletes: number
  runs: Array<[number, number]>
  unpairs: Unpair[]
  refused: RevertRefusal[]
  refusedCount: { closed_month: number; edited: number }
  /** The first refusals of each reason, for the message. */
  named: { closed_month: RevertRefusal[]; edited: RevertRefusal[] }
  listed: RevertedRow[]
  /** Rows a later statement reconciled, by statement: they leave its counts. */
  others: Map<string, number>
  anyRef: boolean
  statement: { id: string; file_name: string } | null
  /** Documents linked to the rows that go: unlinked with them. */
  documents: UnlinkedDocument[]
}

async function batchRow(db: Kysely<Db>, store: Store, companyId: string, id: string, lock: boolean): Promise<ImportBatchRow> {
  let q = db.selectFrom('import_batches').selectAll().where('company_id', '=', companyId).where('id', '=', id)
  if (lock && store.sql.rowLocks) q = q.forUpdate()
  const row = await q.executeTakeFirst()
  if (!row) throw notFound('import batch')
  return row
}

function listedRow(r: TransactionRow, action: RevertedRow['action'], edited: boolean): RevertedRow {
  const t = toTransaction(r)
  return {
    id: t.id,
    transaction_date: t.transaction_date,
    amount: t.amount,
    currency_code: t.currency_code,
    description: t.description,
    action,
    edited,
  }
}

/** The first pass: every row to delete read by parts, its refusals noted, nothing of it kept but counts and runs. */
async function plan(
  store: Store,
  db: Kysely<Db>,
  batch: ImportBatchRow,
  includeEdited: boolean,
  lock: boolean,
  versions?: RowVersions,
): Promise<Plan> {
  const src: RowSource =
    batch.kind === 'statement' && batch.statement_id
      ? await statementSource(store, db, batch.company_id, batch.statement_id, lock)
      : await csvSource(store, db, batch.company_id, batch.id, lock)
  const lockDate = await lockDateOf(db, batch.company_id)
  const p: Plan = {
    deletes: 0,
    runs: [],
    unpairs: src.unpairs,
    refused: [],
    refusedCount: { closed_month: 0, edited: 0 },
    named: { closed_month: [], edited: [] },
    listed: [],
    others: new Map(),
    anyRef: false,
    statement: src.statement,
    documents: [],
  }
  const refuse = (r: RevertRefusal) => {
    p.refusedCount[r.reason]++
    if (p.named[r.reason].length < 5) p.named[r.reason].push(r)
    if (p.refused.length < MAX_LISTED_ROWS) p.refused.push(r)
  }
  const runs = new SeqRuns()
  const toList: number[] = []
  const editedListed = new Set<string>()
  for await (const part of src.parts()) {
    const edited = await editedOf(
      db,
      batch.company_id,
      part.map((r) => r.id),
    )
    p.documents.push(
      ...(await linkedDocuments(
        db,
        batch.company_id,
        part.map((r) => r.id),
      )),
    )
    for (const r of part) {
      runs.add(r.seq)
      versions?.add('delete', r.id, r.version)
      if (r.import_ref) p.anyRef = true
      if (r.bank_statement_id && r.bank_statement_id !== batch.statement_id)
        p.others.set(r.bank_statement_id, (p.others.get(r.bank_statement_id) ?? 0) + 1)
      if (toList.length < MAX_LISTED_ROWS) {
        toList.push(r.seq)
        if (edited.has(r.id)) editedListed.add(r.id)
      }
      if (isLocked(lockDate, r.transaction_date))
        refuse({
          id: r.id,
          transaction_date: r.transaction_date,
          reason: 'closed_month',
          message: `dated ${r.transaction_date}, on or before the lock date ${lockDate}`,
        })
      else if (edited.has(r.id) && !includeEdited)
        refuse({ id: r.id, transaction_date: r.transaction_date, reason: 'edited', message: 'changed by hand since the import' })
    }
  }
  for (const u of p.unpairs) {
    versions?.add('unpair', u.row.id, u.row.updated_at)
    if (isLocked(lockDate, u.row.transaction_date))
      refuse({
        id: u.row.id,
        transaction_date: u.row.transaction_date,
        reason: 'closed_month',
        message: `dated ${u.row.transaction_date}, on or before the lock date ${lockDate}`,
      })
  }
  p.deletes = runs.rows
  p.runs = runs.done()
  // The rows listed, in the order they were read.
  const order = new Map(toList.map((seq, i) => [seq, i]))
  const rows: TransactionRow[] = []
  for await (const part of rowsByRuns(store, db, SeqRuns.of(toList), revertTuning.chunkRows)) for (const r of part) rows.push(r)
  rows.sort((a, b) => order.get(a.seq)! - order.get(b.seq)!)
  p.listed = [
    ...rows.map((r) => listedRow(r, 'delete', editedListed.has(r.id))),
    ...p.unpairs.slice(0, Math.max(0, MAX_LISTED_ROWS - rows.length)).map((u) => listedRow(u.row, 'unpair', false)),
  ]
  return p
}

/** The refusal of a revert: period_locked when a row is in a closed month (never reverted), else a conflict naming --include-edited. */
function refusal(batchId: string, p: Plan): AppError {
  const locked = p.refusedCount.closed_month
  const edited = p.refusedCount.edited
  const name = (list: RevertRefusal[], n: number) =>
    `${list.map((r) => `${r.id} (dated ${r.transaction_date})`).join(', ')}${n > list.length ? ', …' : ''}`
  const parts = [
    ...(locked
      ? [
          `${count(locked, 'row')} in a closed month, which a revert never changes (${p.named.closed_month[0].message}): ${name(p.named.closed_month, locked)}`,
        ]
      : []),
    ...(edited ? [`${count(edited, 'row')} changed by hand since the import: ${name(p.named.edited, edited)}`] : []),
  ]
  const hint = locked ? '' : ' (include_edited reverts them too)'
  return new AppError(locked ? 'period_locked' : 'conflict', `import batch ${batchId} was not reverted: ${parts.join('; ')}${hint}`, {
    details: p.refused.map((r) => ({ path: r.reason === 'edited' ? 'include_edited' : 'id', message: `${r.id}: ${r.message}` })),
  })
}

function alreadyReverted(row: ImportBatchRow): AppError {
  return new AppError('conflict', `import batch ${row.id} was reverted already, by ${row.reverted_by} at ${row.reverted_at}: nothing to do`)
}

export async function revertImportBatch(
  store: Store,
  actor: Actor,
  id: string,
  req: RevertImportRequest,
  now: Date,
  /** A dry run's rows as they are, gathered here: what a proposal of the revert is bound to. */
  versions?: RowVersions,
): Promise<RevertResult> {
  const includeEdited = req.include_edited === true
  if (req.dry_run) {
    const row = await batchRow(store.db, store, actor.companyId, id, false)
    if (row.state === 'reverted') throw alreadyReverted(row)
    const p = await plan(store, store.db, row, includeEdited, false, versions)
    const { rejects: _, ...batch } = await getImportBatch(store, actor.companyId, row.id)
    return {
      batch,
      dry_run: true,
      deleted: p.deletes,
      unpaired: p.unpairs.length,
      transactions: p.listed,
      refused: p.refused,
      statement: p.statement,
      documents: p.documents,
    }
  }
  await prepareRevert(store, actor, id)
  const { result, learn } = await store.writeTransaction((trx) => revertIn(store, trx, actor, id, includeEdited, now))
  learn()
  return result
}

/**
 * What a revert's write transaction needs first: the writers' actor keys looked up (or added)
 * before it, since inside it a lookup that writes would wait for the writer's own turn on SQLite.
 */
export async function prepareRevert(store: Store, actor: Actor, id: string): Promise<void> {
  const writers = !/^[0-9a-f-]{36}$/i.test(id)
    ? []
    : await store.db
        .selectFrom('audit_entries')
        .select('actor')
        .distinct()
        .where('company_id', '=', actor.companyId)
        .where('action', '=', 'rows_created')
        .where('changes', 'like', `%"batch_id":"${id.toLowerCase()}"%`)
        .execute()
  for (const w of writers) await store.tx.actorKey(w.actor)
}

/**
 * The revert's writes inside the caller's write transaction (after `prepareRevert`); `learn` runs
 * once it committed. The first pass (plan) checks every row; the second reads them again by parts
 * and chains each part's entries, then the rows go by runs of seqs in one delete.
 */
export async function revertIn(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  id: string,
  includeEdited: boolean,
  now: Date,
  approval?: { expected?: Versions; [k: string]: unknown },
): Promise<{ result: RevertResult; learn: () => void }> {
  const ts = now.toISOString()
  const row = await batchRow(trx, store, actor.companyId, id, true)
  if (row.state === 'reverted') throw alreadyReverted(row)
  const { expected, ...named } = approval ?? {}
  const versions = expected && new RowVersions(expected.listed)
  const p = await plan(store, trx, row, includeEdited, true, versions)
  const moved = versions?.movedSince(expected!)
  if (moved) throw new AppError('conflict', `import batch ${row.id}'s rows moved since the revert was proposed: ${moved}`)
  if (p.refusedCount.closed_month || p.refusedCount.edited) throw refusal(row.id, p)
  // Every write but the chain's and the rows' delete first: the chain's head is locked after every
  // other row lock of this write (the rows to delete were locked by the plan).
  const unpaired: NewAuditEntryRow[] = []
  for (const u of p.unpairs) {
    const after: TransactionRow = { ...u.row, ...u.restore, updated_at: ts }
    await trx
      .updateTable('transactions')
      .set({ ...u.restore, updated_at: ts })
      .where('seq', '=', u.row.seq)
      .execute()
    unpaired.push(auditRow(actor, 'reconcile', u.row.id, diff(toTransaction(u.row), toTransaction(after)), now))
  }
  // Rows a later statement reconciled leave its counts.
  for (const [statement, n] of p.others)
    await trx
      .updateTable('bank_statements')
      .set((eb) => ({
        matched_count: eb('matched_count', '-', n),
        transaction_count: eb('transaction_count', '-', n),
        updated_at: ts,
      }))
      .where('id', '=', statement)
      .execute()
  // The statement goes, so that the same file may be uploaded again; its batch keeps its figures.
  const statementFigures = p.statement ? await statementCounts(trx, p.statement.id) : {}
  if (p.statement) {
    // Its file goes too, unless another statement (another account's) was read from the same bytes.
    const gone = await trx.deleteFrom('bank_statements').where('id', '=', p.statement.id).returning('file_sha256').execute()
    await dropUnusedStatementFiles(
      trx,
      actor.companyId,
      gone.map((g) => g.file_sha256),
    )
  }
  await trx
    .updateTable('import_batches')
    .set({ ...statementFigures, state: 'reverted', reverted_at: ts, reverted_by: actorId(actor) })
    .where('id', '=', row.id)
    .execute()
  await store.writes.appendAudit(trx, unpaired, 1000)
  await unlinkDocuments(trx, actor.companyId, p.documents)
  // The second pass: each row gives its entry (one a row: its `delete` entry with every field and
  // its creation) and its example, and goes; a large revert does it with a thread beside this one.
  const { removed, untold, ids } =
    store.committedFile && p.deletes >= revertTuning.threadRows
      ? await removeWithThread(store, trx, actor, p, now, store.committedFile)
      : await removeHere(store, trx, actor, p, now)
  const learn = await labelsChanged(trx, store, actor.companyId, removed, [], now, untold)
  const after = await batchRow(trx, store, actor.companyId, id, false)
  const result: RevertResult = {
    batch: toImportBatch(after),
    dry_run: false,
    deleted: p.deletes,
    unpaired: p.unpairs.length,
    transactions: p.listed,
    refused: [],
    statement: p.statement,
    documents: p.documents,
  }
  await recordEvents(store, trx, [
    eventRow(
      actor,
      'import.reverted',
      row.id,
      {
        batch: result.batch,
        deleted: result.deleted,
        unpaired: result.unpaired,
        transaction_ids: ids,
        unpaired_ids: p.unpairs.map((u) => u.row.id),
        statement_id: p.statement?.id ?? null,
        ...(approval ? { approval: named } : {}),
      },
      now,
    ),
  ])
  return { result, learn }
}

interface Chained {
  removed: Example[]
  untold: number
  ids: UuidPacker
}

/** The second pass on this thread: each part's entries chained, then the rows deleted. */
async function removeHere(store: Store, trx: Kysely<Db>, actor: Actor, p: Plan, now: Date): Promise<Chained> {
  const removed: Example[] = []
  let untold = 0
  const ids = new UuidPacker()
  for await (const part of rowsByRuns(store, trx, p.runs, revertTuning.chunkRows)) {
    const audit: NewAuditEntryRow[] = []
    for (const r of part) {
      audit.push(deletionRow(actor, r.id, r, toTransaction(r), now))
      ids.add(r.id)
      const e = exampleOf(r)
      if (e && removed.length < MAX_HELD_EXAMPLES) removed.push(e)
      else if (e) untold++
    }
    await store.writes.appendAudit(trx, audit, 1000)
  }
  await deleteRows(store, trx, p)
  return { removed, untold, ids }
}

async function deleteRows(store: Store, trx: Kysely<Db>, p: Plan): Promise<void> {
  // A bulk load's ref table must not keep the refs these rows free.
  if (p.anyRef) store.tx.refsWillChange()
  await store.writes.deleteTransactionRuns(trx, p.runs)
}

/**
 * The second pass with the rows read and their entries worked out on a thread of its own
 * (revert-thread.ts), which reads what was committed: this thread deletes the rows meanwhile, then
 * writes each part's entries as they come, so SQLite's work here overlaps the entries' JSON and
 * hashes there. The chain starts at the head read (and locked) here; each write checks its entries
 * follow it, and every row the plan counted must have come.
 */
async function removeWithThread(store: Store, trx: Kysely<Db>, actor: Actor, p: Plan, now: Date, file: string): Promise<Chained> {
  const { EntriesThread } = await import('./revert-thread.js')
  let prev = await store.writes.chainHead(trx, actor.companyId)
  const thread = new EntriesThread({
    file,
    runs: p.runs,
    partRows: revertTuning.chunkRows,
    ahead: revertTuning.threadParts,
    actor,
    now,
    prev,
    maxExamples: MAX_HELD_EXAMPLES,
  })
  try {
    await deleteRows(store, trx, p)
    const who = actorId(actor)
    const at = now.toISOString()
    const removed: Example[] = []
    const ids = new UuidPacker()
    for (;;) {
      const e = await thread.next()
      if (e.type === 'end') {
        if (e.rows !== p.deletes) throw new Error(`revert: the entries thread read ${e.rows} rows of ${p.deletes}`)
        return { removed, untold: e.untold, ids }
      }
      const rows: ChainedAuditEntryRow[] = new Array(e.ids.length)
      for (let i = 0; i < e.ids.length; i++) {
        rows[i] = {
          company_id: actor.companyId,
          transaction_id: e.ids[i],
          actor: who,
          action: 'delete',
          changes: e.changes[i],
          created_at: at,
          prev_hash: prev,
          hash: e.hashes[i],
        }
        prev = e.hashes[i]
        ids.add(e.ids[i])
      }
      await store.writes.appendChained(trx, actor.companyId, rows)
      thread.took()
      for (const x of e.examples) removed.push(x)
    }
  } finally {
    await thread.close()
  }
}

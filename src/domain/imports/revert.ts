/**
 * Reverting an import batch (docs/importing-csv.md, "Revert a batch"): its rows go in one write
 * transaction, each with the `delete` entry and creation entry a single delete writes (so `finctl
 * verify` takes them off their write's group), the pairings it made are given back as they were,
 * and the batch becomes `reverted`. Rows of a closed month stop it; rows changed by hand since the
 * import stop it unless asked. A deleted row frees its import_ref (the unique key lives on the row),
 * so the corrected file creates its rows again.
 */
import type { Kysely } from 'kysely'
import { AppError, notFound } from '../../kernel/errors.js'
import { count } from '../../kernel/words.js'
import type { Db, ImportBatchRow, NewAuditEntryRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { TransactionRow } from '../../store/transaction-codec.js'
import { actorId, type Actor } from '../actor.js'
import { isLocked, lockDateOf } from '../accounts/period-lock.js'
import { exampleOf } from '../categorization/labels.js'
import type { Example } from '../categorization/model.js'
import { labelsChanged } from '../categorization/settings.js'
import { eventRow, recordEvents } from '../events.js'
import { dropUnusedStatementFiles } from '../statement-files.js'
import { companyKey, toTransaction } from '../transaction-rows.js'
import { auditRow, creationRow, diff } from '../transactions/audit.js'
import { getImportBatch, toImportBatch } from './batches.js'
import { MAX_LISTED_ROWS, type RevertedRow, type RevertImportRequest, type RevertRefusal, type RevertResult } from './revert-schemas.js'

type Changes = Record<string, { before: unknown; after: unknown }>

/** A row the batch reconciled instead of creating, and what it goes back to. */
interface Unpair {
  row: TransactionRow
  restore: Pick<TransactionRow, 'is_reconciled' | 'status' | 'import_ref' | 'statement_ref' | 'bank_statement_id'>
}

interface Plan {
  deletes: TransactionRow[]
  unpairs: Unpair[]
  edited: Set<string>
  refused: RevertRefusal[]
  statement: { id: string; file_name: string } | null
}

const chunks = <T>(list: readonly T[], n = 500): T[][] =>
  Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n))

async function batchRow(db: Kysely<Db>, store: Store, companyId: string, id: string, lock: boolean): Promise<ImportBatchRow> {
  let q = db.selectFrom('import_batches').selectAll().where('company_id', '=', companyId).where('id', '=', id)
  if (lock && store.sql.rowLocks) q = q.forUpdate()
  const row = await q.executeTakeFirst()
  if (!row) throw notFound('import batch')
  return row
}

async function selectRows(store: Store, db: Kysely<Db>, build: (q: ReturnType<typeof base>) => ReturnType<typeof base>, lock: boolean) {
  let q = build(base(db))
  if (lock && store.sql.rowLocks) q = q.forUpdate()
  return store.tx.decode(db, await q.execute())
}
const base = (db: Kysely<Db>) => db.selectFrom('transactions').selectAll()

/** The rows a CSV batch created, through the `rows_created` entries naming it (as `/transactions?import_batch_id=`). */
async function csvRows(store: Store, db: Kysely<Db>, companyId: string, batch: string, lock: boolean) {
  const entries = await db
    .selectFrom('audit_entries')
    .select(['actor', 'created_at', 'changes'])
    .where('company_id', '=', companyId)
    .where('action', '=', 'rows_created')
    .where('changes', 'like', `%"batch_id":"${batch.toLowerCase()}"%`)
    .execute()
  if (!entries.length) return { rows: [] as TransactionRow[], unpairs: [] as Unpair[] }
  const actors = [...new Set(entries.map((e) => e.actor))]
  const times = [...new Set(entries.map((e) => e.created_at))]
  const keys = await Promise.all(actors.map((a) => store.tx.actorKey(a)))
  const company = await companyKey(store, companyId, db)
  const rows: TransactionRow[] = []
  for (const part of chunks(times)) {
    const found = await selectRows(
      store,
      db,
      (q) => q.where('company_key', '=', company).where('created_by', 'in', keys).where('created_at', 'in', part),
      lock,
    )
    // One by one: spread as arguments, a large import's part overflows the stack.
    for (const r of found) rows.push(r)
  }
  sameMoment(entries, rows)
  // Rows of a statement the batch's writes paired instead of creating: their `reconcile` entries,
  // written by the same actor at the same moment, gave them an import_ref.
  const created = new Set(rows.map((r) => r.id))
  const paired = new Map<string, Changes>()
  for (const part of chunks(times)) {
    const found = await db
      .selectFrom('audit_entries')
      .select(['transaction_id', 'changes'])
      .where('company_id', '=', companyId)
      .where('action', '=', 'reconcile')
      .where('actor', 'in', actors)
      .where('created_at', 'in', part)
      .execute()
    for (const f of found) if (!created.has(f.transaction_id)) paired.set(f.transaction_id, JSON.parse(f.changes) as Changes)
  }
  const unpairs: Unpair[] = []
  for (const part of chunks(store.tx.idParams([...paired.keys()])))
    for (const row of await selectRows(store, db, (q) => q.where('company_key', '=', company).where('id', 'in', part), lock)) {
      const c = paired.get(row.id)!
      if (!row.import_ref || c.bank_statement_id) continue
      unpairs.push({ row, restore: restoreOf(row, c, { import_ref: null }) })
    }
  return { rows, unpairs }
}

/**
 * A batch's rows are its writes' creator and time: another write by the same key in the same
 * millisecond would add rows to a group beyond what the batch's entries count, and is refused
 * rather than reverted with it (docs/decisions.md, "Import batches").
 */
function sameMoment(entries: Array<{ actor: string; created_at: string; changes: string }>, rows: TransactionRow[]): void {
  const expected = new Map<string, number>()
  for (const e of entries) {
    const key = `${e.actor}\n${e.created_at}`
    expected.set(key, (expected.get(key) ?? 0) + Number((JSON.parse(e.changes) as { count?: number }).count ?? 0))
  }
  const found = new Map<string, number>()
  for (const r of rows) {
    const key = `${r.created_by}\n${r.created_at}`
    found.set(key, (found.get(key) ?? 0) + 1)
  }
  for (const [key, n] of found)
    if (n > (expected.get(key) ?? 0))
      throw new AppError(
        'conflict',
        `rows of another write share this batch's creator and time (${key.replace('\n', ', ')}): they cannot be told apart, nothing was reverted`,
      )
}

function restoreOf(row: TransactionRow, c: Changes, extra: Partial<Unpair['restore']>): Unpair['restore'] {
  const reconciled = c.is_reconciled ? (c.is_reconciled.before ? 1 : 0) : row.is_reconciled
  return {
    is_reconciled: reconciled,
    status: (c.status?.before as string | undefined) ?? row.status,
    import_ref: row.import_ref,
    statement_ref: row.statement_ref,
    bank_statement_id: row.bank_statement_id,
    ...extra,
  }
}

/** A statement's rows: the lines it created go, the transactions it reconciled are given back. */
async function statementRows(store: Store, db: Kysely<Db>, companyId: string, statementId: string, lock: boolean) {
  const st = await db
    .selectFrom('bank_statements')
    .select(['id', 'file_name', 'processed_at'])
    .where('company_id', '=', companyId)
    .where('id', '=', statementId)
    .executeTakeFirst()
  if (!st) return { rows: [] as TransactionRow[], unpairs: [] as Unpair[], statement: null }
  const company = await companyKey(store, companyId, db)
  const all = await selectRows(store, db, (q) => q.where('company_key', '=', company).where('bank_statement_id', '=', st.id), lock)
  const rows = all.filter((r) => r.created_via === 'statement_import' && r.created_at === st.processed_at)
  const matched = all.filter((r) => !rows.includes(r))
  const unpairs: Unpair[] = []
  for (const part of chunks(matched.map((r) => r.id))) {
    const found = await db
      .selectFrom('audit_entries')
      .select(['transaction_id', 'changes'])
      .where('company_id', '=', companyId)
      .where('action', '=', 'reconcile')
      .where('transaction_id', 'in', part)
      .orderBy('id')
      .execute()
    const byId = new Map<string, Changes>()
    for (const f of found) {
      const c = JSON.parse(f.changes) as Changes
      if (c.bank_statement_id?.after === st.id) byId.set(f.transaction_id, c)
    }
    for (const row of matched.filter((r) => part.includes(r.id)))
      unpairs.push({
        row,
        restore: restoreOf(row, byId.get(row.id) ?? {}, { bank_statement_id: null, statement_ref: null, is_reconciled: 0 }),
      })
  }
  return { rows, unpairs, statement: { id: st.id, file_name: st.file_name } }
}

/** The ids among `ids` with an `update` or `bulk_update` entry: changed by hand (or by a rule run) since their creation. */
async function editedOf(db: Kysely<Db>, companyId: string, ids: string[]): Promise<Set<string>> {
  const out = new Set<string>()
  for (const part of chunks(ids)) {
    const found = await db
      .selectFrom('audit_entries')
      .select('transaction_id')
      .where('company_id', '=', companyId)
      .where('action', 'in', ['update', 'bulk_update'])
      .where('transaction_id', 'in', part)
      .execute()
    for (const f of found) out.add(f.transaction_id)
  }
  return out
}

async function plan(store: Store, db: Kysely<Db>, batch: ImportBatchRow, includeEdited: boolean, lock: boolean): Promise<Plan> {
  const found =
    batch.kind === 'statement' && batch.statement_id
      ? await statementRows(store, db, batch.company_id, batch.statement_id, lock)
      : { ...(await csvRows(store, db, batch.company_id, batch.id, lock)), statement: null }
  const lockDate = await lockDateOf(db, batch.company_id)
  const edited = await editedOf(
    db,
    batch.company_id,
    found.rows.map((r) => r.id),
  )
  const refused: RevertRefusal[] = []
  for (const r of [...found.rows, ...found.unpairs.map((u) => u.row)]) {
    if (isLocked(lockDate, r.transaction_date))
      refused.push({
        id: r.id,
        transaction_date: r.transaction_date,
        reason: 'closed_month',
        message: `dated ${r.transaction_date}, on or before the lock date ${lockDate}`,
      })
    else if (edited.has(r.id) && !includeEdited)
      refused.push({ id: r.id, transaction_date: r.transaction_date, reason: 'edited', message: 'changed by hand since the import' })
  }
  return { deletes: found.rows, unpairs: found.unpairs, edited, refused, statement: found.statement }
}

function listed(p: Plan): RevertedRow[] {
  const row = (r: TransactionRow, action: RevertedRow['action']): RevertedRow => {
    const t = toTransaction(r)
    return {
      id: t.id,
      transaction_date: t.transaction_date,
      amount: t.amount,
      currency_code: t.currency_code,
      description: t.description,
      action,
      edited: p.edited.has(t.id),
    }
  }
  return [...p.deletes.map((r) => row(r, 'delete')), ...p.unpairs.map((u) => row(u.row, 'unpair'))].slice(0, MAX_LISTED_ROWS)
}

/** The refusal of a revert: period_locked when a row is in a closed month (never reverted), else a conflict naming --include-edited. */
function refusal(batchId: string, refused: RevertRefusal[]): AppError {
  const locked = refused.filter((r) => r.reason === 'closed_month')
  const edited = refused.filter((r) => r.reason === 'edited')
  const name = (list: RevertRefusal[]) =>
    `${list
      .slice(0, 5)
      .map((r) => `${r.id} (dated ${r.transaction_date})`)
      .join(', ')}${list.length > 5 ? ', …' : ''}`
  const parts = [
    ...(locked.length
      ? [`${count(locked.length, 'row')} in a closed month, which a revert never changes (${locked[0].message}): ${name(locked)}`]
      : []),
    ...(edited.length ? [`${count(edited.length, 'row')} changed by hand since the import: ${name(edited)}`] : []),
  ]
  const hint = locked.length ? '' : ' (include_edited reverts them too)'
  return new AppError(
    locked.length ? 'period_locked' : 'conflict',
    `import batch ${batchId} was not reverted: ${parts.join('; ')}${hint}`,
    {
      details: refused.map((r) => ({ path: r.reason === 'edited' ? 'include_edited' : 'id', message: `${r.id}: ${r.message}` })),
    },
  )
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
): Promise<RevertResult> {
  const includeEdited = req.include_edited === true
  if (req.dry_run) {
    const row = await batchRow(store.db, store, actor.companyId, id, false)
    if (row.state === 'reverted') throw alreadyReverted(row)
    const p = await plan(store, store.db, row, includeEdited, false)
    const { rejects: _, ...batch } = await getImportBatch(store, actor.companyId, row.id)
    return {
      batch,
      dry_run: true,
      deleted: p.deletes.length,
      unpaired: p.unpairs.length,
      transactions: listed(p),
      refused: p.refused,
      statement: p.statement,
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

/** The revert's writes inside the caller's write transaction (after `prepareRevert`); `learn` runs once it committed. */
export async function revertIn(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  id: string,
  includeEdited: boolean,
  now: Date,
  approval?: object,
): Promise<{ result: RevertResult; learn: () => void }> {
  const ts = now.toISOString()
  {
    const row = await batchRow(trx, store, actor.companyId, id, true)
    if (row.state === 'reverted') throw alreadyReverted(row)
    const p = await plan(store, trx, row, includeEdited, true)
    if (p.refused.length) throw refusal(row.id, p.refused)
    // A bulk load's ref table must not keep the refs these rows free.
    if (p.deletes.some((r) => r.import_ref)) store.tx.refsWillChange()
    await store.writes.deleteTransactions(
      trx,
      p.deletes.map((r) => Number(r.seq)),
    )
    const audit: NewAuditEntryRow[] = []
    for (const u of p.unpairs) {
      const after: TransactionRow = { ...u.row, ...u.restore, updated_at: ts }
      await trx
        .updateTable('transactions')
        .set({ ...u.restore, updated_at: ts })
        .where('seq', '=', u.row.seq)
        .execute()
      audit.push(auditRow(actor, 'reconcile', u.row.id, diff(toTransaction(u.row), toTransaction(after)), now))
    }
    // Rows a later statement reconciled leave its counts.
    const others = new Map<string, number>()
    for (const r of p.deletes)
      if (r.bank_statement_id && r.bank_statement_id !== row.statement_id)
        others.set(r.bank_statement_id, (others.get(r.bank_statement_id) ?? 0) + 1)
    for (const [statement, n] of others)
      await trx
        .updateTable('bank_statements')
        .set((eb) => ({
          matched_count: eb('matched_count', '-', n),
          transaction_count: eb('transaction_count', '-', n),
          updated_at: ts,
        }))
        .where('id', '=', statement)
        .execute()
    const removed: Example[] = []
    for (const r of p.deletes) {
      const created = creationRow(actor.companyId, r.id, r)
      if (created) audit.push(created)
      audit.push(auditRow(actor, 'delete', r.id, diff(toTransaction(r), null), now))
      const e = exampleOf(r)
      if (e) removed.push(e)
    }
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
    // The chain's head is locked last, after every row lock of this write.
    await store.writes.appendAudit(trx, audit, 1000)
    const learn = await labelsChanged(trx, store, actor.companyId, removed, [], now)
    const after = await batchRow(trx, store, actor.companyId, id, false)
    const result: RevertResult = {
      batch: toImportBatch(after),
      dry_run: false,
      deleted: p.deletes.length,
      unpaired: p.unpairs.length,
      transactions: listed(p),
      refused: [],
      statement: p.statement,
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
          transaction_ids: p.deletes.map((r) => r.id),
          unpaired_ids: p.unpairs.map((u) => u.row.id),
          statement_id: p.statement?.id ?? null,
          ...(approval ? { approval } : {}),
        },
        now,
      ),
    ])
    return { result, learn }
  }
}

async function statementCounts(db: Kysely<Db>, id: string): Promise<Partial<ImportBatchRow>> {
  const st = await db
    .selectFrom('bank_statements')
    .select(['line_count', 'transaction_count', 'duplicate_count', 'matched_count', 'processed_at'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!st) return {}
  const matched = Number(st.matched_count)
  return {
    read_rows: Number(st.line_count),
    created: Number(st.transaction_count) - matched,
    existing: Number(st.duplicate_count),
    reconciled: matched,
    finished_at: st.processed_at,
  }
}

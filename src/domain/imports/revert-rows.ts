/**
 * The rows a revert takes, read a part at a time so that a batch of any size is held one part at a
 * time (docs/importing-csv.md, "Revert a batch"): first their few columns that decide refusals,
 * then, for the writes, whole rows by runs of seqs.
 */
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import type { Db, ImportBatchRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { CREATED_VIA, type TransactionRow } from '../../store/transaction-codec.js'
import { companyKey } from '../transaction-rows.js'
export { type UnlinkedDocument, linkedDocuments, unlinkDocuments } from '../transactions/document-links.js'

/**
 * Rows a part holds at most: each pass reads, checks and writes this many before the next. From
 * `threadRows` rows, the entries are worked out on a thread of their own (revert-thread.ts), with
 * at most `threadParts` parts sent ahead of the one being written: enough for the thread to keep
 * working while this one deletes the rows (docs/performance.md, "Reverting a batch").
 */
export const revertTuning = { chunkRows: 5000, threadRows: 20_000, threadParts: 16 }

type Changes = Record<string, { before: unknown; after: unknown }>

/** A row the batch reconciled instead of creating, and what it goes back to. */
export interface Unpair {
  row: TransactionRow
  restore: Pick<TransactionRow, 'is_reconciled' | 'status' | 'import_ref' | 'statement_ref' | 'bank_statement_id'>
}

/** What the first pass reads of a row to delete: what refusals, counts and the delete need. */
export interface LightRow {
  seq: number
  id: string
  transaction_date: string
  bank_statement_id: string | null
  import_ref: string | null
  /** Its `updated_at` (its creation's time while never changed): what a proposal of the revert is bound to. */
  version: string
}

/** The rows a batch's revert deletes (by parts), the rows it gives back, and the statement it deletes. */
export interface RowSource {
  parts(): AsyncGenerator<LightRow[]>
  unpairs: Unpair[]
  statement: { id: string; file_name: string } | null
}

const LIGHT = ['seq', 'id', 'transaction_date', 'bank_statement_id', 'import_ref', 'created_by', 'created_at', 'updated_at'] as const

export const chunks = <T>(list: readonly T[], n = 500): T[][] =>
  Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n))

const base = (db: Kysely<Db>) => db.selectFrom('transactions').selectAll()

async function selectRows(store: Store, db: Kysely<Db>, build: (q: ReturnType<typeof base>) => ReturnType<typeof base>, lock: boolean) {
  let q = build(base(db))
  if (lock && store.sql.rowLocks) q = q.forUpdate()
  return store.tx.decode(db, await q.execute())
}

/** The rows a CSV batch created, through the `rows_created` entries naming it (as `/transactions?import_batch_id=`). */
export async function csvSource(store: Store, db: Kysely<Db>, companyId: string, batch: string, lock: boolean): Promise<RowSource> {
  const entries = await db
    .selectFrom('audit_entries')
    .select(['actor', 'created_at', 'changes'])
    .where('company_id', '=', companyId)
    .where('action', '=', 'rows_created')
    .where('changes', 'like', `%"batch_id":"${batch.toLowerCase()}"%`)
    .execute()
  if (!entries.length) return { parts: async function* () {}, unpairs: [], statement: null }
  const actors = [...new Set(entries.map((e) => e.actor))]
  const keys = await Promise.all(actors.map((a) => store.tx.actorKey(a)))
  const keyOf = new Map(actors.map((a, i) => [a, keys[i]]))
  const company = await companyKey(store, companyId, db)
  // A batch's rows are its writes' creator and time: another write by the same key in the same
  // millisecond would add rows beyond what the batch's entries count, and is refused rather than
  // reverted with it (docs/decisions.md, "Import batches").
  const expected = new Map<string, number>()
  const perTime = new Map<string, number>()
  for (const e of entries) {
    const n = Number((JSON.parse(e.changes) as { count?: number }).count ?? 0)
    const key = `${keyOf.get(e.actor)}\n${e.created_at}`
    expected.set(key, (expected.get(key) ?? 0) + n)
    perTime.set(e.created_at, (perTime.get(e.created_at) ?? 0) + n)
  }
  const times = [...perTime.keys()].sort()
  // Times grouped so that a group's rows, by its entries' counts, fill about one part.
  const groups: string[][] = []
  let rows = Number.POSITIVE_INFINITY
  for (const t of times) {
    if (rows >= revertTuning.chunkRows || groups[groups.length - 1].length >= 500) {
      groups.push([])
      rows = 0
    }
    groups[groups.length - 1].push(t)
    rows += perTime.get(t)!
  }
  const parts = async function* (): AsyncGenerator<LightRow[]> {
    for (const group of groups) {
      let q = db
        .selectFrom('transactions')
        .select([...LIGHT])
        .where('company_key', '=', company)
        .where('created_by', 'in', keys)
        .where('created_at', 'in', group)
      if (lock && store.sql.rowLocks) q = q.forUpdate()
      const found = await q.execute()
      const counted = new Map<string, number>()
      for (const r of found) {
        const key = `${r.created_by}\n${r.created_at}`
        counted.set(key, (counted.get(key) ?? 0) + 1)
      }
      for (const [key, n] of counted)
        if (n > (expected.get(key) ?? 0)) {
          const [k, at] = key.split('\n')
          throw new AppError(
            'conflict',
            `rows of another write share this batch's creator and time (${actors[keys.indexOf(Number(k))]}, ${at}): they cannot be told apart, nothing was reverted`,
          )
        }
      for (const part of chunks(found, revertTuning.chunkRows)) yield part.map((r) => light(store, r))
    }
  }
  // Rows of a statement the batch's writes paired instead of creating: their `reconcile` entries,
  // written by the same actor at the same moment, gave them an import_ref.
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
    for (const f of found) paired.set(f.transaction_id, JSON.parse(f.changes) as Changes)
  }
  const timeSet = new Set(times)
  const unpairs: Unpair[] = []
  for (const part of chunks(store.tx.idParams([...paired.keys()])))
    for (const row of await selectRows(store, db, (q) => q.where('company_key', '=', company).where('id', 'in', part), lock)) {
      // A row the batch created (its creator and time) goes with it rather than back.
      if (row.created_by && keyOf.has(row.created_by) && timeSet.has(row.created_at)) continue
      const c = paired.get(row.id)!
      if (!row.import_ref || c.bank_statement_id) continue
      unpairs.push({ row, restore: restoreOf(row, c, { import_ref: null }) })
    }
  return { parts, unpairs, statement: null }
}

function light(
  store: Store,
  r: {
    seq: unknown
    id: unknown
    transaction_date: string
    bank_statement_id: string | null
    import_ref: string | null
    created_at: string
    updated_at: string | null
  },
): LightRow {
  return {
    seq: Number(r.seq),
    id: store.tx.idText(r.id as Parameters<Store['tx']['idText']>[0]),
    transaction_date: r.transaction_date,
    bank_statement_id: r.bank_statement_id,
    import_ref: r.import_ref,
    // Stored null while the row is as created (transaction-codec.ts).
    version: r.updated_at ?? r.created_at,
  }
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
export async function statementSource(
  store: Store,
  db: Kysely<Db>,
  companyId: string,
  statementId: string,
  lock: boolean,
): Promise<RowSource> {
  const st = await db
    .selectFrom('bank_statements')
    .select(['id', 'file_name', 'processed_at'])
    .where('company_id', '=', companyId)
    .where('id', '=', statementId)
    .executeTakeFirst()
  if (!st) return { parts: async function* () {}, unpairs: [], statement: null }
  const company = await companyKey(store, companyId, db)
  const via = CREATED_VIA.statement_import
  // The statement's own lines: created by its processing, at its processed_at.
  const at = st.processed_at ?? ''
  const matched = await selectRows(
    store,
    db,
    (q) =>
      q
        .where('company_key', '=', company)
        .where('bank_statement_id', '=', st.id)
        .where((eb) => eb.or([eb('created_via', 'is', null), eb('created_via', '!=', via), eb('created_at', '!=', at)])),
    lock,
  )
  const unpairs: Unpair[] = []
  for (const part of chunks(matched)) {
    const found = await db
      .selectFrom('audit_entries')
      .select(['transaction_id', 'changes'])
      .where('company_id', '=', companyId)
      .where('action', '=', 'reconcile')
      .where(
        'transaction_id',
        'in',
        part.map((r) => r.id),
      )
      .orderBy('id')
      .execute()
    const byId = new Map<string, Changes>()
    for (const f of found) {
      const c = JSON.parse(f.changes) as Changes
      if (c.bank_statement_id?.after === st.id) byId.set(f.transaction_id, c)
    }
    for (const row of part)
      unpairs.push({
        row,
        restore: restoreOf(row, byId.get(row.id) ?? {}, { bank_statement_id: null, statement_ref: null, is_reconciled: 0 }),
      })
  }
  const parts = async function* (): AsyncGenerator<LightRow[]> {
    // A statement's lines are read in one query (a statement is a file's lines), then checked by parts.
    let q = db
      .selectFrom('transactions')
      .select([...LIGHT])
      .where('company_key', '=', company)
      .where('bank_statement_id', '=', st.id)
      .where('created_via', '=', via)
      .where('created_at', '=', at)
    if (lock && store.sql.rowLocks) q = q.forUpdate()
    const found = await q.execute()
    for (const part of chunks(found, revertTuning.chunkRows)) yield part.map((r) => light(store, r))
  }
  return { parts, unpairs, statement: { id: st.id, file_name: st.file_name } }
}

/** Runs [first, last] of consecutive seqs, built as seqs come (in any order); `done` sorts and merges them. */
export class SeqRuns {
  private runs: Array<[number, number]> = []
  rows = 0

  add(seq: number): void {
    this.rows++
    const last = this.runs[this.runs.length - 1]
    if (last && seq === last[1] + 1) last[1] = seq
    else this.runs.push([seq, seq])
  }

  /** The runs of these seqs. */
  static of(seqs: readonly number[]): Array<[number, number]> {
    const r = new SeqRuns()
    for (const s of seqs) r.add(s)
    return r.done()
  }

  done(): Array<[number, number]> {
    const sorted = this.runs.sort((a, b) => a[0] - b[0])
    const out: Array<[number, number]> = []
    for (const r of sorted) {
      const last = out[out.length - 1]
      if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1])
      else out.push([r[0], r[1]])
    }
    this.runs = out
    return out
  }
}

/** Whole rows of these runs, a part of at most `size` rows at a time, in seq order. */
export async function* rowsByRuns(
  store: Pick<Store, 'tx'>,
  db: Kysely<Db>,
  runs: ReadonlyArray<readonly [number, number]>,
  size: number,
): AsyncGenerator<TransactionRow[]> {
  let part: Array<[number, number]> = []
  let n = 0
  const read = async () => {
    // Few runs: ranges of the primary key; many short ones: their seqs.
    const rows =
      part.length <= 50
        ? await base(db)
            .where((eb) => eb.or(part.map(([a, b]) => (a === b ? eb('seq', '=', a) : eb.between('seq', a, b)))))
            .orderBy('seq')
            .execute()
        : await base(db)
            .where(
              'seq',
              'in',
              part.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i)),
            )
            .orderBy('seq')
            .execute()
    part = []
    n = 0
    return store.tx.decode(db, rows)
  }
  for (const [from, to] of runs)
    for (let a = from; a <= to; ) {
      const b = Math.min(to, a + (size - n) - 1)
      part.push([a, b])
      n += b - a + 1
      a = b + 1
      if (n >= size) yield await read()
    }
  if (n) yield await read()
}

/** The ids among `ids` with an `update` or `bulk_update` entry: changed by hand (or by a rule run) since their creation. */
export async function editedOf(db: Kysely<Db>, companyId: string, ids: string[]): Promise<Set<string>> {
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

/** A statement's counts, kept on its batch when a revert deletes it. */
export async function statementCounts(db: Kysely<Db>, id: string): Promise<Partial<ImportBatchRow>> {
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

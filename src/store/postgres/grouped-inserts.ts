/**
 * Small inserts of transactions on PostgreSQL (POST /transactions, small batches) in a group commit,
 * the counterpart of SQLite's (sqlite/group-commit.ts): the calls made while the previous group is
 * written share one database transaction on one connection, in two round trips: BEGIN, one
 * multi-row INSERT of their rows and their companies' chain heads locked; then the audit entries,
 * the head's move and the events (one company) with the COMMIT. The round trips were most of
 * finctl's CPU per POST there (docs/performance.md, "Where a POST's time goes").
 *
 * Locks are taken in the order of every other write, the chain's head last: the head is locked by a
 * statement of its own after the INSERT, whose AFTER STATEMENT triggers (the period lock's companies
 * row, the report totals' rows) run at that statement's end; locked in the same statement it was held
 * while they waited, and a write holding a totals row and waiting for the head deadlocked with it.
 * A group holds at most one INSERT's rows, so that its totals rows are taken in one sorted statement.
 *
 * Each call keeps its own outcome: when the shared transaction fails (a row's account gone, an id
 * taken), it is rolled back whole and every call of the group runs again in a transaction of its
 * own, so one failing call neither undoes nor fails another. Nothing is answered before its COMMIT.
 * Rows are written as the kysely path writes them (TransactionCodec.encodeValues; ON CONFLICT on the
 * unique ref index keeps the first of two alike), entries chained as appendAudit chains them.
 */
import type pg from 'pg'
import { placeholders, queryAll, queryWith } from './params.js'
import { inPooledTransaction } from './pooled-transaction.js'
import { TX_COLUMNS, type NewAuditEntryRow, type NewEventRow } from '../schema.js'
import { entryHash, GENESIS } from '../audit-chain.js'
import { creationEntries } from '../creations.js'
import { EVENT_COLUMNS, eventsWritten } from '../events.js'
import { EVENTS_LOCK_CLASS, insertEventsPg } from './events.js'
import { InsertedRows, type InsertOptions } from '../store.js'
import type { NewTransactionRow, TransactionCodec } from '../transaction-codec.js'

interface Call {
  rows: NewTransactionRow[]
  o: InsertOptions
  resolve: (v: InsertedRows) => void
  reject: (e: unknown) => void
}

/** Rows a group at most: one statement's (27 parameters a row, under PostgreSQL's 65,535); a call has fewer (COPY_MIN_ROWS). */
const CHUNK = 500
const TX_INSERT_HEAD = `INSERT INTO transactions (${TX_COLUMNS.join(', ')}) VALUES `
const AUDIT_COLUMNS = 8

/** The statements' texts by row count: a group's size repeats, and each text is built once. */
const txInserts = new Map<number, string>()
function txInsert(n: number): string {
  let text = txInserts.get(n)
  if (!text) {
    text = `${TX_INSERT_HEAD}${placeholders(n, TX_COLUMNS.length)} ON CONFLICT (account_key, import_ref) DO NOTHING RETURNING id`
    txInserts.set(n, text)
  }
  return text
}

/** The heads of the companies in $1 (text[]), locked in a fixed order, so that two groups never wait on each other. */
const LOCK_HEADS = 'SELECT company_id, hash FROM audit_chain_heads WHERE company_id = ANY($1::text[]) ORDER BY company_id FOR UPDATE'

const AUDIT_INSERT = 'INSERT INTO audit_entries (company_id, transaction_id, actor, action, changes, created_at, prev_hash, hash)'
const MOVE_HEAD = 'UPDATE audit_chain_heads SET last_id = GREATEST(last_id, (SELECT max(id) FROM entry)), hash = $2 WHERE company_id = $1'

const chains = new Map<number, string>()
/** `n` entries inserted and the head moved past them, in one statement ($1: company, $2: new head hash). */
function chainInsert(n: number): string {
  let text = chains.get(n)
  if (!text) {
    text = `WITH entry AS (${AUDIT_INSERT} VALUES ${placeholders(n, AUDIT_COLUMNS, 3)} RETURNING id) ${MOVE_HEAD}`
    chains.set(n, text)
  }
  return text
}

const chainsWithEvents = new Map<string, string>()
/**
 * chainInsert and then `e` events of the same company: the outbox's lock (events.ts) taken after the
 * head's, and before the events' seq are drawn (their rows come out of a join with it).
 */
function chainWithEvents(n: number, e: number): string {
  const key = `${n}/${e}`
  let text = chainsWithEvents.get(key)
  if (!text) {
    const first = 3 + n * AUDIT_COLUMNS
    const values = placeholders(e, 8, first).replace(/\$(\d+)\)/g, '$$$1::bytea)')
    text =
      `WITH entry AS (${AUDIT_INSERT} VALUES ${placeholders(n, AUDIT_COLUMNS, 3)} RETURNING id), ` +
      `moved AS (${MOVE_HEAD}), ` +
      `locked AS (SELECT pg_advisory_xact_lock(${EVENTS_LOCK_CLASS}, hashtext($1)) AS l) ` +
      `INSERT INTO events (${EVENT_COLUMNS}) SELECT v.* FROM (VALUES ${values}) AS v(${EVENT_COLUMNS}) CROSS JOIN locked`
    chainsWithEvents.set(key, text)
  }
  return text
}

const HEAD = 'SELECT hash FROM audit_chain_heads WHERE company_id = $1 FOR UPDATE'
const NEW_HEAD = `INSERT INTO audit_chain_heads (company_id, last_id, hash) VALUES ($1, 0, '${GENESIS}') ON CONFLICT (company_id) DO NOTHING`

export class GroupedInserts {
  private queue: Call[] = []
  private scheduled = false

  constructor(
    private readonly pool: pg.Pool,
    private readonly codec: TransactionCodec,
  ) {}

  /** Insert `rows` (actors prepared) with the other calls of this turn; answers after the shared COMMIT. */
  insert(rows: NewTransactionRow[], o: InsertOptions): Promise<InsertedRows> {
    return new Promise<InsertedRows>((resolve, reject) => {
      this.queue.push({ rows, o, resolve, reject })
      this.schedule()
    })
  }

  /** One group written at a time: while one is, the next calls gather (a company's groups queue on its head anyway). */
  private writing = false

  private schedule(): void {
    if (this.scheduled || this.writing || this.queue.length === 0) return
    this.scheduled = true
    setImmediate(() => void this.drain())
  }

  private async drain(): Promise<void> {
    this.scheduled = false
    const group = this.take()
    this.writing = true
    try {
      const outcomes = await this.write(group)
      for (let i = 0; i < group.length; i++) group[i].resolve(outcomes[i])
    } catch (error) {
      if (group.length === 1) group[0].reject(error)
      // Alone, each call fails or goes in by itself.
      else await Promise.all(group.map((c) => this.write([c]).then(([r]) => c.resolve(r), c.reject)))
    } finally {
      this.writing = false
      this.schedule()
    }
  }

  /** The calls waiting, in order, up to one INSERT's rows (a call alone always fits); the rest wait for the next group. */
  private take(): Call[] {
    let rows = 0
    let n = 0
    while (n < this.queue.length && (n === 0 || rows + this.queue[n].rows.length <= CHUNK)) rows += this.queue[n++].rows.length
    return this.queue.splice(0, n)
  }

  /** The group's rows, entries and events in one transaction; each call's rows that went in. */
  private write(group: Call[]): Promise<InsertedRows[]> {
    // statements() begins with its first statement and commits with its last (params.ts, queryAll).
    return inPooledTransaction(this.pool, (client) => this.statements(client, group))
  }

  private async statements(client: pg.PoolClient, group: Call[]): Promise<InsertedRows[]> {
    const all: NewTransactionRow[] = []
    for (const c of group) for (const r of c.rows) all.push(r)
    const companies = [...new Set(all.map((r) => this.codec.companyIdOf(r.company_key)))].sort()
    const values: unknown[] = new Array(TX_COLUMNS.length)
    const params: unknown[] = []
    for (const r of all) {
      this.codec.encodeValues(r, values as Parameters<TransactionCodec['encodeValues']>[1])
      for (const v of values) params.push(v)
    }
    // BEGIN, the rows and the heads in one round trip, the heads by a statement of their own, after
    // the INSERT's triggers took their rows: the head is locked last, as every other write locks it.
    const [inserted, locked] = (
      await queryAll(client, ['BEGIN', { text: txInsert(all.length), params }, { text: LOCK_HEADS, params: [companies] }])
    ).slice(-2) as [pg.QueryResult<{ id: string }>, pg.QueryResult<{ company_id: string; hash: string }>]
    const ids = new Set(inserted.rows.map((d) => this.codec.idText(d.id)))
    const heads = new Map(locked.rows.map((h) => [h.company_id, h.hash]))
    const outcomes = group.map((c) => InsertedRows.ofIds(c.rows, ids))
    // Each call's creation entries, in call order, per company.
    const entries = new Map<string, NewAuditEntryRow[]>()
    group.forEach((c, i) => {
      const inserted = outcomes[i]
      const own = creationEntries(
        c.rows,
        (k) => inserted.at(k),
        (k) => this.codec.companyIdOf(k),
        c.o.batch,
      )
      for (const e of own) {
        const list = entries.get(e.company_id)
        if (list) list.push(e)
        else entries.set(e.company_id, [e])
      }
    })
    const events: NewEventRow[] = []
    group.forEach((c, i) => {
      const event = c.o.event?.(outcomes[i])
      if (event) events.push(event)
    })
    const chained = [...entries.keys()].sort()
    // The common case, one company whose entries fit one statement: entries, head and events in one.
    const only = chained.length === 1 ? chained[0] : undefined
    if (only !== undefined && entries.get(only)!.length <= CHUNK && events.every((e) => e.company_id === only)) {
      const list = entries.get(only)!
      const params = this.chainParams(only, await this.head(client, only, heads), list)
      for (const e of events)
        params.push(e.id, e.company_id, e.type, e.object_id ?? null, e.actor, e.created_at, e.data, e.packed_ids ?? null)
      const text = events.length ? chainWithEvents(list.length, events.length) : chainInsert(list.length)
      // With the COMMIT, in one round trip.
      await queryWith(client, { after: 'COMMIT' }, text, params)
      if (events.length) eventsWritten()
      return outcomes
    }
    // Companies in a fixed order, so that two groups never wait on each other.
    for (const companyId of chained) {
      let prev = await this.head(client, companyId, heads)
      const list = entries.get(companyId)!
      for (let i = 0; i < list.length; i += CHUNK) {
        const part = list.slice(i, i + CHUNK)
        const params = this.chainParams(companyId, prev, part)
        prev = params[1] as string
        await client.query(chainInsert(part.length), params)
      }
    }
    if (events.length) await insertEventsPg(client, events)
    await client.query('COMMIT')
    return outcomes
  }

  /** A company's head hash, locked: as the insert found it, or (its first write) created at the genesis and locked. */
  private async head(client: pg.PoolClient, companyId: string, heads: Map<string, string>): Promise<string> {
    const known = heads.get(companyId)
    if (known !== undefined) return known
    await client.query(NEW_HEAD, [companyId])
    return (await client.query<{ hash: string }>(HEAD, [companyId])).rows[0].hash
  }

  /** chainInsert's parameters: the company, the new head's hash, then each entry chained after `prev` (appendAudit's rule). */
  private chainParams(companyId: string, prev: string, entries: readonly NewAuditEntryRow[]): unknown[] {
    const params: unknown[] = [companyId, '']
    for (const e of entries) {
      const hash = entryHash(prev, e)
      params.push(e.company_id, e.transaction_id, e.actor, e.action, e.changes, e.created_at, prev, hash)
      prev = hash
    }
    params[1] = prev
    return params
  }
}

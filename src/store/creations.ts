/**
 * Creations in the audit chain (docs/audit.md, "Rows in the chain"): every write that creates
 * transactions chains one `rows_created` entry per creator, time and way (the rows' own created_by,
 * created_at, created_via: their group) holding how many rows it created and a sum over their ids.
 * `verifyCreations` groups the rows there now the same way and names a row of no group (inserted by
 * SQL) or a group whose count or sum differs (rows deleted, or inserted with copied creation fields).
 *
 * The sum is order-free, so that batches written concurrently in one millisecond by one key add up in
 * one group, and costs a few multiplications a row: an import pays for it on every row.
 */
import type { Kysely } from 'kysely'
import { appendAudit } from './audit-chain.js'
import type { Db, NewAuditEntryRow } from './schema.js'
import type { DialectSql } from './dialect-adapter.js'
import type { InsertedRows } from './store.js'
import type { NewTransactionRow, TransactionCodec } from './transaction-codec.js'

export const ROWS_CREATED = 'rows_created'

/** The creation actions of a transaction's own entry (written beside its delete entry). */
const CREATION_ACTIONS = new Set(['create', 'batch_create', 'statement_import'])

/** Four 32-bit lanes, added lane by lane (wrapping). */
export type IdSum = Uint32Array

function fmix(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** Add (sign 1) or take away (sign -1) a transaction id's 128-bit mix to `sum`; the id's case does not count. */
export function addId(sum: IdSum, id: string, sign = 1): void {
  let a = 0x811c9dc5
  let b = 0x9747b28c
  let c = 0x27d4eb2f
  let d = 0x165667b1
  for (let i = 0; i < id.length; i++) {
    const ch = id.charCodeAt(i) | 32
    a = Math.imul(a ^ ch, 0x01000193)
    b = Math.imul(b ^ ch, 0x5bd1e995)
    c = Math.imul(c ^ ch, 0x85ebca6b)
    d = Math.imul(d ^ ch, 0xc2b2ae35)
  }
  if (sign > 0) {
    sum[0] += fmix(a)
    sum[1] += fmix(b ^ a)
    sum[2] += fmix(c ^ b)
    sum[3] += fmix(d ^ c)
  } else {
    sum[0] -= fmix(a)
    sum[1] -= fmix(b ^ a)
    sum[2] -= fmix(c ^ b)
    sum[3] -= fmix(d ^ c)
  }
}

export function sumHex(sum: IdSum): string {
  return [...sum].map((n) => n.toString(16).padStart(8, '0')).join('')
}

export function sumOf(hex: string): IdSum {
  const out = new Uint32Array(4)
  for (let i = 0; i < 4; i++) out[i] = Number.parseInt(hex.slice(i * 8, i * 8 + 8), 16) || 0
  return out
}

/** The group of a row: who created it, when and how. */
export function groupKey(createdAt: string, createdBy: string | null | undefined, createdVia: string | null | undefined): string {
  return `${createdAt}\n${createdBy ?? ''}\n${createdVia ?? ''}`
}

interface Tally {
  companyId: string
  created_at: string
  created_by: string
  created_via: string | null
  count: number
  sum: IdSum
}

/**
 * The `rows_created` entries of `rows` (those `went` says went in), one per company and group.
 * `companyIdOf` names a row's company by its key (TransactionCodec.companyIdOf).
 */
export function creationEntries(
  rows: readonly NewTransactionRow[],
  went: (index: number) => boolean,
  companyIdOf: (key: number) => string,
  /** The import batch the write is part of (POST /imports): its entries name it, so that its rows can be found. */
  batch?: string,
): NewAuditEntryRow[] {
  const tallies = new Map<string, Tally>()
  let last: Tally | undefined
  let lastRow: NewTransactionRow | undefined
  for (let i = 0; i < rows.length; i++) {
    if (!went(i)) continue
    const r = rows[i]
    // A write's rows share company and creation: one map lookup for the first, none after.
    if (
      !last ||
      !lastRow ||
      r.company_key !== lastRow.company_key ||
      r.created_at !== lastRow.created_at ||
      r.created_by !== lastRow.created_by ||
      r.created_via !== lastRow.created_via
    ) {
      const key = `${r.company_key}\n${groupKey(r.created_at, r.created_by, r.created_via)}`
      last = tallies.get(key)
      if (!last) {
        last = {
          companyId: companyIdOf(r.company_key),
          created_at: r.created_at,
          created_by: r.created_by ?? '',
          created_via: r.created_via ?? null,
          count: 0,
          sum: new Uint32Array(4),
        }
        tallies.set(key, last)
      }
      lastRow = r
    }
    last.count++
    addId(last.sum, r.id)
  }
  return [...tallies.values()].map((t) => ({
    company_id: t.companyId,
    transaction_id: '',
    actor: t.created_by,
    action: ROWS_CREATED,
    changes: JSON.stringify({ count: t.count, created_via: t.created_via, id_sum: sumHex(t.sum), ...(batch ? { batch_id: batch } : {}) }),
    created_at: t.created_at,
  }))
}

/** The entries of an insert's rows that went in (InsertedRows), for the stores' hot paths. */
export function entriesOf(inserted: InsertedRows, codec: TransactionCodec, batch?: string): NewAuditEntryRow[] {
  const rows = inserted.given() as readonly NewTransactionRow[]
  return creationEntries(
    rows,
    (i) => inserted.at(i),
    (k) => codec.companyIdOf(k),
    batch,
  )
}

/** Chain the creation of `rows` (those whose id is in `ids`) inside the caller's transaction `trx`. */
export async function chainCreations(
  trx: Kysely<Db>,
  dialect: DialectSql,
  codec: TransactionCodec,
  rows: readonly NewTransactionRow[],
  ids: ReadonlySet<string>,
  batch?: string,
): Promise<void> {
  const entries = creationEntries(
    rows,
    (i) => ids.has(rows[i].id),
    (k) => codec.companyIdOf(k),
    batch,
  )
  if (entries.length) await appendAudit(trx, dialect, entries)
}

export type RowsBreakKind = 'row_inserted' | 'rows_deleted' | 'rows_changed'

export interface RowsBreak {
  kind: RowsBreakKind
  /** The row, when it can be named (a row of no group). */
  transaction_id: string | null
  /** The group's `rows_created` entry (its first), when the break is a group's. */
  entry_id: number | null
  message: string
}

export interface RowsReport {
  /** Transaction rows checked. */
  rows: number
  broken: RowsBreak | null
}

interface Group {
  entry: number
  count: number
  sum: IdSum
  /** Rows found now. */
  found: number
  foundSum: IdSum
  /** The rows of migration 0028's entry: every row with seq up to this one. */
  throughSeq?: number
}

const PAGE = 5_000

/**
 * The group of a `delete` entry that records the row's creation first (a revert's entries:
 * domain/transactions/audit.ts, deletionRow); undefined for one written beside a creation entry.
 */
function foldedCreation(changes: string): string | undefined {
  if (!changes.startsWith('{"created_at":')) return undefined
  let c: Record<string, unknown>
  try {
    c = JSON.parse(changes)
  } catch {
    return undefined
  }
  // The flat form holds each value itself, the older one `{ "before": ..., "after": null }`.
  const flat = typeof c.created_at === 'string'
  const before = (v: unknown) => (flat ? v : (v as { before?: unknown } | undefined)?.before)
  const at = before(c.created_at)
  const by = before(c.created_by)
  const via = before(c.created_via)
  if (typeof at !== 'string' || typeof by !== 'string' || typeof via !== 'string' || !CREATION_ACTIONS.has(via)) return undefined
  return groupKey(at, by, via)
}

/**
 * Compare the company's rows with its `rows_created` entries (on the caller's snapshot): each row
 * belongs to the group of its creator, time and way; deletes through finctl (a `delete` entry and
 * the row's creation entry beside it, or a `delete` entry that records the creation) are taken off
 * their group first.
 */
export async function verifyCreations(db: Kysely<Db>, codec: TransactionCodec, companyId: string): Promise<RowsReport> {
  const groups = new Map<string, Group>()
  let baseline: Group | undefined
  const deleted: string[] = []
  const creationOf = new Map<string, string>()
  let cursor = 0
  for (;;) {
    const page = await db
      .selectFrom('audit_entries')
      .select(['id', 'transaction_id', 'actor', 'action', 'changes', 'created_at'])
      .where('company_id', '=', companyId)
      .where('id', '>', cursor)
      .where('action', 'in', [ROWS_CREATED, 'delete', ...CREATION_ACTIONS])
      .orderBy('id')
      .limit(PAGE)
      .execute()
    for (const e of page) {
      if (e.action === ROWS_CREATED) {
        let c: { count?: number; created_via?: string | null; id_sum?: string; through_seq?: number }
        try {
          c = JSON.parse(e.changes)
        } catch {
          c = {}
        }
        const g: Group = {
          entry: Number(e.id),
          count: Number(c.count ?? 0),
          sum: sumOf(c.id_sum ?? ''),
          found: 0,
          foundSum: new Uint32Array(4),
        }
        if (c.through_seq !== undefined) {
          g.throughSeq = Number(c.through_seq)
          baseline = g
          continue
        }
        const key = groupKey(e.created_at, e.actor, c.created_via)
        const had = groups.get(key)
        if (!had) groups.set(key, g)
        else {
          had.count += g.count
          for (let i = 0; i < 4; i++) had.sum[i] += g.sum[i]
        }
      } else if (e.action === 'delete') {
        deleted.push(e.transaction_id)
        const folded = foldedCreation(e.changes)
        if (folded !== undefined) creationOf.set(e.transaction_id, folded)
      } else creationOf.set(e.transaction_id, groupKey(e.created_at, e.actor, e.action))
    }
    if (page.length < PAGE) break
    cursor = Number(page[page.length - 1].id)
  }
  // A row deleted through finctl leaves its group: the group it was created in, or the rows migration 0028 found.
  for (const id of deleted) {
    const key = creationOf.get(id)
    const g = (key !== undefined ? groups.get(key) : undefined) ?? baseline
    if (!g) continue
    g.count--
    addId(g.sum, id, -1)
  }
  const companyKey = await codec.companyKey(companyId, db)
  let rows = 0
  let stranger: string | undefined
  let after = -1
  for (;;) {
    const page = await db
      .selectFrom('transactions')
      .selectAll()
      .where('company_key', '=', companyKey)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(PAGE)
      .execute()
    if (page.length === 0) break
    after = Number(page[page.length - 1].seq)
    for (const r of await codec.decode(db, page)) {
      rows++
      const g = baseline && r.seq <= (baseline.throughSeq ?? 0) ? baseline : groups.get(groupKey(r.created_at, r.created_by, r.created_via))
      if (!g) {
        stranger ??= r.id
        continue
      }
      g.found++
      addId(g.foundSum, r.id)
    }
    if (page.length < PAGE) break
  }
  if (stranger !== undefined)
    return {
      rows,
      broken: {
        kind: 'row_inserted',
        transaction_id: stranger,
        entry_id: null,
        message: `transaction ${stranger} was inserted outside finctl: no audit entry records its creation`,
      },
    }
  for (const g of [...(baseline ? [baseline] : []), ...groups.values()].sort((x, y) => x.entry - y.entry)) {
    const sameSum = g.sum.every((v, i) => v === g.foundSum[i])
    if (g.found === g.count && sameSum) continue
    const which = `the transactions created by audit entry #${g.entry}`
    const counts = `${g.count} recorded (after deletes), ${g.found} there`
    if (g.found < g.count)
      return {
        rows,
        broken: {
          kind: 'rows_deleted',
          transaction_id: null,
          entry_id: g.entry,
          message: `${which} were deleted outside finctl: ${counts}`,
        },
      }
    if (g.found > g.count)
      return {
        rows,
        broken: {
          kind: 'row_inserted',
          transaction_id: null,
          entry_id: g.entry,
          message: `a transaction was inserted outside finctl among ${which}: ${counts}`,
        },
      }
    return {
      rows,
      broken: {
        kind: 'rows_changed',
        transaction_id: null,
        entry_id: g.entry,
        message: `${which} are not the rows it recorded (an id changed, or rows deleted and others inserted outside finctl)`,
      },
    }
  }
  return { rows, broken: null }
}

/**
 * Any write of an agent's that no action of its own describes (docs/agents.md, "Any other write"): a
 * deletion, a bulk change, an account, a rate, a close. The request is kept as it came and bound to
 * what it names: each row its path names (`/transactions/{id}`, `/exchange-rates/{date}/{currency}`)
 * by the SHA-256 of the whole row, and a change the service computes from the books (a bulk change, a
 * run of rules) to the last entry of the books' audit. Approved, it is replayed as the approver
 * through the same routes (src/api/replay.ts), the binding checked again inside its first write
 * transaction, so nothing that moved since is written over. agent-request.ts proposes it.
 */
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import { PROPOSAL_ACTIONS } from '../../store/proposal-entries.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { toTransaction } from '../transaction-rows.js'
import { lockRows } from '../transactions/updates.js'
import type { AgentStepEffect, AskedRequest } from './agent-schemas.js'

type Named = Extract<AgentStepEffect, { action: 'request' }>['named'][number]
type Effect = Extract<AgentStepEffect, { action: 'request' }>

/** A row a path names: its table, found by `id` and the company, or by the columns `where` gives. */
interface Resource {
  table: keyof Db
  /** The row must exist when proposed (404 otherwise); a rate or a budget version may be new. */
  must: boolean
}

/** By the path's segment before the parameter (`transactions/{id}`), or the parameter's own name. */
const RESOURCES: Readonly<Record<string, Resource>> = {
  'transactions/{id}': { table: 'transactions', must: true },
  'links/{transaction_id}': { table: 'transactions', must: true },
  'bank-accounts/{id}': { table: 'bank_accounts', must: true },
  'categorization-rules/{id}': { table: 'categorization_rules', must: true },
  'documents/{id}': { table: 'documents', must: true },
  'imports/{id}': { table: 'import_batches', must: true },
  'recurring/{id}': { table: 'recurring_items', must: true },
  'webhook-endpoints/{id}': { table: 'webhook_endpoints', must: true },
  'users/{id}': { table: 'users', must: true },
  'invitations/{id}': { table: 'user_invitations', must: true },
  'events/{id}': { table: 'events', must: true },
}

/**
 * Writes whose rows the service picks from the books (a filter, every rule, the suggestions): bound
 * to the books as they were, since any change to a transaction may change what they do.
 */
const FROM_THE_BOOKS = new Set([
  'POST /api-v1/transactions/bulk-update',
  'POST /api-v1/transactions/bulk-delete',
  'POST /api-v1/categorization-rules/apply',
  'POST /api-v1/categorization-rules/{id}/apply',
  'POST /api-v1/documents/suggestions/apply',
  'POST /api-v1/recurring/detect',
  'POST /api-v1/categorization/model/retrain',
  'POST /api-v1/imports/{id}/revert',
])

const SECRET = /hash|secret|token|password/

/** A resource as a message names one: `bank_accounts` → `bank account`, `period` → `month`. */
const noun = (resource: string) =>
  resource === 'period'
    ? 'month'
    : resource
        .replace(/_/g, ' ')
        .replace(/(batch)es$/, '$1')
        .replace(/s$/, '')

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** A stored value as JSON keeps it: bytes as their count and digest. */
function plain(v: unknown): unknown {
  if (v instanceof Uint8Array) return { bytes: v.byteLength, sha256: createHash('sha256').update(v).digest('hex') }
  if (typeof v === 'bigint') return String(v)
  return v
}

/** The row as it is versioned (every column) and as an approver reads it (no secret's hash, no bytes). */
function versioned(row: Record<string, unknown> | undefined): Pick<Named, 'version' | 'row'> {
  if (!row) return { version: 'absent', row: null }
  const all = Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plain(v)]))
  const keys = Object.keys(all).sort()
  const version = sha256(JSON.stringify(keys.map((k) => [k, all[k]])))
  const shown = Object.fromEntries(keys.filter((k) => !SECRET.test(k)).map((k) => [k, all[k]]))
  return { version, row: shown }
}

/**
 * A path's parameters by its route's template (`METHOD /x/{id}`): each its name, the segment
 * before it (`transactions` for `/transactions/{id}`), and its value percent-decoded.
 */
export function pathParameters(route: string, path: string): Array<{ at: string; name: string; value: string }> {
  const template = route.slice(route.indexOf(' ') + 1).split('/')
  const given = path.split('/')
  const out: Array<{ at: string; name: string; value: string }> = []
  template.forEach((seg, i) => {
    if (!seg.startsWith('{') || !seg.endsWith('}')) return
    let value = given[i] ?? ''
    try {
      value = decodeURIComponent(value)
    } catch {}
    out.push({ at: template[i - 1] ?? '', name: seg.slice(1, -1), value })
  })
  return out
}

/** Read each row the request names, in `db` (the approval's transaction locks them on PostgreSQL). */
async function namedRows(store: Store, db: Kysely<Db>, companyId: string, asked: AskedRequest): Promise<Named[]> {
  const params = pathParameters(asked.route, asked.path)
  const out: Named[] = []
  const rate = params.find((p) => p.name === 'date')
  if (rate) {
    const currency = params.find((p) => p.name === 'currency')?.value.toUpperCase() ?? ''
    let q = db
      .selectFrom('exchange_rates')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('rate_date', '=', rate.value)
      .where('currency_code', '=', currency)
    if (store.sql.rowLocks) q = q.forUpdate()
    const row = await q.executeTakeFirst()
    out.push({ resource: 'exchange_rates', id: `${rate.value}/${currency}`, ...versioned(row) })
  }
  const month = params.find((p) => p.name === 'month')
  if (month) {
    // A close or reopen is bound to the company's lock date and the month's records.
    let q = db.selectFrom('companies').select(['id', 'lock_date']).where('id', '=', companyId)
    if (store.sql.rowLocks) q = q.forUpdate()
    const company = await q.executeTakeFirst()
    const closes = await db
      .selectFrom('period_closes')
      .select(['id', 'action', 'lock_date', 'created_at'])
      .where('company_id', '=', companyId)
      .where('period', '=', month.value)
      .orderBy('id')
      .execute()
    const row = { lock_date: company?.lock_date ?? null, records: closes.map((r) => ({ ...r, id: Number(r.id) })) }
    out.push({ resource: 'period', id: month.value, ...versioned(row) })
  }
  const version = params.find((p) => p.name === 'name' && p.at === 'versions')
  if (version) {
    const row = await db
      .selectFrom('budget_versions')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('name', '=', version.value)
      .executeTakeFirst()
    out.push({ resource: 'budget_versions', id: version.value, ...versioned(row) })
  }
  for (const p of params) {
    const r = RESOURCES[`${p.at}/{${p.name}}`]
    if (!r) continue
    let row: Record<string, unknown> | undefined
    if (r.table === 'transactions') {
      const [t] = await lockRows(store, db, companyId, [p.value])
      row = t ? (toTransaction(t) as unknown as Record<string, unknown>) : undefined
    } else {
      // Every table RESOURCES names has `id` and `company_id`.
      const anyDb = db as unknown as Kysely<Record<string, { id: string; company_id: string }>>
      let q = anyDb.selectFrom(r.table).selectAll().where('id', '=', p.value).where('company_id', '=', companyId)
      if (store.sql.rowLocks) q = q.forUpdate()
      row = (await q.executeTakeFirst()) as Record<string, unknown> | undefined
    }
    if (!row && r.must) throw new AppError('not_found', `${noun(r.table)} ${p.value} not found`)
    out.push({ resource: r.table, id: p.value, ...versioned(row) })
  }
  return out
}

/** The last entry of the books' audit (a proposal's own entries aside): what a change computed from the books is bound to. */
async function booksEntry(db: Kysely<Db>, companyId: string): Promise<number> {
  const r = await db
    .selectFrom('audit_entries')
    .select('id')
    .where('company_id', '=', companyId)
    .where('action', 'not in', [...PROPOSAL_ACTIONS])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return r ? Number(r.id) : 0
}

/** What the request is bound to, as it stands in `db`. */
export async function bindingOf(
  store: Store,
  db: Kysely<Db>,
  companyId: string,
  asked: AskedRequest,
): Promise<Omit<Effect, 'action' | 'route'>> {
  const named = await namedRows(store, db, companyId, asked)
  const books = FROM_THE_BOOKS.has(asked.route) ? { audit_id: await booksEntry(db, companyId) } : null
  return { named, books }
}

/**
 * Refuse the replay when what the request was bound to moved, naming it. Run in the approval's
 * transaction and again inside the replay's first write transaction (kernel/first-write.ts).
 */
export async function requireUnmovedRequest(store: Store, db: Kysely<Db>, companyId: string, asked: AskedRequest, effect: Effect) {
  const now = await bindingOf(store, db, companyId, asked).catch((e: unknown) => {
    if (e instanceof AppError && e.code === 'not_found')
      throw new AppError('conflict', `${e.message.replace(/ not found$/, '')} is gone since the request was proposed`)
    throw e
  })
  for (const then of effect.named) {
    const row = now.named.find((n) => n.resource === then.resource && n.id === then.id)
    if (row?.version !== then.version)
      throw new AppError(
        'conflict',
        `${noun(then.resource)} ${then.id} changed since the request was proposed${row?.version === 'absent' ? ' (it is gone)' : then.version === 'absent' ? ' (it was made since)' : ''}`,
      )
  }
  if (effect.books && now.books && now.books.audit_id !== effect.books.audit_id)
    throw new AppError(
      'conflict',
      `the books changed since the request was proposed (their audit's last entry is #${now.books.audit_id}, the proposal saw #${effect.books.audit_id}): the rows it would change may differ`,
    )
}

/** The approver replays the request through its route: they hold one of the scopes it takes. */
export function requireRouteScope(actor: { scopes: readonly string[] }, asked: AskedRequest): void {
  if (asked.accepts.length > 0 && !asked.accepts.some((s) => actor.scopes.includes(s)))
    throw new AppError(
      'forbidden',
      `approving ${asked.method} ${asked.route.slice(asked.route.indexOf(' ') + 1)} takes the ${asked.accepts.join(' or ')} scope, which this credential lacks`,
    )
}

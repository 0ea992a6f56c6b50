/**
 * Reports as the data stood at a past moment (`as_of`, docs/audit.md). The report's queries run on
 * the data as it is; this module finds the transactions that differ from how they stood then and
 * gives, for each, a row taking back what it counts for now (sign -1) and a row adding what it
 * counted for then (sign +1). The states then are rebuilt from the audit trail: a transaction
 * created after the moment is left out; an entry after it (update, bulk_update, reconcile, delete)
 * is undone, newest first, by its `before` values; a transaction deleted after it comes back from
 * its delete entry, which holds every field it had (and, for a revert's, when it was created). Every change of a transaction writes its entry
 * in the same database transaction, so the rebuild is exact.
 */
import type { Kysely } from 'kysely'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { TransactionRow } from '../../store/transaction-codec.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { convertMinor, toMinor } from '../../kernel/money.js'
import { toTransaction } from '../transaction-rows.js'
import { creationInDeletion, isCreation, readChanges } from '../transactions/audit.js'
import { amountInAccount, type Movement } from '../accounts/balances.js'
import type { Held, OpeningAccount } from '../accounts/opening.js'
import { ACCOUNT_UPDATE } from '../accounts/account-updates.js'
import { ROWS_CREATED } from '../../store/creations.js'
import type { DayFlow, Scope, SummaryGroup } from './queries.js'

/** A transaction as it counts in a report, with the sign it is counted with. */
export interface DeltaRow {
  sign: 1n | -1n
  account_key: number
  transaction_date: string
  cash_flow_category: string | null
  accounting_category: string | null
  category: string | null
  merchant_name: string | null
  status: string
  is_reconciled: boolean
  amount: bigint
  currency_code: string
  exchange_rate: string
  base_amount: bigint
}

export type State = Record<string, unknown>
const CHUNK = 500

/**
 * The transactions whose state at `asOf` differs from now, in the whole company: each as it is now
 * (`now`: created after the moment, or changed or deleted since), and each that existed then as
 * it stood (`past`: rebuilt from the audit trail; `row` its row now, when it still exists).
 */
export async function transactionsThen(
  store: Store,
  db: Kysely<Db>,
  companyId: string,
  company: number,
  asOf: string,
): Promise<{
  now: TransactionRow[]
  past: Array<{ id: string; state: State; row: TransactionRow | undefined }>
  accounts: Map<string, number>
}> {
  const later = await db
    .selectFrom('audit_entries')
    .select(['id', 'transaction_id', 'action', 'changes'])
    .where('company_id', '=', companyId)
    .where('created_at', '>', asOf)
    .orderBy('id', 'asc')
    .execute()
  const newer = await db.selectFrom('transactions').selectAll().where('company_key', '=', company).where('created_at', '>', asOf).execute()
  const changed = new Map<string, Array<{ action: string; changes: Record<string, { before: unknown }> }>>()
  for (const e of later) {
    if (isCreation(e.action) || e.action === ACCOUNT_UPDATE || e.action === ROWS_CREATED) continue
    const list = changed.get(e.transaction_id) ?? []
    list.push({ action: e.action, changes: readChanges(e.action, e.changes) })
    changed.set(e.transaction_id, list)
  }
  const accounts = new Map<string, number>()
  if (changed.size === 0 && newer.length === 0) return { now: [], past: [], accounts }

  for (const a of await db.selectFrom('bank_accounts').select(['id', 'key']).where('company_id', '=', companyId).execute())
    accounts.set(a.id, Number(a.key))
  const current = new Map<string, TransactionRow>()
  for (const r of await store.tx.decode(db, newer)) current.set(r.id, r)
  const ids = [...changed.keys()].filter((id) => !current.has(id))
  const stored = store.tx.idParams(ids)
  for (let i = 0; i < stored.length; i += CHUNK) {
    const rows = await db
      .selectFrom('transactions')
      .selectAll()
      .where('company_key', '=', company)
      .where('id', 'in', stored.slice(i, i + CHUNK))
      .execute()
    for (const r of await store.tx.decode(db, rows)) current.set(r.id, r)
  }
  // A transaction deleted since counts then only if it was created by then: its creation entry says
  // when, or its `delete` entry when it records the creation (a revert's).
  const deleted = [...changed].filter(([id, list]) => !current.has(id) && list.some((e) => e.action === 'delete')).map(([id]) => id)
  const createdBy = new Set<string>()
  const unfolded: string[] = []
  for (const id of deleted) {
    const folded = changed
      .get(id)!
      .map((e) => creationInDeletion(e))
      .find((c) => c !== undefined)
    if (!folded) unfolded.push(id)
    else if (folded.at <= asOf) createdBy.add(id)
  }
  for (let i = 0; i < unfolded.length; i += CHUNK) {
    const rows = await db
      .selectFrom('audit_entries')
      .select(['transaction_id', 'action'])
      .where('company_id', '=', companyId)
      .where('transaction_id', 'in', unfolded.slice(i, i + CHUNK))
      .where('created_at', '<=', asOf)
      .execute()
    for (const r of rows) if (isCreation(r.action)) createdBy.add(r.transaction_id)
  }

  const past: Array<{ id: string; state: State; row: TransactionRow | undefined }> = []
  for (const row of current.values()) {
    if (row.created_at > asOf) continue
    const state: State = { ...toTransaction(row) }
    undo(state, changed.get(row.id) ?? [])
    past.push({ id: row.id, state, row })
  }
  for (const id of deleted) {
    if (!createdBy.has(id)) continue
    const state: State = {}
    undo(state, changed.get(id)!)
    past.push({ id, state, row: undefined })
  }
  return { now: [...current.values()], past, accounts }
}

/** The rows of `scope` that differ at `asOf` from now; empty when nothing changed since. */
export async function asOfDelta(
  store: Store,
  db: Kysely<Db>,
  companyId: string,
  company: number,
  scope: Scope,
  base: string,
  asOf: string,
): Promise<DeltaRow[]> {
  const { now, past, accounts } = await transactionsThen(store, db, companyId, company, asOf)
  const out: DeltaRow[] = []
  const inScope = (accountKey: number) => scope.column === 'company_key' || scope.value === accountKey
  for (const row of now) if (inScope(row.account_key)) out.push(countedNow(row))
  for (const t of past) {
    const counted = countedThen(t.state, accounts, base, t.row)
    if (counted && inScope(counted.account_key)) out.push(counted)
  }
  return out
}

interface AccountThen {
  id: string
  currency_code: string
  opening_balance: number
  opening_balance_date: string | null
  opening_exchange_rate: string | null
}

/**
 * The accounts' opening balances, dates and rates as they stood at `asOf`: each later change of an account
 * (its `account_update` audit entries) taken back, newest first, by its `before` values.
 */
export async function accountsThen<A extends AccountThen>(db: Kysely<Db>, companyId: string, accounts: A[], asOf: string): Promise<A[]> {
  const later = await db
    .selectFrom('audit_entries')
    .select(['transaction_id', 'changes'])
    .where('company_id', '=', companyId)
    .where('created_at', '>', asOf)
    .where('action', '=', ACCOUNT_UPDATE)
    .orderBy('id', 'desc')
    .execute()
  if (later.length === 0) return accounts
  return accounts.map((a) => {
    const then = { ...a }
    for (const e of later) {
      if (e.transaction_id !== a.id) continue
      const c = JSON.parse(e.changes) as Record<string, { before: unknown }>
      if (c.opening_balance) then.opening_balance = toMinor(c.opening_balance.before as number, a.currency_code)
      if (c.opening_balance_date) then.opening_balance_date = c.opening_balance_date.before as string | null
      if (c.opening_exchange_rate) then.opening_exchange_rate = c.opening_exchange_rate.before as string | null
    }
    return then
  })
}

/** Take back, newest first, what each entry changed (a delete entry's `before` is the whole transaction). */
function undo(state: State, entries: ReadonlyArray<{ changes: Record<string, { before: unknown }> }>): void {
  for (let i = entries.length - 1; i >= 0; i--) for (const [field, c] of Object.entries(entries[i].changes)) state[field] = c.before
}

function countedNow(row: TransactionRow): DeltaRow {
  return {
    sign: -1n,
    account_key: row.account_key,
    transaction_date: row.transaction_date,
    cash_flow_category: row.cash_flow_category,
    accounting_category: row.accounting_category,
    category: row.category,
    merchant_name: row.merchant_name,
    status: row.status,
    is_reconciled: row.is_reconciled === 1,
    amount: BigInt(row.amount),
    currency_code: row.currency_code,
    exchange_rate: row.exchange_rate,
    base_amount: BigInt(row.base_amount),
  }
}

/**
 * A rebuilt state as it counted then. Its base amount is the row's when amount, currency and rate
 * are as now (the very number stored); otherwise converted as a write converts it (half-even, once).
 */
export function countedThen(
  state: State,
  accounts: Map<string, number>,
  base: string,
  row: TransactionRow | undefined,
): DeltaRow | undefined {
  const accountKey = accounts.get(String(state.bank_account_id))
  const currency = state.currency_code
  if (accountKey === undefined || typeof currency !== 'string' || state.amount == null) return undefined
  const amount = toMinor(state.amount as number, currency)
  const rate = row && Number(row.exchange_rate) === Number(state.exchange_rate) ? row.exchange_rate : String(state.exchange_rate ?? '1')
  const same = row !== undefined && row.amount === amount && row.currency_code === currency && row.exchange_rate === rate
  const baseAmount = same ? row.base_amount : convertMinor(amount, currencyExponent(currency), rate, currencyExponent(base))
  return {
    sign: 1n,
    account_key: accountKey,
    transaction_date: String(state.transaction_date),
    cash_flow_category: (state.cash_flow_category as string | null) ?? null,
    accounting_category: (state.accounting_category as string | null) ?? null,
    category: (state.category as string | null) ?? null,
    merchant_name: (state.merchant_name as string | null) ?? null,
    status: String(state.status),
    is_reconciled: state.is_reconciled === true,
    amount: BigInt(amount),
    currency_code: currency,
    exchange_rate: rate,
    base_amount: BigInt(baseAmount),
  }
}

const counted = (d: DeltaRow) => d.status !== 'void'

/** What the rows add to netBefore (cash flow's opening movement): each non-void row dated before `before`. */
export function netBeforeDelta(delta: readonly DeltaRow[], before: string): bigint {
  let net = 0n
  for (const d of delta) if (counted(d) && d.transaction_date < before) net += d.sign * d.base_amount
  return net
}

/** The rows as signed day flows in the range (flowsByDay's shape): the cash-flow buckets add them. */
export function dayFlowsDelta(delta: readonly DeltaRow[], from: string, to: string): DayFlow[] {
  return delta
    .filter((d) => counted(d) && d.transaction_date >= from && d.transaction_date <= to)
    .map((d) => ({
      date: d.transaction_date,
      cashFlow: d.cash_flow_category,
      inflows: d.sign * (d.base_amount > 0n ? d.base_amount : 0n),
      outflows: d.sign * (d.base_amount < 0n ? -d.base_amount : 0n),
    }))
}

/** summaryGroups with the rows counted in: groups merged by their key, those left empty dropped. */
export function mergeGroups(groups: readonly SummaryGroup[], delta: readonly DeltaRow[], from: string, to: string): SummaryGroup[] {
  const key = (g: { cashFlow: string | null; accounting: string | null; category: string | null; merchant: string | null }) =>
    JSON.stringify([g.cashFlow, g.accounting, g.category, g.merchant])
  const out = new Map<string, SummaryGroup>()
  for (const g of groups) out.set(key(g), { ...g })
  for (const d of delta) {
    if (!counted(d) || d.transaction_date < from || d.transaction_date > to) continue
    const g0 = { cashFlow: d.cash_flow_category, accounting: d.accounting_category, category: d.category, merchant: d.merchant_name }
    const k = key(g0)
    const g = out.get(k) ?? { ...g0, count: 0, net: 0n, inflows: 0n, pending: 0, unreconciled: 0 }
    const n = Number(d.sign)
    g.count += n
    g.net += d.sign * d.base_amount
    g.inflows += d.sign * (d.base_amount > 0n ? d.base_amount : 0n)
    if (d.status === 'pending') g.pending += n
    if (!d.is_reconciled) g.unreconciled += n
    out.set(k, g)
  }
  return [...out.values()].filter((g) => g.count !== 0)
}

/** accountMovements with the rows counted in (balances.ts's rule: amountInAccount, else unconverted per currency). */
export function moveAccounts(
  moved: Map<number, Movement>,
  accounts: ReadonlyArray<{ key: number; currency_code: string }>,
  base: string,
  delta: readonly DeltaRow[],
  upTo: string,
): void {
  for (const a of accounts) {
    const m = moved.get(a.key)
    if (!m) continue
    for (const d of delta) if (d.account_key === a.key && counted(d) && d.transaction_date <= upTo) addRow(m, d, a.currency_code, base)
    m.unconverted = tidy(m.unconverted)
  }
}

/** heldByOpening (accounts/opening.ts) with the rows counted in: those dated before each account's opening date. */
export function moveHeld(held: Map<number, Held>, accounts: readonly OpeningAccount[], base: string, delta: readonly DeltaRow[]): void {
  for (const a of accounts) {
    const od = a.opening_balance_date
    if (od === null) continue
    const h = held.get(a.key) ?? { count: 0, net: 0n, unconverted: [], base: 0n, currencies: [] }
    for (const d of delta) {
      if (d.account_key !== a.key || !counted(d) || d.transaction_date >= od) continue
      addRow(h, d, a.currency_code, base)
      h.count += Number(d.sign)
      h.base += d.sign * d.base_amount
      let c = h.currencies.find((x) => x.currency_code === d.currency_code)
      if (!c) {
        c = { currency_code: d.currency_code, amount: 0n, base: 0n }
        h.currencies.push(c)
      }
      c.amount += d.sign * d.amount
      c.base += d.sign * d.base_amount
    }
    h.unconverted = tidy(h.unconverted)
    if (h.count !== 0) held.set(a.key, h)
    else held.delete(a.key)
  }
}

function addRow(m: Movement, d: DeltaRow, currency: string, base: string): void {
  const own = amountInAccount(
    { amount: Number(d.amount), currency_code: d.currency_code, base_amount: Number(d.base_amount) },
    currency,
    base,
  )
  if (own !== undefined) {
    m.net += d.sign * BigInt(own)
    return
  }
  let u = m.unconverted.find((x) => x.currency_code === d.currency_code)
  if (!u) {
    u = { currency_code: d.currency_code, count: 0, amount: 0n }
    m.unconverted.push(u)
  }
  u.count += Number(d.sign)
  u.amount += d.sign * d.amount
}

const tidy = (list: Movement['unconverted']) =>
  list.filter((u) => u.count !== 0).sort((x, y) => (x.currency_code < y.currency_code ? -1 : 1))

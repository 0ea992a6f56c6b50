/**
 * Exports as the data stood at a past moment (`as_of`, docs/exporting.md; the rebuild is the
 * reports', reports/as-of.ts): the transactions whose state differs then from now (`ids`, to leave
 * out of the page walk) and each as it stood then within the period (`rows`, merged in by date by
 * the client), and the groups of the period with those rows counted as then. Bounded by the changes
 * since the moment, not by the rows.
 */
import type { Kysely } from 'kysely'
import { currencyExponent } from '../../kernel/currencies.js'
import { convertMinor, formatMinor, minorToNumber, toMinor } from '../../kernel/money.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { DeltaRow } from '../reports/as-of.js'
import { transactionsThen } from '../reports/as-of.js'
import { isCreation } from '../transactions/audit.js'
import type { Transaction } from '../schemas.js'
import type { ExportAsOf, ExportGroups, ExportTransaction } from './schemas.js'

const CHUNK = 500

const NULLS = {
  exchange_rate_date: null,
  category: null,
  accounting_category: null,
  cash_flow_category: null,
  merchant_name: null,
  ai_confidence_score: null,
  bank_statement_id: null,
  tags: [],
}

/** The moment as the audit trail's timestamps are written. */
export const moment = (asOf: string) => new Date(asOf).toISOString()

export async function rowsThen(
  store: Store,
  db: Kysely<Db>,
  companyId: string,
  company: number,
  base: string,
  q: { from: string; to: string; accountKey?: number; asOf: string },
): Promise<ExportAsOf> {
  const at = moment(q.asOf)
  const { now, past, accounts } = await transactionsThen(store, db, companyId, company, at)
  // When each row was created and last changed by then: its created_at and updated_at as they stood.
  const times = new Map<string, { created?: string; changed?: string }>()
  const ids = past.map((t) => t.id)
  for (let i = 0; i < ids.length; i += CHUNK) {
    const entries = await db
      .selectFrom('audit_entries')
      .select(['transaction_id', 'action', 'created_at'])
      .where('company_id', '=', companyId)
      .where('transaction_id', 'in', ids.slice(i, i + CHUNK))
      .where('created_at', '<=', at)
      .execute()
    for (const e of entries) {
      const t = times.get(e.transaction_id) ?? {}
      if (isCreation(e.action)) t.created = e.created_at
      else if (!t.changed || e.created_at > t.changed) t.changed = e.created_at
      times.set(e.transaction_id, t)
    }
  }
  const rows: ExportTransaction[] = []
  for (const t of past) {
    const s = t.state
    const key = accounts.get(String(s.bank_account_id))
    const currency = s.currency_code
    if (key === undefined || typeof currency !== 'string' || s.amount == null) continue
    if (q.accountKey !== undefined && key !== q.accountKey) continue
    const date = String(s.transaction_date)
    if (date < q.from || date > q.to) continue
    // The rate and base amount as a write would have made them (the row's own when unchanged).
    const row = t.row
    const amount = toMinor(s.amount as number, currency)
    const rate = row && Number(row.exchange_rate) === Number(s.exchange_rate) ? row.exchange_rate : String(s.exchange_rate ?? '1')
    const same = row !== undefined && row.amount === amount && row.currency_code === currency && row.exchange_rate === rate
    const baseMinor = same ? row.base_amount : convertMinor(amount, currencyExponent(currency), rate, currencyExponent(base))
    const created = String(s.created_at ?? times.get(t.id)?.created ?? row?.created_at ?? '')
    const changed = times.get(t.id)?.changed
    rows.push({
      // A delete entry leaves out the fields that were null.
      ...NULLS,
      ...(s as unknown as Transaction),
      id: t.id,
      created_at: created,
      updated_at: changed !== undefined && changed > created ? changed : created,
      exchange_rate_exact: rate,
      base_amount: minorToNumber(Number(baseMinor), base),
    })
  }
  rows.sort((a, b) => (a.transaction_date < b.transaction_date ? -1 : a.transaction_date > b.transaction_date ? 1 : a.id < b.id ? -1 : 1))
  return { as_of: moment(q.asOf), ids: now.map((r) => r.id).sort(), rows }
}

/** The groups with the rows that differ counted as then: each row now taken out, each row then put in. */
export function groupsThen(
  groups: ExportGroups['groups'],
  delta: readonly DeltaRow[],
  ids: Map<number, string>,
  base: string,
  from: string,
  to: string,
) {
  const key = (g: {
    bank_account_id: string
    category: string | null
    accounting_category: string | null
    cash_flow_category: string | null
  }) => JSON.stringify([g.bank_account_id, g.category, g.accounting_category, g.cash_flow_category])
  const exp = currencyExponent(base)
  const out = new Map<string, { g: ExportGroups['groups'][number]; inMinor: bigint; outMinor: bigint }>()
  for (const g of groups)
    out.set(key(g), { g: { ...g }, inMinor: BigInt(toMinor(g.base_in, base)), outMinor: BigInt(toMinor(g.base_out, base)) })
  for (const d of delta) {
    if (d.status === 'void' || d.transaction_date < from || d.transaction_date > to) continue
    const g0 = {
      bank_account_id: ids.get(d.account_key) ?? '',
      category: d.category,
      accounting_category: d.accounting_category,
      cash_flow_category: d.cash_flow_category,
    }
    const k = key(g0)
    const e = out.get(k) ?? { g: { ...g0, count: 0, base_in: 0, base_out: 0 }, inMinor: 0n, outMinor: 0n }
    e.g.count += Number(d.sign)
    if (d.base_amount > 0n) e.inMinor += d.sign * d.base_amount
    else e.outMinor += d.sign * d.base_amount
    out.set(k, e)
  }
  return [...out.values()]
    .filter((e) => e.g.count !== 0)
    .map((e) => ({ ...e.g, base_in: Number(formatMinor(e.inMinor, exp)), base_out: Number(formatMinor(e.outMinor, exp)) }))
}

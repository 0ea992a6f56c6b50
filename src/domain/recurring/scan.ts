/**
 * Reading a company's history for detection, a month at a time (one index range of the reports'
 * covering index, then the rows), into one group per payee, currency and direction. Memory is
 * bounded by the payees, not the rows: a group keeps its latest KEPT payments only (docs/forecast.md,
 * "Speed"), which is more than any interval needs to be told apart.
 */
import type { Kysely } from 'kysely'
import type { Db } from '../../store/schema.js'
import type { Occurrence } from './detect.js'
import { matchKey } from './normalize.js'
import { toDay } from './schedule.js'

export const KEPT = 48

export interface PayeeGroup {
  key: string
  currency: string
  sign: 1 | -1
  occurrences: Occurrence[]
  /** The latest payment's merchant or description, its category and account. */
  label: string
  category: string | null
  accountKey: number
}

export interface Scan {
  groups: Map<string, PayeeGroup>
  scanned: number
  /** The newest transaction's day (the end of the history), or undefined for none. */
  end: number | undefined
}

function nextMonth(date: string): string {
  const y = Number(date.slice(0, 4))
  const m = Number(date.slice(5, 7))
  return m === 12 ? `${String(y + 1).padStart(4, '0')}-01-01` : `${date.slice(0, 4)}-${String(m + 1).padStart(2, '0')}-01`
}

export async function scanHistory(db: Kysely<Db>, company: number, from?: string): Promise<Scan> {
  const span = await db
    .selectFrom('transactions')
    .select((eb) => [eb.fn.min('transaction_date').as('first'), eb.fn.max('transaction_date').as('last')])
    .where('company_key', '=', company)
    .executeTakeFirst()
  const groups = new Map<string, PayeeGroup>()
  const out: Scan = { groups, scanned: 0, end: undefined }
  if (!span?.first || !span.last) return out
  out.end = toDay(span.last)
  const keys = new Map<string, string>()
  let start = from && from > span.first ? from : span.first
  while (start <= span.last) {
    const end = nextMonth(start)
    const rows = await db
      .selectFrom('transactions')
      .select([
        'seq',
        'transaction_date',
        'amount',
        'currency_code',
        'merchant_name',
        'description',
        'category',
        'account_key',
        'cash_flow_category',
      ])
      .where('company_key', '=', company)
      .where('transaction_date', '>=', start)
      .where('transaction_date', '<', end)
      .where('status', '!=', 'void')
      .orderBy('transaction_date')
      .execute()
    for (const r of rows) {
      if (r.cash_flow_category === 'transfer') continue
      const amount = Number(r.amount)
      if (amount === 0) continue
      out.scanned++
      // The same description again and again (every month's rent) is normalised once.
      const raw = r.merchant_name ?? r.description
      let key = keys.get(raw)
      if (key === undefined) {
        key = matchKey(r.merchant_name, r.description)
        if (keys.size > 100_000) keys.clear()
        keys.set(raw, key)
      }
      if (key.length <= 2) continue
      const sign = amount < 0 ? -1 : 1
      const id = `${key}\u0000${r.currency_code}\u0000${sign}`
      let g = groups.get(id)
      if (!g) {
        g = { key, currency: r.currency_code, sign, occurrences: [], label: raw, category: null, accountKey: Number(r.account_key) }
        groups.set(id, g)
      }
      if (g.occurrences.length === KEPT) g.occurrences.shift()
      g.occurrences.push({ day: toDay(r.transaction_date), amount, ref: Number(r.seq) })
      g.label = raw
      g.category = r.category
      g.accountKey = Number(r.account_key)
    }
    start = end
  }
  return out
}

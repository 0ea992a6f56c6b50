/**
 * Categories in use: each category name with its most used accounting and cash-flow category and
 * how many transactions carry it, plus the fixed lists of accounting and cash-flow categories.
 */
import { countAll } from '../../store/fragments.js'
import type { Store } from '../../store/store.js'
import { ACCOUNTING_CATEGORIES, CASH_FLOW_CATEGORIES } from '../../kernel/vocabulary.js'
import type { Categories } from '../schemas.js'
import { companyKey } from '../transaction-rows.js'

export async function listCategories(store: Store, companyId: string): Promise<Categories> {
  const rows = await store.db
    .selectFrom('transactions')
    .select(['category', 'accounting_category', 'cash_flow_category', countAll().as('n')])
    .where('company_key', '=', await companyKey(store, companyId))
    .where('category', 'is not', null)
    .groupBy(['category', 'accounting_category', 'cash_flow_category'])
    .execute()
  const byName = new Map<string, { accounting: Map<string | null, number>; cashFlow: Map<string | null, number>; count: number }>()
  for (const r of rows) {
    const name = r.category as string
    let e = byName.get(name)
    if (!e) {
      e = { accounting: new Map(), cashFlow: new Map(), count: 0 }
      byName.set(name, e)
    }
    const n = Number(r.n)
    e.count += n
    e.accounting.set(r.accounting_category, (e.accounting.get(r.accounting_category) ?? 0) + n)
    e.cashFlow.set(r.cash_flow_category, (e.cashFlow.get(r.cash_flow_category) ?? 0) + n)
  }
  const top = (m: Map<string | null, number>) =>
    [...m.entries()].filter(([k]) => k !== null).sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))[0]?.[0] ?? null
  const categories = [...byName.entries()]
    .map(([name, e]) => ({ name, accounting_category: top(e.accounting), cash_flow_category: top(e.cashFlow), transaction_count: e.count }))
    .sort((a, b) => a.name.localeCompare(b.name))
  return { categories, accounting_categories: [...ACCOUNTING_CATEGORIES], cash_flow_categories: [...CASH_FLOW_CATEGORIES] }
}

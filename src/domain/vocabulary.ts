/**
 * The service's fixed vocabularies (scopes, categories, statuses, account types) and the date rule,
 * without zod: commands import them without loading the schemas.
 */
export const API_KEY_SCOPES = ['read', 'write', 'transactions'] as const
export const JWT_SCOPES = ['read', 'write', 'transactions', 'api_keys'] as const
export type Scope = (typeof JWT_SCOPES)[number]

export const ACCOUNTING_CATEGORIES = [
  'revenue', 'cost_of_goods_sold', 'operating_expenses', 'payroll', 'taxes', 'interest', 'capital_expenditure',
  'loan', 'equity', 'transfer', 'other_income', 'other_expense', 'uncategorized',
] as const
export const CASH_FLOW_CATEGORIES = ['operations', 'investing', 'financing', 'transfer'] as const
export const TRANSACTION_STATUSES = ['pending', 'posted', 'void'] as const
export const ACCOUNT_TYPES = ['checking', 'savings', 'credit_card', 'loan', 'investment', 'cash', 'other'] as const
export const ACCOUNT_STATUSES = ['active', 'inactive', 'closed'] as const

/** A real calendar date written YYYY-MM-DD. */
export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s
}

/** Fields the service assigns: refused in an update with a 400 that names them. */
export const READ_ONLY_TRANSACTION_FIELDS = ['id', 'created_at', 'updated_at', 'bank_statement_id', 'original_description', 'ai_confidence_score'] as const

/**
 * The service's fixed vocabularies (scopes, categories, statuses, account types) and the date rule,
 * without zod: commands import them without loading the schemas.
 */
/** `close`: closing a month (docs/closing.md); a login has it when its role does (docs/people.md). */
export const API_KEY_SCOPES = ['read', 'write', 'transactions', 'close', 'webhooks'] as const
/** `users`: inviting people, changing their roles, disabling them; `reports`: the reports alone (a viewer's). Logins only (docs/people.md). */
export const JWT_SCOPES = ['read', 'write', 'transactions', 'api_keys', 'close', 'webhooks', 'users', 'reports'] as const
export type Scope = (typeof JWT_SCOPES)[number]

export const ACCOUNTING_CATEGORIES = [
  'revenue',
  'cost_of_goods_sold',
  'operating_expenses',
  'payroll',
  'taxes',
  'interest',
  'capital_expenditure',
  'loan',
  'equity',
  'transfer',
  'other_income',
  'other_expense',
  'uncategorized',
] as const
export const CASH_FLOW_CATEGORIES = ['operations', 'investing', 'financing', 'transfer'] as const
export const TRANSACTION_STATUSES = ['pending', 'posted', 'void'] as const
export const ACCOUNT_TYPES = ['checking', 'savings', 'credit_card', 'loan', 'investment', 'cash', 'other'] as const
/** Accounts whose bank writes a balance owed (a running balance rising with money out): cards and loans. */
export const LIABILITY_ACCOUNT_TYPES: ReadonlySet<string> = new Set(['credit_card', 'loan'])
export const ACCOUNT_STATUSES = ['active', 'inactive', 'closed'] as const

/** Days in a month (1-12) of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

const digit = (s: string, i: number): number => {
  const c = s.charCodeAt(i) - 48
  return c >= 0 && c <= 9 ? c : NaN
}

/**
 * A real calendar date written YYYY-MM-DD (years 0000-9999, as JavaScript's Date reads them).
 * Arithmetic on the characters: every imported row's dates pass here twice (CLI and service),
 * and building a Date for each cost more than the rest of the check.
 */
export function isIsoDate(s: string): boolean {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false
  const y = digit(s, 0) * 1000 + digit(s, 1) * 100 + digit(s, 2) * 10 + digit(s, 3)
  const m = digit(s, 5) * 10 + digit(s, 6)
  const d = digit(s, 8) * 10 + digit(s, 9)
  // NaN (a non-digit) fails every comparison.
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m) && y >= 0
}

/** Fields the service assigns: refused in an update with a 400 that names them. */
export const READ_ONLY_TRANSACTION_FIELDS = [
  'id',
  'created_at',
  'updated_at',
  'bank_statement_id',
  'original_description',
  'ai_confidence_score',
] as const

/** The formats of `finctl export` (docs/exporting.md): journals, a workbook, CSV, and the filing formats of a chart of accounts. */
export const EXPORT_FORMATS = ['ledger', 'hledger', 'beancount', 'xlsx', 'csv', 'datev', 'sie4', 'saft-no'] as const
export type ExportFormatName = (typeof EXPORT_FORMATS)[number]

/** Rejected rows kept on an import batch, first ones first: the rest are counted only. */
export const MAX_KEPT_REJECTS = 1000

export const PROPOSAL_STATES = ['pending', 'approved', 'rejected', 'failed'] as const

/** The tables of budgets and recurring items (src/domain/budgets/, src/domain/recurring/). */

/**
 * One budget amount: a category, a month, a version (0055). A change never edits a row: it marks the
 * row it replaces superseded and inserts the new one, so a budget as it stood at a moment is the
 * rows created by then and not yet superseded (`--as-of`).
 */
export interface BudgetsTable {
  id: string
  company_id: string
  version: string
  category: string
  /** YYYY-MM */
  month: string
  /** Minor units of currency_code. */
  amount: number
  currency_code: string
  /** 1: the unspent amount of the month before (same category and version) is added to this one. */
  rollover: number
  created_at: string
  created_by: string
  superseded_at: string | null
  superseded_by: string | null
}

/** A company's budget versions (0055): an original and its reforecasts, one of them current. */
export interface BudgetVersionsTable {
  company_id: string
  name: string
  is_current: number
  created_at: string
  created_by: string
}

/** A recurring payment or receipt (0056): suggested by `recurring detect`, accepted, or added by hand. */
export interface RecurringItemsTable {
  id: string
  company_id: string
  /** suggested | accepted */
  status: string
  /** detected | manual */
  source: string
  name: string
  /** The normalised merchant or description its transactions are found by (recurring/normalize.ts). */
  match_key: string
  /** weekly | biweekly | monthly | last_working_day | quarterly | yearly */
  interval: string
  /** A date of the series: the weeks, months and years count from it. */
  anchor_date: string
  /** The day of the month of monthly, quarterly and yearly items (29-31 clamp to the month's last day). */
  anchor_day: number | null
  /** Minor units of currency_code, signed as a transaction's amount (a payment is negative). */
  amount: number
  currency_code: string
  /** Percent an occurrence's amount may differ by (0: exact). */
  amount_tolerance: number
  date_tolerance: number
  bank_account_id: string | null
  category: string | null
  first_seen: string | null
  last_seen: string | null
  occurrences: number
  /** JSON: the ids of the transactions it rests on (the latest ones). */
  based_on: string
  ends_on: string | null
  created_at: string
  updated_at: string
  accepted_at: string | null
}

/**
 * The opening date's rule, with no database (docs/money.md): an opening balance counts from the start
 * of its date, and no transaction is dated before it. Apart from opening.ts so that the import's
 * thread checks a dry run's rows by it without loading the query builder.
 */
import { type AppError, validation } from '../../kernel/errors.js'

/** Whether an opening balance counts on `day` (from the start of its opening date; always without one). */
export function opened(openingDate: string | null, day: string): boolean {
  return openingDate === null || openingDate <= day
}

type Opened = { id: string; name: string; opening_balance_date: string | null }

/** The refusal of a transaction dated before its account's opening date (400 naming `transaction_date`). */
export function beforeOpening(account: Opened, date: string): AppError {
  return validation(
    'transaction_date',
    `${date} is before the opening date ${account.opening_balance_date} of bank account "${account.name}", whose opening balance is its balance at the start of that day; to enter earlier transactions, move the opening date first: finctl accounts update ${account.id} --opening-balance-date ${date} --opening-balance AMOUNT (the balance at the start of ${date})`,
  )
}

/** Throw when `date` is before the account's opening date. */
export function checkOpened(account: Opened, date: string): void {
  if (!opened(account.opening_balance_date, date)) throw beforeOpening(account, date)
}

/** What the budgets verbs share: the columns of a budget. */
import { showAmount } from '../../src/cli/money.js'
import type { Column } from '../../src/cli/output.js'
import type { Budget } from '../../src/domain/budgets/schemas.js'

export const budgetColumns: Column<Budget>[] = [
  // The category and the month name a budget (it has no id of its own to be passed on by).
  { header: 'category', value: (b) => b.category, wide: true },
  { header: 'month', value: (b) => b.month, keep: true },
  {
    header: 'budget',
    value: (b) => showAmount(b.amount, b.currency, { code: true }),
    tty: (b) => showAmount(b.amount, b.currency, { group: true, code: true }),
    align: 'right',
    csv: [
      { header: 'budget', value: (b) => showAmount(b.amount, b.currency) },
      { header: 'currency', value: (b) => b.currency },
    ],
  },
  { header: 'rollover', value: (b) => (b.rollover ? 'yes' : 'no'), drop: 2 },
  { header: 'version', value: (b) => b.version, drop: 1 },
]

/** YYYY-MM, as the flags take a month. */
export const MONTH_HELP = 'a month, YYYY-MM'

/** The `tx list` filter flags (docs/cli.md, Commands), shared by tx list, accounts transactions and tx bulk-update. */
import { typedAmount } from './money.js'
import type { Command } from 'commander'
import { addPaging } from './flags.js'
import { AppError } from '../kernel/errors.js'
import type { TransactionQuery } from '../client/client.js'
import { FROM_HELP, TO_HELP, periodFlags, type PeriodHost } from './period-flags.js'

export interface ListFilterOptions {
  account?: string
  from?: string
  to?: string
  status?: string
  category?: string
  accountingCategory?: string
  cashFlowCategory?: string
  reconciled?: boolean
  unreconciled?: boolean
  minAmount?: string
  maxAmount?: string
  tag?: string
  search?: string
  sort?: string
  limit?: string
}

export function addListFilters(cmd: Command, o: { account?: boolean; paging?: boolean } = {}): Command {
  if (o.account !== false) cmd.option('--account <id>', 'bank account: its name or id')
  cmd
    .option('--from <when>', FROM_HELP)
    .option('--to <when>', TO_HELP)
    .option('--status <status>', 'pending, posted or void')
    .option('--category <name>', 'category')
    .option('--accounting-category <name>', 'accounting category')
    .option('--cash-flow-category <name>', 'cash-flow category')
    .option('--reconciled', 'only reconciled transactions')
    .option('--unreconciled', 'only unreconciled transactions')
    .option('--min-amount <decimal>', 'smallest amount (signed)')
    .option('--max-amount <decimal>', 'largest amount (signed)')
    .option('--tag <tag>', 'carrying this tag')
    .option('--search <text>', 'description or merchant contains')
  if (o.paging !== false) {
    cmd.option('--sort <field>', 'transaction_date, -transaction_date (default), amount, -amount, created_at, -created_at')
    addPaging(cmd)
  }
  return cmd
}

/** The query of the filter flags; `host` reads the periods of --from and --to and says what it chose. */
export function listQuery(o: ListFilterOptions, host: PeriodHost): TransactionQuery {
  if (o.reconciled && o.unreconciled) throw new AppError('usage', 'give --reconciled or --unreconciled, not both')
  if (o.limit !== undefined && !(/^\d+$/.test(o.limit) && Number(o.limit) >= 1 && Number(o.limit) <= 1000)) {
    throw new AppError('usage', '--limit must be a whole number from 1 to 1000')
  }
  const { from, to } = periodFlags(host, o)
  return {
    bank_account_id: o.account,
    from,
    to,
    status: o.status,
    category: o.category,
    accounting_category: o.accountingCategory,
    cash_flow_category: o.cashFlowCategory,
    is_reconciled: o.reconciled ? true : o.unreconciled ? false : undefined,
    min_amount: typedAmount(o.minAmount, '--min-amount'),
    max_amount: typedAmount(o.maxAmount, '--max-amount'),
    tag: o.tag,
    q: o.search,
    sort: o.sort,
    limit: o.limit,
  }
}

/** Whether any filter flag was given (bulk-update refuses to touch everything by accident). */
export function hasFilter(q: TransactionQuery): boolean {
  return Object.entries(q).some(([k, v]) => v !== undefined && k !== 'sort' && k !== 'limit')
}

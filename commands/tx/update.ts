/** finctl tx update ID --FIELD VALUE...: change a transaction's fields. */
import { noteNearCategory } from '../../src/cli/category-names.js'
import type { Command } from 'commander'
import { showAmount, typedAmount } from '../../src/cli/money.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { resolveAccountId, resolveTransactionId } from '../../src/cli/short-ids.js'
import type { UpdateTransactionRequest } from '../../src/domain/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { parseBool, splitList } from './shared.js'

export interface UpdateOptions {
  force?: boolean
  account?: string
  date?: string
  postedDate?: string
  description?: string
  amount?: string
  currency?: string
  exchangeRate?: string
  category?: string
  accountingCategory?: string
  cashFlowCategory?: string
  merchantName?: string
  status?: string
  reconciled?: string
  tags?: string
}

export function registerUpdate(tx: Command, run: Runner, runF: RunVerb<UpdateOptions> = runUpdate): void {
  tx.command('update')
    .argument('<id>')
    .description('change a transaction')
    .option('--account <id>', 'move to another bank account: its name or id (bank_account_id)')
    .option('--date <date>', 'transaction date (transaction_date)')
    .option('--posted-date <date>', 'posted date')
    .option('--description <text>', 'description')
    .option('--amount <decimal>', 'signed amount')
    .option('--currency <code>', 'currency (with --exchange-rate unless the base currency)')
    .option('--exchange-rate <decimal>', 'rate to the base currency')
    .option('--category <name>', 'category ("" to clear)')
    .option('--accounting-category <name>', 'accounting category')
    .option('--cash-flow-category <name>', 'cash-flow category')
    .option('--merchant-name <name>', 'merchant')
    .option('--status <status>', 'posted or void (pending -> posted -> void)')
    .option('--reconciled <bool>', 'true or false (is_reconciled)')
    .option('--tags <list>', 'replace the tags (comma-separated; "" for none)')
    .option('--force', 'accept a date outside the date window (1970-01-01 to a year ahead) or an amount of 0')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl tx update $TX --category Software --accounting-category operating_expenses\n  finctl tx update $TX --status posted --reconciled true\n',
    )
    .action(run(runF))
}

const emptyToNull = (v: string | undefined) => (v === undefined ? undefined : v === '' ? null : v)

export async function runUpdate(host: VerbHost, o: UpdateOptions, [id]: string[]): Promise<number> {
  const patch: UpdateTransactionRequest = {
    bank_account_id: o.account,
    transaction_date: o.date,
    posted_date: o.postedDate,
    description: o.description,
    amount: typedAmount(o.amount, '--amount'),
    currency_code: o.currency?.toUpperCase(),
    exchange_rate: o.exchangeRate,
    category: emptyToNull(o.category),
    accounting_category: emptyToNull(o.accountingCategory) as UpdateTransactionRequest['accounting_category'],
    cash_flow_category: emptyToNull(o.cashFlowCategory) as UpdateTransactionRequest['cash_flow_category'],
    merchant_name: emptyToNull(o.merchantName),
    status: o.status as UpdateTransactionRequest['status'],
    is_reconciled: o.reconciled === undefined ? undefined : parseBool(o.reconciled, '--reconciled'),
    tags: o.tags === undefined ? undefined : splitList(o.tags),
  }
  if (Object.values(patch).every((v) => v === undefined))
    throw new AppError('usage', 'nothing to change: give at least one field flag (see finctl tx update --help)')
  if (o.force) patch.force = true
  const client = await host.client()
  if (patch.bank_account_id !== undefined) patch.bank_account_id = await resolveAccountId(client, patch.bank_account_id)
  await noteNearCategory(host, client, o.category, 'set')
  const r = await client.transactions.requestUpdate(await resolveTransactionId(client, id), patch)
  // An agent's key proposes (docs/agents.md): the proposal is printed, exit 15.
  if (r.proposal) return (await import('../approvals/shared.js')).printProposed(host, r.proposal)
  const t = r.done
  // A table shows the amount in fixed decimals with its currency, as tx create and tx get do.
  await printRecord(
    host.io,
    host.printer,
    host.printer.format === 'table'
      ? { ...t, amount: showAmount(t.amount, t.currency_code, { group: host.io.isStdoutTTY, code: true }) }
      : t,
  )
  note(host.io, host.printer, `updated transaction ${t.id}`)
  return 0
}

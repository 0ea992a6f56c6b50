/** finctl tx create --account ID --date D --description T --amount A [...]: prompts for what is missing on a terminal. */
import { noteNearCategory } from '../../src/cli/category-names.js'
import type { Command } from 'commander'
import { transactionColumns } from '../../src/cli/columns.js'
import { today } from '../../src/cli/format.js'
import { commaProblem, showAmount, typedAmount } from '../../src/cli/money.js'
import { note, printRecord } from '../../src/cli/output.js'
import { type PromptHost, promptSelect, promptText, valueOrPrompt } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { resolveAccountId } from '../../src/cli/short-ids.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { currencyExponent, isCurrency } from '../../src/kernel/currencies.js'
import { AppError } from '../../src/kernel/errors.js'
import { parseAmount } from '../../src/kernel/money.js'
import { isIsoDate } from '../../src/kernel/vocabulary.js'
import { splitList } from './shared.js'

export interface CreateOptions {
  account?: string
  date?: string
  description?: string
  amount?: string
  currency?: string
  postedDate?: string
  exchangeRate?: string
  category?: string
  accountingCategory?: string
  cashFlowCategory?: string
  merchantName?: string
  tags?: string
  idempotencyKey?: string
  force?: boolean
}

export function registerCreate(tx: Command, run: Runner, runF: RunVerb<CreateOptions, VerbHost & PromptHost> = runCreate): void {
  tx.command('create')
    .description('create a transaction (prompts for what is missing on a terminal)')
    .option('--account <id>', 'bank account: its name or id (bank_account_id)')
    .option('--date <date>', 'transaction date YYYY-MM-DD (transaction_date)')
    .option('--description <text>', 'description')
    .option('--amount <decimal>', 'signed decimal amount: -149.99 for money out')
    .option('--currency <code>', 'ISO 4217 currency (default: the account currency)')
    .option('--posted-date <date>', 'YYYY-MM-DD')
    .option('--exchange-rate <decimal>', "rate to the base currency (default: the company's rate of the date, finctl rates)")
    .option('--category <name>', 'category')
    .option('--accounting-category <name>', 'accounting category')
    .option('--cash-flow-category <name>', 'operations, investing, financing or transfer')
    .option('--merchant-name <name>', 'merchant')
    .option('--tags <list>', 'comma-separated tags')
    .option('--idempotency-key <key>', 'send an Idempotency-Key header')
    .option('--force', 'accept a date outside the date window (1970-01-01 to a year ahead) or an amount of 0')
    .addHelpText(
      'after',
      '\nExample:\n  finctl tx create --account $ACCOUNT --date 2026-11-20 --description "Office chairs" --amount -349.90 --category Furniture\n',
    )
    .action(run(runF))
}

export async function runCreate(host: VerbHost & PromptHost, o: CreateOptions): Promise<number> {
  // A comma --amount does not take is refused before any question.
  if (o.amount !== undefined) o.amount = typedAmount(o.amount, '--amount')
  const client = await host.client()
  if (o.account !== undefined) o.account = await resolveAccountId(client, o.account)
  await noteNearCategory(host, client, o.category, 'set')
  const account = await valueOrPrompt(host, o.account, '--account', 'the bank account', async () => {
    const { data } = await client.accounts.list({ status: 'active' })
    if (data.length === 0) throw new AppError('usage', 'there are no bank accounts yet: create one with `finctl accounts create`')
    return promptSelect(
      host,
      'Bank account',
      data.map((a) => ({
        name: `${a.name} (${a.currency_code}, ${showAmount(a.current_balance, a.currency_code, { group: true, code: true })})`,
        value: a.id,
      })),
    )
  })
  const date = await valueOrPrompt(host, o.date, '--date', 'the transaction date', () =>
    promptText(host, 'Date (YYYY-MM-DD)', {
      default: today(host.io.now()),
      validate: (v) => (isIsoDate(v) ? true : 'write the date as YYYY-MM-DD'),
    }),
  )
  const description = await valueOrPrompt(host, o.description, '--description', 'a description', () =>
    promptText(host, 'Description', { validate: (v) => (v.trim() ? true : 'required') }),
  )
  const amount = await valueOrPrompt(host, o.amount, '--amount', 'the amount', async () => {
    const currency = o.currency ?? (await client.accounts.get(account)).currency_code
    const exp = isCurrency(currency) ? currencyExponent(currency) : 2
    return promptText(host, `Amount in ${currency} (negative for money out)`, {
      validate: (v) => {
        const typed = typedAmount(v)
        const r = parseAmount(typed, exp)
        return r.ok ? true : (commaProblem(typed) ?? r.message)
      },
    })
  })
  const body: CreateTransactionRequest = {
    bank_account_id: account,
    transaction_date: date,
    description,
    amount: typedAmount(amount, '--amount'),
    currency_code: o.currency?.toUpperCase(),
    posted_date: o.postedDate,
    exchange_rate: o.exchangeRate,
    category: o.category,
    accounting_category: o.accountingCategory as CreateTransactionRequest['accounting_category'],
    cash_flow_category: o.cashFlowCategory as CreateTransactionRequest['cash_flow_category'],
    merchant_name: o.merchantName,
    tags: o.tags === undefined ? undefined : splitList(o.tags),
    force: o.force || undefined,
  }
  const created = await client.transactions.create(body, { idempotencyKey: o.idempotencyKey })
  if (host.printer.format === 'table') {
    await printRecord(host.io, host.printer, created, [
      ...transactionColumns.filter((c) => !c.ttyOnly).map((c) => [c.header, c.value] as [string, (r: typeof created) => unknown]),
      ['account', (t) => t.bank_account_id],
      ['tags', (t) => t.tags.join(',')],
    ])
  } else await printRecord(host.io, host.printer, created)
  note(host.io, host.printer, `created transaction ${created.id}`)
  return 0
}

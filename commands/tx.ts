/** finctl tx create (the rest of the group arrives with the transactions issue) */
import type { Command } from 'commander'
import { AppError } from '../src/domain/errors.js'
import { currencyExponent, isCurrency } from '../src/domain/currencies.js'
import { parseAmount } from '../src/domain/money.js'
import { isIsoDate, type CreateTransactionRequest } from '../src/domain/schemas.js'
import type { Context } from '../src/cli/context.js'
import { transactionColumns } from '../src/cli/columns.js'
import { today } from '../src/cli/format.js'
import { note, printRecord } from '../src/cli/output.js'
import { promptSelect, promptText, valueOrPrompt } from '../src/cli/prompts.js'
import type { Runner } from '../src/cli/program.js'
import { formatAmount } from '../src/cli/format.js'

export function registerTx(program: Command, run: Runner): void {
  const tx = program.command('tx').description('transactions')
  tx.command('create')
    .description('create a transaction (prompts for what is missing on a terminal)')
    .option('--account <id>', 'bank account id (bank_account_id)')
    .option('--date <date>', 'transaction date YYYY-MM-DD (transaction_date)')
    .option('--description <text>', 'description')
    .option('--amount <decimal>', 'signed decimal amount: -149.99 for money out')
    .option('--currency <code>', 'ISO 4217 currency (default: the account currency)')
    .option('--posted-date <date>', 'YYYY-MM-DD')
    .option('--exchange-rate <decimal>', 'rate to the base currency (required for other currencies)')
    .option('--category <name>', 'category')
    .option('--accounting-category <name>', 'accounting category')
    .option('--cash-flow-category <name>', 'operations, investing, financing or transfer')
    .option('--merchant-name <name>', 'merchant')
    .option('--tags <list>', 'comma-separated tags')
    .option('--idempotency-key <key>', 'send an Idempotency-Key header')
    .addHelpText('after', '\nExample:\n  finctl tx create --account $ACCOUNT --date 2026-11-20 --description "Office chairs" --amount -349.90 --category Furniture\n')
    .action(run(runCreate))
}

interface CreateOptions {
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
}

async function runCreate(ctx: Context, o: CreateOptions): Promise<number> {
  const client = await ctx.client()
  const account = await valueOrPrompt(ctx, o.account, '--account', 'the bank account', async () => {
    const { data } = await client.accounts.list({ status: 'active' })
    if (data.length === 0) throw new AppError('usage', 'there are no bank accounts yet: create one with `finctl accounts create`')
    return promptSelect(ctx, 'Bank account', data.map((a) => ({ name: `${a.name} (${a.currency_code}, ${formatAmount(a.current_balance, a.currency_code)})`, value: a.id })))
  })
  const date = await valueOrPrompt(ctx, o.date, '--date', 'the transaction date', () =>
    promptText(ctx, 'Date (YYYY-MM-DD)', { default: today(ctx.io.now()), validate: (v) => (isIsoDate(v) ? true : 'write the date as YYYY-MM-DD') }),
  )
  const description = await valueOrPrompt(ctx, o.description, '--description', 'a description', () =>
    promptText(ctx, 'Description', { validate: (v) => (v.trim() ? true : 'required') }),
  )
  const amount = await valueOrPrompt(ctx, o.amount, '--amount', 'the amount', async () => {
    const currency = o.currency ?? (await client.accounts.get(account)).currency_code
    const exp = isCurrency(currency) ? currencyExponent(currency) : 2
    return promptText(ctx, `Amount in ${currency} (negative for money out)`, {
      validate: (v) => {
        const r = parseAmount(v, exp)
        return r.ok ? true : r.message
      },
    })
  })
  const body: CreateTransactionRequest = {
    bank_account_id: account,
    transaction_date: date,
    description,
    amount: amount.replace(/^\u2212/, '-'),
    currency_code: o.currency?.toUpperCase(),
    posted_date: o.postedDate,
    exchange_rate: o.exchangeRate,
    category: o.category,
    accounting_category: o.accountingCategory as CreateTransactionRequest['accounting_category'],
    cash_flow_category: o.cashFlowCategory as CreateTransactionRequest['cash_flow_category'],
    merchant_name: o.merchantName,
    tags: o.tags === undefined ? undefined : o.tags.split(',').map((t) => t.trim()).filter(Boolean),
  }
  const created = await client.transactions.create(body, { idempotencyKey: o.idempotencyKey })
  if (ctx.printer.format === 'table') {
    await printRecord(ctx.io, ctx.printer, created, [
      ...transactionColumns.map((c) => [c.header, c.value] as [string, (r: any) => unknown]),
      ['account', (t) => t.bank_account_id],
      ['tags', (t) => t.tags.join(',')],
    ])
  } else await printRecord(ctx.io, ctx.printer, created)
  note(ctx.io, ctx.printer, `created transaction ${created.id}`)
  return 0
}

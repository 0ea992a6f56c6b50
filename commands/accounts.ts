/** finctl accounts list | get | create */
import type { Command } from 'commander'
import { AppError } from '../src/domain/errors.js'
import { ACCOUNT_TYPES, type CreateBankAccountRequest } from '../src/domain/schemas.js'
import type { Context } from '../src/cli/context.js'
import { accountColumns } from '../src/cli/columns.js'
import { note, printList, printRecord } from '../src/cli/output.js'
import { promptSelect, promptText, valueOrPrompt } from '../src/cli/prompts.js'
import type { Runner } from '../src/cli/program.js'

export function registerAccounts(program: Command, run: Runner): void {
  const accounts = program.command('accounts').description('bank accounts')
  accounts
    .command('list')
    .description('list bank accounts with their balances')
    .option('--status <status>', 'active, inactive or closed')
    .option('--type <type>', `account type: ${ACCOUNT_TYPES.join(', ')}`)
    .action(run(runList))
  accounts.command('get').argument('<id>').description('show a bank account').action(run(runGet))
  accounts
    .command('create')
    .description('create a bank account')
    .option('--name <name>', 'account name')
    .option('--type <type>', `account type: ${ACCOUNT_TYPES.join(', ')}`)
    .option('--currency <code>', 'ISO 4217 currency (default: the company base currency)')
    .option('--institution-name <name>', 'bank name')
    .option('--account-number <number>', 'only its last 4 characters are kept')
    .option('--opening-balance <amount>', 'decimal amount, e.g. 2500.00')
    .option('--opening-balance-date <date>', 'YYYY-MM-DD')
    .addHelpText('after', '\nExample:\n  finctl accounts create --name Operating --type checking --currency EUR --opening-balance 1000.00\n')
    .action(run(runCreate))
}

async function runList(ctx: Context, o: { status?: string; type?: string }): Promise<number> {
  const client = await ctx.client()
  const { data } = await client.accounts.list({ status: o.status, account_type: o.type })
  await printList(ctx.io, ctx.printer, data, accountColumns, { empty: 'no bank accounts yet: `finctl accounts create`' })
  return 0
}

async function runGet(ctx: Context, _o: object, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  await printRecord(ctx.io, ctx.printer, await client.accounts.get(id))
  return 0
}

interface CreateOptions {
  name?: string
  type?: string
  currency?: string
  institutionName?: string
  accountNumber?: string
  openingBalance?: string
  openingBalanceDate?: string
}

async function runCreate(ctx: Context, o: CreateOptions): Promise<number> {
  const name = await valueOrPrompt(ctx, o.name, '--name', 'the account name', () => promptText(ctx, 'Account name'))
  const type = await valueOrPrompt(ctx, o.type, '--type', 'the account type', () =>
    promptSelect(ctx, 'Account type', ACCOUNT_TYPES.map((t) => ({ name: t, value: t }))),
  )
  if (!(ACCOUNT_TYPES as readonly string[]).includes(type)) throw new AppError('usage', `--type must be one of ${ACCOUNT_TYPES.join(', ')}`)
  const client = await ctx.client()
  const currency = (o.currency ?? (await client.company()).base_currency).toUpperCase()
  const body: CreateBankAccountRequest = {
    name,
    account_type: type as CreateBankAccountRequest['account_type'],
    currency_code: currency,
    institution_name: o.institutionName,
    account_number: o.accountNumber,
    opening_balance: o.openingBalance,
    opening_balance_date: o.openingBalanceDate,
  }
  const account = await client.accounts.create(body)
  await printRecord(ctx.io, ctx.printer, account)
  note(ctx.io, ctx.printer, `created bank account ${account.id}`)
  return 0
}

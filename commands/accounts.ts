/** finctl accounts list | get | create | update | delete | transactions */
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import { ACCOUNT_TYPES } from '../src/kernel/vocabulary.js'
import type { BankAccount, CreateBankAccountRequest, Transaction, UpdateBankAccountRequest } from '../src/domain/schemas.js'
import type { Context } from '../src/cli/context.js'
import { accountColumns } from '../src/cli/columns.js'
import { note, printList, printRecord, streamList } from '../src/cli/output.js'
import { confirmOrYes, promptSelect, promptText, valueOrPrompt } from '../src/cli/prompts.js'
import { transactionColumns } from '../src/cli/columns.js'
import { accountsFor, resolveAccountId, shortId } from '../src/cli/short-ids.js'
import { addListFilters, listQuery, type ListFilterOptions } from '../src/cli/tx-filters.js'
import { amountTotal } from '../src/cli/totals.js'
import type { Runner } from '../src/cli/runner.js'
import { showAmount, unconvertedNote } from '../src/cli/money.js'

/** In a table, balances in fixed decimals with the currency (as `accounts list` shows them); JSON stays as the service sends it. */
function shown(ctx: Context, a: BankAccount): object {
  warnUnconverted(ctx, [a])
  if (ctx.printer.format !== 'table') return a
  const group = ctx.io.isStdoutTTY
  return {
    ...a,
    opening_balance: showAmount(a.opening_balance, a.currency_code, { group, code: true }),
    current_balance: showAmount(a.current_balance, a.currency_code, { group, code: true }),
    unconverted_transactions: (a.unconverted_transactions ?? [])
      .map((u) => `${u.count} in ${u.currency_code} (${showAmount(u.amount, u.currency_code, { group, code: true })})`)
      .join(', '),
  }
}

/** Balances that leave transactions out say so on stderr, whatever the format (not silenced by --quiet). */
function warnUnconverted(ctx: Context, accounts: BankAccount[]): void {
  for (const a of accounts) {
    const text = unconvertedNote(a, a.unconverted_transactions ?? [])
    if (text) ctx.io.stderr.write(`note: ${text}\n`)
  }
}

export function registerAccounts(program: Command, run: Runner): void {
  const accounts = program.command('accounts').description('bank accounts')
  accounts
    .command('list')
    .description('list bank accounts with their balances')
    .option('--status <status>', 'active, inactive or closed')
    .option('--type <type>', `account type: ${ACCOUNT_TYPES.join(', ')}`)
    .addHelpText('after', '\nExample:\n  finctl accounts list --status active --type checking\n')
    .action(run(runList))
  accounts
    .command('get')
    .argument('<id>')
    .description('show a bank account')
    .addHelpText('after', '\nExample:\n  finctl accounts get $ACCOUNT --json\n')
    .action(run(runGet))
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
    .addHelpText(
      'after',
      '\nExample:\n  finctl accounts create --name Operating --type checking --currency EUR --opening-balance 1000.00\n',
    )
    .action(run(runCreate))
  accounts
    .command('update')
    .argument('<id>')
    .description('change a bank account')
    .option('--name <name>', 'account name')
    .option('--type <type>', `account type: ${ACCOUNT_TYPES.join(', ')}`)
    .option('--institution-name <name>', 'bank name ("" to clear)')
    .option('--status <status>', 'active, inactive or closed')
    .addHelpText('after', '\nExample:\n  finctl accounts update $ACCOUNT --name "Operating (old)" --status closed\n')
    .action(run(runUpdate))
  accounts
    .command('delete')
    .argument('<id>')
    .description('delete a bank account that holds no transactions')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl accounts delete $ACCOUNT --yes\n')
    .action(run(runDelete))
  addListFilters(accounts.command('transactions').argument('<id>').description("an account's transactions"), { account: false })
    .addHelpText('after', '\nExample:\n  finctl accounts transactions $ACCOUNT --from 2026-01-01 --unreconciled\n')
    .action(run(runTransactions))
}

async function runList(ctx: Context, o: { status?: string; type?: string }): Promise<number> {
  const client = await ctx.client()
  const { data } = await client.accounts.list({ status: o.status, account_type: o.type })
  warnUnconverted(ctx, data)
  await printList(ctx.io, ctx.printer, data, accountColumns, { empty: 'no bank accounts yet: `finctl accounts create`' })
  return 0
}

async function runGet(ctx: Context, _o: object, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  await printRecord(ctx.io, ctx.printer, shown(ctx, await client.accounts.get(await resolveAccountId(client, id, 'ID'))))
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
    promptSelect(
      ctx,
      'Account type',
      ACCOUNT_TYPES.map((t) => ({ name: t, value: t })),
    ),
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
  await printRecord(ctx.io, ctx.printer, shown(ctx, account))
  note(ctx.io, ctx.printer, `created bank account ${account.id}`)
  return 0
}

async function runUpdate(
  ctx: Context,
  o: { name?: string; type?: string; institutionName?: string; status?: string },
  [id]: string[],
): Promise<number> {
  const patch: UpdateBankAccountRequest = {
    name: o.name,
    account_type: o.type as UpdateBankAccountRequest['account_type'],
    institution_name: o.institutionName === undefined ? undefined : o.institutionName === '' ? null : o.institutionName,
    status: o.status as UpdateBankAccountRequest['status'],
  }
  if (Object.values(patch).every((v) => v === undefined))
    throw new AppError('usage', 'nothing to change: give --name, --type, --institution-name or --status')
  const client = await ctx.client()
  const account = await client.accounts.update(await resolveAccountId(client, id, 'ID'), patch)
  await printRecord(ctx.io, ctx.printer, shown(ctx, account))
  note(ctx.io, ctx.printer, `updated bank account ${account.id}`)
  return 0
}

async function runDelete(ctx: Context, o: { yes?: boolean }, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  const account = await client.accounts.get(await resolveAccountId(client, id, 'ID'))
  await confirmOrYes(ctx, o.yes, `Delete bank account "${account.name}" (${shortId(account.id)})?`)
  const r = await client.accounts.delete(account.id)
  await printRecord(ctx.io, ctx.printer, r)
  note(ctx.io, ctx.printer, `deleted bank account ${r.id}`)
  return 0
}

async function runTransactions(ctx: Context, o: ListFilterOptions & { all?: boolean }, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  const query = listQuery(o, ctx)
  const named: { bank_account_id?: string } = { bank_account_id: id }
  await accountsFor(ctx, client, named, 'ID')
  id = named.bank_account_id ?? id
  const path = `/api-v1/bank-accounts/${encodeURIComponent(id)}/transactions`
  if (o.all) {
    const pages = (async function* () {
      for await (const page of client.pages<Transaction>(path, { ...query, limit: query.limit ?? 1000 })) yield page.data
    })()
    await streamList(ctx.io, ctx.printer, pages, transactionColumns, amountTotal)
    return 0
  }
  const page = await client.accounts.transactions(id, query)
  await printList(ctx.io, ctx.printer, page.data, transactionColumns, { footer: amountTotal(page.data), empty: 'no transactions match' })
  if (page.pagination?.has_more && ctx.printer.format === 'table')
    note(ctx.io, ctx.printer, `showing ${page.data.length} of ${page.pagination.total}: add --all for every row`)
  return 0
}

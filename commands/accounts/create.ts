/** finctl accounts create [--name N --type T --currency C ...]: a new bank account (asks for what is missing on a terminal). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import { type PromptHost, promptSelect, promptText, valueOrPrompt } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { CreateBankAccountRequest } from '../../src/domain/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { ACCOUNT_TYPES } from '../../src/kernel/vocabulary.js'
import { shown } from './shared.js'

export interface CreateOptions {
  name?: string
  type?: string
  currency?: string
  institutionName?: string
  accountNumber?: string
  openingBalance?: string
  openingBalanceDate?: string
  openingRate?: string
}

export function registerCreate(accounts: Command, run: Runner, runF: RunVerb<CreateOptions, VerbHost & PromptHost> = runCreate): void {
  accounts
    .command('create')
    .description('create a bank account')
    .option('--name <name>', 'account name')
    .option('--type <type>', `account type: ${ACCOUNT_TYPES.join(', ')}`)
    .option('--currency <code>', 'ISO 4217 currency (default: the company base currency)')
    .option('--institution-name <name>', 'bank name')
    .option('--account-number <number>', 'only its last 4 characters are kept')
    .option('--opening-balance <amount>', 'decimal amount, e.g. 2500.00')
    .option('--opening-balance-date <date>', 'YYYY-MM-DD: the day the opening balance counts from; refused in a closed month')
    .option(
      '--opening-rate <rate>',
      "the opening balance's rate into the base currency (base per 1 unit); default: the company's rate of the opening date",
    )
    .addHelpText(
      'after',
      "\nAn opening balance in another currency than the base keeps its rate from now on: given, or the company's rate\nof the opening date (of today without one), refused (exit 6) when none is in reach.\n\nExample:\n  finctl accounts create --name Operating --type checking --currency EUR --opening-balance 1000.00 --opening-rate 1.08\n",
    )
    .action(run(runF))
}

export async function runCreate(host: VerbHost & PromptHost, o: CreateOptions): Promise<number> {
  const name = await valueOrPrompt(host, o.name, '--name', 'the account name', () => promptText(host, 'Account name'))
  const type = await valueOrPrompt(host, o.type, '--type', 'the account type', () =>
    promptSelect(
      host,
      'Account type',
      ACCOUNT_TYPES.map((t) => ({ name: t, value: t })),
    ),
  )
  if (!(ACCOUNT_TYPES as readonly string[]).includes(type)) throw new AppError('usage', `--type must be one of ${ACCOUNT_TYPES.join(', ')}`)
  const client = await host.client()
  const currency = (o.currency ?? (await client.company()).base_currency).toUpperCase()
  const body: CreateBankAccountRequest = {
    name,
    account_type: type as CreateBankAccountRequest['account_type'],
    currency_code: currency,
    institution_name: o.institutionName,
    account_number: o.accountNumber,
    opening_balance: o.openingBalance,
    opening_balance_date: o.openingBalanceDate,
    opening_exchange_rate: o.openingRate,
  }
  const account = await client.accounts.create(body)
  await printRecord(host.io, host.printer, shown(host, account))
  note(host.io, host.printer, `created bank account ${account.id}`)
  return EXIT.ok
}

/**
 * finctl accounts update ID [--name N] [--type T] [--institution-name I] [--status S] [--account-number N]
 * [--opening-balance A] [--opening-balance-date D] [--opening-rate R]: change a bank account.
 */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { resolveAccountId } from '../../src/cli/short-ids.js'
import type { UpdateBankAccountRequest } from '../../src/domain/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { ACCOUNT_TYPES } from '../../src/kernel/vocabulary.js'
import { shown } from './shared.js'

export interface UpdateOptions {
  name?: string
  type?: string
  institutionName?: string
  status?: string
  accountNumber?: string
  openingBalance?: string
  openingBalanceDate?: string
  openingRate?: string
}

export function registerUpdate(accounts: Command, run: Runner, runF: RunVerb<UpdateOptions> = runUpdate): void {
  accounts
    .command('update')
    .argument('<id>')
    .description('change a bank account')
    .option('--name <name>', 'account name')
    .option('--type <type>', `account type: ${ACCOUNT_TYPES.join(', ')}`)
    .option('--institution-name <name>', 'bank name ("" to clear)')
    .option('--status <status>', 'active, inactive or closed')
    .option('--account-number <number>', 'only its last 4 characters are kept ("" to clear)')
    .option('--opening-balance <amount>', 'the balance at the start of the opening date, e.g. 2500.00')
    .option('--opening-balance-date <date>', 'YYYY-MM-DD: the day the opening balance counts from; no transaction may be dated before it')
    .option('--opening-rate <rate>', "the opening balance's rate into the base currency (base per 1 unit of the account's)")
    .addHelpText(
      'after',
      '\nRefused (exit 6) when the opening balance, its date or its rate would move a closed month (finctl close), or the date\nwould move past a transaction of the account.\n\nExamples:\n  finctl accounts update $ACCOUNT --name "Operating (old)" --status closed\n  finctl accounts update $ACCOUNT --opening-balance-date 2013-05-01 --opening-balance 24990.00\n',
    )
    .action(run(runF))
}

export async function runUpdate(host: VerbHost, o: UpdateOptions, [id]: string[]): Promise<number> {
  const patch: UpdateBankAccountRequest = {
    name: o.name,
    account_type: o.type as UpdateBankAccountRequest['account_type'],
    institution_name: o.institutionName === undefined ? undefined : o.institutionName === '' ? null : o.institutionName,
    status: o.status as UpdateBankAccountRequest['status'],
    account_number: o.accountNumber === undefined ? undefined : o.accountNumber === '' ? null : o.accountNumber,
    opening_balance: o.openingBalance,
    opening_balance_date: o.openingBalanceDate,
    opening_exchange_rate: o.openingRate,
  }
  if (Object.values(patch).every((v) => v === undefined))
    throw new AppError(
      'usage',
      'nothing to change: give --name, --type, --institution-name, --status, --account-number, --opening-balance, --opening-balance-date or --opening-rate',
    )
  const client = await host.client()
  const account = await client.accounts.update(await resolveAccountId(client, id, 'ID'), patch)
  await printRecord(host.io, host.printer, shown(host, account))
  note(host.io, host.printer, `updated bank account ${account.id}`)
  return EXIT.ok
}

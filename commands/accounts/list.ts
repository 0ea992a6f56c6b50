/** finctl accounts list [--status S] [--type T]: bank accounts with their balances. */
import type { Command } from 'commander'
import { accountColumns } from '../../src/cli/columns.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { ACCOUNT_TYPES } from '../../src/kernel/vocabulary.js'
import { warnUnconverted } from './shared.js'

export interface ListOptions {
  status?: string
  type?: string
}

export function registerList(accounts: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  accounts
    .command('list')
    .description('list bank accounts with their balances')
    .option('--status <status>', 'active, inactive or closed')
    .option('--type <type>', `account type: ${ACCOUNT_TYPES.join(', ')}`)
    .addHelpText('after', '\nExample:\n  finctl accounts list --status active --type checking\n')
    .action(run(runF))
}

export async function runList(host: VerbHost, o: ListOptions): Promise<number> {
  const client = await host.client()
  const { data } = await client.accounts.list({ status: o.status, account_type: o.type })
  warnUnconverted(host, data)
  await printList(host.io, host.printer, data, accountColumns, { empty: 'no bank accounts yet: `finctl accounts create`' })
  return EXIT.ok
}

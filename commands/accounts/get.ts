/** finctl accounts get ID: one bank account. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { resolveAccountId } from '../../src/cli/short-ids.js'
import { shown } from './shared.js'

export type GetOptions = Record<string, never>

export function registerGet(accounts: Command, run: Runner, runF: RunVerb<GetOptions> = runGet): void {
  accounts
    .command('get')
    .argument('<id>')
    .description('show a bank account')
    .addHelpText('after', '\nExample:\n  finctl accounts get $ACCOUNT --json\n')
    .action(run(runF))
}

export async function runGet(host: VerbHost, _o: GetOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  await printRecord(host.io, host.printer, shown(host, await client.accounts.get(await resolveAccountId(client, id, 'ID'))))
  return EXIT.ok
}

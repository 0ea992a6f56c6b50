/** finctl keys list [--status S]: the company's API keys (needs `finctl login`). */
import type { Command } from 'commander'
import { keyColumns } from '../../src/cli/columns.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'

export interface ListOptions {
  status: string
}

export function registerList(keys: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  keys
    .command('list')
    .description('list the API keys (needs `finctl login`)')
    .option('--status <status>', 'active, revoked, expired or all', 'all')
    .addHelpText('after', '\nExample:\n  finctl keys list --status active\n')
    .action(run(runF))
}

export async function runList(host: VerbHost, o: ListOptions): Promise<number> {
  if (!['active', 'revoked', 'expired', 'all'].includes(o.status))
    throw new AppError('usage', '--status must be active, revoked, expired or all')
  const client = await host.client()
  const keys = await client.keys.list(o.status)
  await printList(host.io, host.printer, keys, keyColumns, { empty: 'no API keys' })
  return EXIT.ok
}

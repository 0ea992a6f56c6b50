/** finctl webhooks list: the company's endpoints. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { columns } from './shared.js'

export type ListOptions = Record<string, never>

export function registerList(w: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  w.command('list').description('list endpoints').addHelpText('after', '\nExample:\n  finctl webhooks list --json\n').action(run(runF))
}

export async function runList(host: VerbHost): Promise<number> {
  const list = await (await host.client()).webhooks.list()
  await printList(host.io, host.printer, list, columns, { empty: 'no webhook endpoints: create one with `finctl webhooks create`' })
  return EXIT.ok
}

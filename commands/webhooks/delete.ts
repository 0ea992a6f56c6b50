/** finctl webhooks delete ID [--yes] */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { webhookId } from './shared.js'

export interface DeleteOptions {
  yes?: boolean
}

export function registerDelete(w: Command, run: Runner, runF: RunVerb<DeleteOptions, VerbHost & PromptHost> = runDelete): void {
  w.command('delete')
    .argument('<id>', 'the endpoint id')
    .description('delete an endpoint')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl webhooks delete WEBHOOK_ID --yes\n')
    .action(run(runF))
}

export async function runDelete(host: VerbHost & PromptHost, o: DeleteOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  // The question names the endpoint by its URL: the id alone says nothing.
  const endpoint = await client.webhooks.get(await webhookId(client, id))
  await confirmOrYes(host, o.yes, `Delete webhook endpoint ${endpoint.url} (${endpoint.id})? Nothing more is sent to it.`)
  const r = await client.webhooks.delete(endpoint.id)
  await printRecord(host.io, host.printer, r)
  note(host.io, host.printer, `deleted webhook endpoint ${endpoint.url} (${endpoint.id})`)
  return EXIT.ok
}

/** finctl webhooks test ID: a signed webhook.test event now; exit 14 when the endpoint does not answer 2xx. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { webhookId } from './shared.js'

export type TestOptions = Record<string, never>

export function registerTest(w: Command, run: Runner, runF: RunVerb<TestOptions> = runTest): void {
  w.command('test')
    .argument('<id>', 'the endpoint id')
    .description('send a signed webhook.test event now; exit 14 when the endpoint does not answer 2xx')
    .addHelpText('after', '\nExample:\n  finctl webhooks test WEBHOOK_ID\n')
    .action(run(runF))
}

export async function runTest(host: VerbHost, _o: TestOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const r = await client.webhooks.test(await webhookId(client, id))
  await printRecord(host.io, host.printer, r)
  if (r.ok) return EXIT.ok
  note(host.io, host.printer, `${r.url} did not take the test event: ${r.error}`)
  return EXIT.webhookFailed
}

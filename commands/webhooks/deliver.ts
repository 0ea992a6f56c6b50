/** finctl webhooks deliver: send what is due to every endpoint, once (for an embedded database, from cron). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { count } from '../../src/kernel/words.js'

export type DeliverOptions = Record<string, never>

export function registerDeliver(w: Command, run: Runner, runF: RunVerb<DeliverOptions> = runDeliver): void {
  w.command('deliver')
    .description('send what is due to every endpoint, once (finctl serve does it by itself; this is for an embedded database)')
    .addHelpText('after', '\nExample:\n  finctl webhooks deliver --quiet    # from cron, on an embedded database\n')
    .action(run(runF))
}

export async function runDeliver(host: VerbHost): Promise<number> {
  const r = await (await host.client()).webhooks.deliver()
  await printRecord(host.io, host.printer, r)
  note(host.io, host.printer, `delivered ${count(r.delivered, 'event')}, ${r.failed} failed (retried later)`)
  return EXIT.ok
}

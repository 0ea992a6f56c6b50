/** finctl imports discard BATCH: a pending batch (tx import --review) drops its rows; nothing is created. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { batchId } from './shared.js'

export type DiscardOptions = Record<string, never>

export function registerDiscard(im: Command, run: Runner, runF: RunVerb<DiscardOptions> = runDiscard): void {
  im.command('discard')
    .argument('<batch>', 'the pending batch id (or 6+ of its hex digits)')
    .description('drop the pending rows of a review import (tx import --review): its state becomes discarded')
    .addHelpText('after', '\nExample:\n  finctl imports discard 1a2b3c4d\n')
    .action(run(runF))
}

export async function runDiscard(host: VerbHost, _o: DiscardOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const b = await client.imports.discard(await batchId(client, id))
  if (host.printer.format !== 'table') {
    await printRecord(host.io, host.printer, b)
    return EXIT.ok
  }
  await printRecord(host.io, host.printer, { id: b.id, file_name: b.file_name, state: b.state })
  note(host.io, host.printer, 'its pending rows were dropped: nothing of it was created')
  return EXIT.ok
}

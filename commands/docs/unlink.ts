/** finctl docs unlink ID --tx TX: remove the link of a document to a transaction (audited in its history). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { documentId } from '../../src/cli/id-kinds.js'
import { resolveTransactionId } from '../../src/cli/short-ids.js'

export interface UnlinkOptions {
  tx: string
}

export function registerUnlink(docs: Command, run: Runner, runF: RunVerb<UnlinkOptions> = runUnlink): void {
  docs
    .command('unlink')
    .argument('<id>')
    .description('unlink a document from a transaction (audited in its history)')
    .requiredOption('--tx <id>', 'the transaction')
    .addHelpText('after', '\nExample:\n  finctl docs unlink $DOC --tx $TX\n')
    .action(run(runF))
}

export async function runUnlink(ctx: VerbHost, o: UnlinkOptions, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  const tx = await resolveTransactionId(client, o.tx, '--tx')
  const d = await client.documents.unlink(await documentId(client, id), tx)
  await printRecord(ctx.io, ctx.printer, d, [
    ['id', (r) => r.id],
    ['transactions', (r) => r.transaction_ids.join(' ')],
  ])
  note(ctx.io, ctx.printer, `unlinked document ${d.id} from transaction ${tx}`)
  return EXIT.ok
}

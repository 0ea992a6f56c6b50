/** finctl docs link ID --tx TX: link a document to a transaction (audited in its history). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { documentId } from '../../src/cli/id-kinds.js'
import { resolveTransactionId } from '../../src/cli/short-ids.js'

export interface LinkOptions {
  tx: string
}

export function registerLink(docs: Command, run: Runner, runF: RunVerb<LinkOptions> = runLink): void {
  docs
    .command('link')
    .argument('<id>')
    .description('link a document to a transaction (audited in its history)')
    .requiredOption('--tx <id>', 'the transaction')
    .addHelpText('after', '\nExample:\n  finctl docs link $DOC --tx $TX\n')
    .action(run(runF))
}

export async function runLink(ctx: VerbHost, o: LinkOptions, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  const tx = await resolveTransactionId(client, o.tx, '--tx')
  const d = await client.documents.link(await documentId(client, id), tx)
  await printRecord(ctx.io, ctx.printer, d, [
    ['id', (r) => r.id],
    ['transactions', (r) => r.transaction_ids.join(' ')],
  ])
  note(ctx.io, ctx.printer, `linked document ${d.id} to transaction ${tx}`)
  return EXIT.ok
}

/** finctl docs show ID: a document, what it is and the transactions it is linked to. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { showAmount } from '../../src/cli/money.js'
import { printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { documentId } from '../../src/cli/id-kinds.js'

export type ShowOptions = Record<string, never>

export function registerShow(docs: Command, run: Runner, runF: RunVerb<ShowOptions> = runShow): void {
  docs
    .command('show')
    .argument('<id>')
    .description('show a document and the transactions it is linked to')
    .addHelpText('after', '\nExample:\n  finctl docs show $DOC --json\n')
    .action(run(runF))
}

export async function runShow(ctx: VerbHost, _o: ShowOptions, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  const d = await client.documents.get(await documentId(client, id))
  await printRecord(ctx.io, ctx.printer, d, [
    ['id', (r) => r.id],
    ['file_name', (r) => r.file_name],
    ['kind', (r) => r.kind],
    ['media_type', (r) => r.media_type],
    ['size', (r) => r.size],
    ['sha256', (r) => r.sha256],
    ['created_by', (r) => r.created_by],
    ['created_at', (r) => r.created_at],
    ['transactions', (r) => r.transaction_ids.join(' ')],
    [
      'amount',
      (r) => (r.fields?.amount != null && r.fields.currency ? showAmount(r.fields.amount, r.fields.currency, { code: true }) : ''),
    ],
    ['date', (r) => r.fields?.date ?? ''],
    ['merchant', (r) => r.fields?.merchant ?? ''],
    ['read_from', (r) => r.fields?.source ?? ''],
  ])
  return EXIT.ok
}

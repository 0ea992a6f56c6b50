/**
 * finctl docs suggest [ID] [--apply]: the transactions an unlinked document may prove, scored by its
 * amount, date and merchant (docs/documents.md, "Matching"); --apply links those sure enough.
 */
import type { Command } from 'commander'
import { amountColumn, idColumn } from '../../src/cli/columns.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { wholeNumber } from '../../src/cli/flags.js'
import { showAmount } from '../../src/cli/money.js'
import { note, printList, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { DocumentSuggestion, MatchCandidate } from '../../src/domain/documents/schemas.js'
import { documentId } from '../../src/cli/id-kinds.js'

export interface SuggestOptions {
  apply?: boolean
  limit?: string
}

export function registerSuggest(docs: Command, run: Runner, runF: RunVerb<SuggestOptions> = runSuggest): void {
  docs
    .command('suggest')
    .argument('[id]', 'one document (default: every unlinked one)')
    .description('suggest the transactions unlinked documents prove, scored by amount, date and merchant; --apply links the sure ones')
    .option('--apply', 'link each document that matches one transaction alone, sure enough (as docs add does)')
    .option('--limit <n>', 'unlinked documents to match, oldest first (default 100)')
    .addHelpText(
      'after',
      '\nA score is 0 to 1: the same amount in the same currency 0.6, the date 0.25, the merchant 0.15.\nA document is linked by --apply only to an amount match scored 0.8 or more, 0.1 ahead of the next.\n\nExamples:\n  finctl docs suggest\n  finctl docs suggest $DOC --json\n  finctl docs suggest --apply\n',
    )
    .action(run(runF))
}

type Row = { doc: DocumentSuggestion; c: MatchCandidate | null }

const fieldsText = (d: DocumentSuggestion) => {
  const f = d.fields
  const parts = [f.amount !== null && f.currency ? showAmount(f.amount, f.currency, { code: true }) : '', f.date ?? '', f.merchant ?? '']
  return parts.filter(Boolean).join(' ') || 'nothing read'
}

const columns = [
  { header: 'document', value: (r: Row) => r.doc.document_id, tty: (r: Row) => r.doc.document_id.slice(-8), keep: true },
  { header: 'file', value: (r: Row) => r.doc.file_name, min: 10, drop: 3 },
  { header: 'read', value: (r: Row) => fieldsText(r.doc), drop: 2 },
  idColumn((r: Row) => r.c?.transaction_id ?? ''),
  { header: 'score', value: (r: Row) => (r.c ? r.c.score.toFixed(2) : ''), align: 'right' as const },
  { header: 'date', value: (r: Row) => r.c?.transaction_date ?? '' },
  {
    ...amountColumn<Row>(
      'amount',
      (r) => r.c?.amount ?? 0,
      (r) => r.c?.currency_code ?? '',
    ),
    value: (r: Row) => (r.c ? showAmount(r.c.amount, r.c.currency_code, { code: true }) : ''),
    tty: (r: Row) => (r.c ? showAmount(r.c.amount, r.c.currency_code, { group: true, code: true }) : ''),
  },
  { header: 'description', value: (r: Row) => r.c?.description ?? 'no candidate', wide: true, min: 12, drop: 1 },
  {
    header: 'why',
    value: (r: Row) => (r.c ? `${r.doc.auto_link === r.c.transaction_id ? 'sure: ' : ''}${r.c.why.join('; ')}` : ''),
    wide: true,
    min: 16,
  },
]

export async function runSuggest(ctx: VerbHost, o: SuggestOptions, [id]: string[]): Promise<number> {
  const limit = wholeNumber(o.limit, '--limit', { max: 500 })
  const client = await ctx.client()
  if (id !== undefined) id = await documentId(client, id)
  if (o.apply) {
    const done = await client.documents.applySuggestions(id)
    await printRecord(ctx.io, ctx.printer, done, [
      ['linked', (r) => r.linked.map((l) => `${l.document_id} -> ${l.transaction_id} (${l.score.toFixed(2)})`).join('\n')],
      ['left unlinked', (r) => r.left],
    ])
    for (const l of done.linked) note(ctx.io, ctx.printer, `linked document ${l.document_id} to transaction ${l.transaction_id}`)
    note(ctx.io, ctx.printer, `${done.linked.length} linked, ${done.left} left unlinked (no candidate sure enough)`)
    return EXIT.ok
  }
  const all = id ? [await client.documents.suggestion(id)] : await client.documents.suggestions({ limit })
  if (ctx.printer.format === 'json' || ctx.printer.format === 'ndjson') {
    if (id) await printRecord(ctx.io, ctx.printer, all[0])
    else await printList(ctx.io, ctx.printer, all, [])
    return EXIT.ok
  }
  const rows = all.flatMap((doc): Row[] => (doc.candidates.length ? doc.candidates.map((c) => ({ doc, c })) : [{ doc, c: null }]))
  await printList(ctx.io, ctx.printer, rows, columns, { empty: 'no unlinked documents: every document is linked to a transaction' })
  const sure = all.filter((d) => d.auto_link).length
  if (sure) note(ctx.io, ctx.printer, `${sure} sure enough to link: finctl docs suggest --apply`)
  return EXIT.ok
}

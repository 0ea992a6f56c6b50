/** finctl docs add FILE... [--tx ID]: store files (by content: the same file is one document), linked to a transaction when asked. */
import { readFileSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { unreadableFile } from '../../src/cli/files.js'
import { note, printList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { AddedDocument } from '../../src/domain/documents/schemas.js'
import { MAX_DOCUMENT_FILE } from '../../src/domain/documents/schemas.js'
import { sniff } from '../../src/domain/documents/sniff.js'
import { AppError } from '../../src/kernel/errors.js'
import { printableLine } from '../../src/kernel/terminal-text.js'
import { documentColumns } from './shared.js'
import { resolveTransactionId } from '../../src/cli/short-ids.js'

export interface AddOptions {
  tx?: string
  /** commander's --no-auto-link. */
  autoLink?: boolean
}

export function registerAdd(docs: Command, run: Runner, runF: RunVerb<AddOptions> = runAdd): void {
  docs
    .command('add')
    .argument('<file...>')
    .description('store receipts, invoices and contracts (PDF, PNG, JPEG, HEIC, XML e-invoices; at most 20 MiB each)')
    .option('--tx <id>', 'link each file to this transaction')
    .option('--no-auto-link', 'never link a file by itself (by default one matching a single transaction sure enough is linked to it)')
    .addHelpText(
      'after',
      '\nWithout --tx, a file whose amount, date and merchant match one transaction alone is linked to it\n(docs/documents.md, "Matching"); `finctl docs suggest` shows the candidates of the others.\n\nExamples:\n  finctl docs add receipt.pdf invoice.xml --tx $TX\n  finctl docs add 2026-10-03_acme_119.00EUR.pdf\n',
    )
    .action(run(runF))
}

/** A read of a file named on the command line: its failure (a link loop, no permission) a usage error naming it. */
function readable<T>(read: () => T, path: string): T {
  try {
    return read()
  } catch (e) {
    throw unreadableFile(printableLine(path), e as NodeJS.ErrnoException)
  }
}

export async function runAdd(ctx: VerbHost, o: AddOptions, files: string[]): Promise<number> {
  // Every file is checked before any is sent: a missing, too large or unknown one stores nothing.
  const read = files.map((path) => {
    const info = readable(() => statSync(path, { throwIfNoEntry: false }), path)
    if (!info) throw new AppError('usage', `${printableLine(path)}: no such file`)
    if (info.isDirectory())
      throw new AppError('usage', `${printableLine(path)} is a folder: give the files in it (docs add ${printableLine(path)}/*)`)
    if (!info.isFile())
      throw new AppError('usage', `${printableLine(path)} is not a regular file (a device, a FIFO or a socket): give a file`)
    if (info.size > MAX_DOCUMENT_FILE)
      throw new AppError(
        'usage',
        `${printableLine(path)} is ${info.size} bytes: a document may be at most 20 MiB (${MAX_DOCUMENT_FILE} bytes)`,
      )
    const bytes = readable(() => readFileSync(path), path)
    // The service sniffs again; told here first, a refused file leaves the others unsent too.
    const found = sniff(bytes)
    if (found.kind === null)
      throw new AppError(
        'validation_error',
        `${printableLine(JSON.stringify(basename(path)))} looks like ${found.looksLike}: a document must be a PDF, PNG, JPEG or HEIC file, or an XML e-invoice (UBL Invoice or CreditNote, CII CrossIndustryInvoice); nothing was added`,
      )
    return { path, bytes }
  })
  const client = await ctx.client()
  const tx = o.tx === undefined ? undefined : await resolveTransactionId(client, o.tx, '--tx')
  const added: AddedDocument[] = []
  for (const f of read) {
    const d = await client.documents.add({
      file_name: basename(f.path),
      content_base64: f.bytes.toString('base64'),
      transaction_id: tx,
      auto_link: o.autoLink === false ? false : undefined,
    })
    added.push(d)
    note(ctx.io, ctx.printer, `${d.created ? 'added' : 'already there'}: ${printableLine(f.path)} as ${d.kind} ${d.id}`)
    if (d.auto_linked)
      note(ctx.io, ctx.printer, `  linked by itself to transaction ${d.auto_linked}: its amount, date and merchant match that one alone`)
  }
  await printList(ctx.io, ctx.printer, added, documentColumns)
  return EXIT.ok
}

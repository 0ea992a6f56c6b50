/** finctl docs get ID -o FILE: write a document's bytes to a file (never over one unasked), or `-o -` to stdout. */
import { type Command, Option } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { checkOutputFile, OutputFile } from '../../src/jobs/output-file.js'
import { AppError } from '../../src/kernel/errors.js'
import { printableLine } from '../../src/kernel/terminal-text.js'
import { documentId } from '../../src/cli/id-kinds.js'

export interface GetOptions {
  output?: string
  outputFile?: string
  overwrite?: boolean
}

export function registerGet(docs: Command, run: Runner, runF: RunVerb<GetOptions> = runGet): void {
  docs
    .command('get')
    .argument('<id>')
    .description("write a document's bytes to a file, or to stdout with -o -")
    .addOption(new Option('-o, --output <file>', 'the file to write, which must not exist yet (`-` for stdout)'))
    .option('--overwrite', 'replace the --output file when it exists')
    // What -o and --output after `docs get` reach the command as (src/cli/program.ts outputFileArgs).
    .addOption(new Option('--output-file <file>').hideHelp())
    .addHelpText('after', '\nExample:\n  finctl docs get $DOC -o receipt.pdf\n')
    .action(run(runF))
}

export async function runGet(ctx: VerbHost, opts: GetOptions, [id]: string[]): Promise<number> {
  const output = opts.outputFile ?? opts.output
  if (output === undefined) throw new AppError('usage', '--output FILE is required (`-o -` writes to stdout)')
  const o = { ...opts, output }
  const toStdout = output === '-'
  if (!toStdout) checkOutputFile(o.output, { flag: '--output', overwrite: o.overwrite })
  if (toStdout && ctx.io.isStdoutTTY) throw new AppError('usage', '-o -: stdout is a terminal: redirect it to a file or a pipe')
  const client = await ctx.client()
  const d = await client.documents.content(await documentId(client, id))
  if (toStdout) {
    ctx.io.stdout.write(d.bytes)
    return EXIT.ok
  }
  const file = OutputFile.create(o.output, { flag: '--output', overwrite: o.overwrite, what: 'the document' })
  file.writeBytes(d.bytes)
  file.commit()
  note(ctx.io, ctx.printer, `wrote ${d.bytes.length} bytes of ${printableLine(d.fileName)} (${d.mediaType}) to ${printableLine(o.output)}`)
  return EXIT.ok
}

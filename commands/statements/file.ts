/** finctl statements file ID -o FILE: write a statement's original file, as uploaded, to a file (never over one unasked), or `-o -` to stdout. */
import { type Command, Option } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { checkOutputFile, OutputFile } from '../../src/jobs/output-file.js'
import { AppError } from '../../src/kernel/errors.js'
import { printableLine } from '../../src/kernel/terminal-text.js'
import { statementId } from './shared.js'

export interface FileOptions {
  output?: string
  outputFile?: string
  overwrite?: boolean
}

export function registerFile(st: Command, run: Runner, runF: RunVerb<FileOptions> = runFile): void {
  st.command('file')
    .argument('<id>')
    .description("write a statement's original file, as uploaded, to a file, or to stdout with -o -")
    .addOption(new Option('-o, --output <file>', 'the file to write, which must not exist yet (`-` for stdout)'))
    .option('--overwrite', 'replace the --output file when it exists')
    // What -o and --output after `statements file` reach the command as (src/cli/program.ts outputFileArgs).
    .addOption(new Option('--output-file <file>').hideHelp())
    .addHelpText(
      'after',
      "\nA statement uploaded before finctl kept statements' files has none: exit 5, saying so.\n\nExample:\n  finctl statements file $STATEMENT -o march.ofx\n",
    )
    .action(run(runF))
}

export async function runFile(ctx: VerbHost, opts: FileOptions, [id]: string[]): Promise<number> {
  const output = opts.outputFile ?? opts.output
  if (output === undefined) throw new AppError('usage', '--output FILE is required (`-o -` writes to stdout)')
  const toStdout = output === '-'
  if (!toStdout) checkOutputFile(output, { flag: '--output', overwrite: opts.overwrite })
  if (toStdout && ctx.io.isStdoutTTY) throw new AppError('usage', '-o -: stdout is a terminal: redirect it to a file or a pipe')
  const client = await ctx.client()
  const f = await client.statements.file(await statementId(client, id))
  if (toStdout) {
    ctx.io.stdout.write(f.bytes)
    return EXIT.ok
  }
  const file = OutputFile.create(output, { flag: '--output', overwrite: opts.overwrite, what: "the statement's file" })
  file.writeBytes(f.bytes)
  file.commit()
  note(
    ctx.io,
    ctx.printer,
    `wrote ${f.bytes.length} bytes of ${printableLine(f.fileName)} (SHA-256 ${f.sha256}) to ${printableLine(output)}`,
  )
  return EXIT.ok
}

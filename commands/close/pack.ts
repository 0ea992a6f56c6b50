/** finctl close pack MONTH -o FILE [--formats F,...] [--force]: the auditor's pack of a closed month (docs/closing.md). */
import { type Command, Option } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord, warn } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { printableLine } from '../../src/kernel/terminal-text.js'
import { month } from './shared.js'

export interface PackOptions {
  output?: string
  outputFile?: string
  formats?: string
  force?: boolean
}

export function registerPack(close: Command, run: Runner, runF: RunVerb<PackOptions> = runPack): void {
  close
    .command('pack')
    .argument('<month>', 'the closed month, YYYY-MM')
    .description(
      "write a closed month's auditor's pack: one zip of its journal, statements and their original files, reconciliation, documents, audit entries and close record, with a signed manifest",
    )
    .addOption(new Option('-o, --output <file>', 'the zip to write (never over an existing file without --force)'))
    // What -o and --output after `close pack` reach the command as (src/cli/program.ts outputFileArgs).
    .addOption(new Option('--output-file <file>').hideHelp())
    .option(
      '--formats <formats>',
      "the export formats besides csv (always in): ledger, hledger, beancount, xlsx, csv, datev, sie4, saft-no (these three take the company's accounts map)",
      'csv',
    )
    .option('--force', 'replace the -o file if it exists')
    .addHelpText(
      'after',
      '\nThe pack is checked offline by `finctl verify --pack FILE` (no database, no login).\n\nExamples:\n  finctl close pack 2026-10 -o pack-2026-10.zip\n  finctl close pack 2026-10 -o pack.zip --formats hledger,xlsx\n',
    )
    .action(run(runF))
}

export async function runPack(host: VerbHost, o: PackOptions, [m]: string[]): Promise<number> {
  month('MONTH', m)
  const output = o.outputFile ?? o.output
  if (!output) throw new AppError('usage', '-o FILE is required: the zip to write')
  // `close pack M --force`: commander may hand --force to `close` (which has one too), as reopen's --reason.
  const force = o.force ?? (host.globals as { force?: boolean }).force
  const { formatsFlag } = await import('../../src/domain/exports/formats/format.js')
  const formats = formatsFlag(o.formats ?? 'csv', '--formats')
  const { buildPack, checkPackOutput } = await import('../../src/jobs/pack/build.js')
  const plan = { month: m, formats, output, force, onWarning: (message: string) => warn(host.io, message) }
  checkPackOutput(plan)
  const r = await buildPack(await host.client(), plan)
  const c = r.manifest.close
  const originals = r.manifest.statement_files.originals ?? []
  await printRecord(host.io, host.printer, {
    file: r.path,
    bytes: r.bytes,
    month: r.manifest.month,
    close_id: c.id,
    close_sequence: c.sequence,
    closed_at: c.created_at,
    files: r.manifest.files.length,
    statement_originals: originals.filter((x) => x.path !== null).length,
    public_key: r.signature.public_key,
  })
  // A statement uploaded before finctl kept its file is packed without it: said, not failed.
  for (const x of originals)
    if (x.path === null)
      note(host.io, host.printer, `statement ${x.statement_id} (${printableLine(x.file_name)}): ${x.note ?? 'original not kept'}`)
  const nth = c.sequence === 1 ? 'its close' : `close #${c.sequence} of the month (closed again after a reopen)`
  note(
    host.io,
    host.printer,
    `wrote ${r.path}: ${m}, ${nth} of ${c.created_at}, ${r.manifest.files.length} files, signed with the company's key (finctl verify --pack ${r.path} checks it)`,
  )
  return EXIT.ok
}

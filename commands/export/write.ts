/** finctl export --format ledger|hledger|beancount|xlsx|csv|datev|sie4|saft-no [--from D] [--to D] [--account ID] [--accounts-map FILE] [--strict] [--checksum] [--output FILE] */
import { existsSync } from 'node:fs'
import { Option, type Command } from 'commander'
import { interruptible, stoppedBy } from '../../src/cli/interrupt.js'
import { resolveAccountId } from '../../src/cli/short-ids.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { requireInputFile } from '../../src/cli/files.js'
import { note, warn } from '../../src/cli/output.js'
import { FROM_HELP, TO_HELP, periodFlags, reportRange } from '../../src/cli/period-flags.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { EXPORT_FORMATS, type ExportFormat, FORMAT_NAME, isChart } from '../../src/domain/exports/formats/format.js'

/** The `export` command itself; its subcommands (check, map) are added to what this returns. */
export function registerExport(program: Command, run: Runner, runF: RunVerb<ExportOptions> = runExport): Command {
  return (
    program
      .command('export')
      .description(
        "a period's transactions for an accountant's tools: ledger, hledger or beancount journals, a workbook, CSV, or the filing formats DATEV, SIE 4 and SAF-T",
      )
      .addOption(new Option('--format <format>', 'what to write (required)').choices([...EXPORT_FORMATS]))
      .option('--from <when>', `${FROM_HELP} (default: as reports, the last 12 months)`)
      .option('--to <when>', TO_HELP)
      .option('--account <id>', 'one bank account only: its name or id (bank_account_id)')
      .option('--as-of <timestamp>', 'as the data stood at this moment, e.g. 2026-11-05T09:00:00Z (from the audit trail)')
      .option(
        '--accounts-map <file>',
        "JSON or YAML: the accounts (journals) or account numbers (datev, sie4, saft-no; default: the company's, `export map set`) of bank accounts and categories (docs/exporting.md)",
      )
      .option('--strict', 'datev, sie4, saft-no: a text the format cannot hold as it is fails the export (exit 6), instead of a warning')
      .option('--checksum', 'sie4: end the file with #KSUMMA, its checksum')
      .addOption(new Option('-o, --output <file>', 'the file to write, which must not exist yet (default: stdout)'))
      .option('--overwrite', 'replace the --output file when it exists')
      // What -o and --output after `export` reach the command as (src/cli/program.ts outputFileArgs).
      .addOption(new Option('--output-file <file>').hideHelp())
      .addHelpText(
        'after',
        '\nExamples:\n  finctl export --format hledger --from 2026-01-01 --to 2026-12-31 --output books-2026.journal\n  finctl export --format xlsx --from 2026-10-01 --to 2026-10-31 --output october.xlsx\n  finctl export --format beancount --accounts-map accounts.yaml > books.beancount\n  finctl export --format datev --from 2026-10-01 --to 2026-10-31 -o EXTF_october.csv\n  finctl export --format sie4 --from 2026-01-01 --to 2026-12-31 --checksum -o books-2026.se\n  finctl export --format saft-no --from 2026-01-01 --to 2026-12-31 -o saft-2026.xml\n  finctl export check EXTF_october.csv\n' +
          '\nCtrl-C or SIGTERM (exit 130, 143) writes no --output file, not half of one: the same command again writes it whole.\n',
      )
      .hook('preAction', (exp, action) => {
        // --format is required of the export itself, not of its subcommands (commander would ask it of both).
        if (action === exp && exp.opts().format === undefined)
          exp.error("error: required option '--format <format>' not specified", {
            code: 'commander.missingMandatoryOptionValue',
            exitCode: 2,
          })
        if (action === exp) return
        for (const o of exp.options) {
          if (exp.getOptionValueSource(o.attributeName()) !== 'cli') continue
          // Commander hands `export`'s flags to `export` wherever they stand: one its subcommand has too goes on to it.
          if (action.options.some((a) => a.long === o.long)) {
            action.setOptionValueWithSource(o.attributeName(), exp.getOptionValue(o.attributeName()), 'cli')
            continue
          }
          action.error(`error: ${o.long} is an option of \`finctl export\`, not of \`finctl export ${action.name()}\``, {
            code: 'commander.unknownOption',
            exitCode: 2,
          })
        }
      })
      .action(run(runF))
  )
}

export interface ExportOptions {
  format: ExportFormat
  from?: string
  to?: string
  account?: string
  asOf?: string
  accountsMap?: string
  strict?: boolean
  checksum?: boolean
  output?: string
  outputFile?: string
  overwrite?: boolean
}

export async function runExport(ctx: VerbHost, opts: ExportOptions): Promise<number> {
  const o = { ...opts, output: opts.outputFile ?? opts.output }
  const period = periodFlags(ctx, o, (r) => reportRange(r, ctx.io.now())) as { from: string; to: string }
  if (period.from > period.to) throw new AppError('usage', `--from (${period.from}) must be on or before --to (${period.to})`)
  if (o.output === undefined && o.format === 'xlsx' && ctx.io.isStdoutTTY)
    throw new AppError('usage', 'a workbook is not for a terminal: give --output FILE.xlsx, or redirect stdout to a file')
  if (o.output === undefined && (o.format === 'datev' || o.format === 'sie4') && ctx.io.isStdoutTTY)
    throw new AppError(
      'usage',
      `a ${FORMAT_NAME[o.format]} file is written in ${o.format === 'datev' ? 'Windows-1252' : 'CP437'}, not for a terminal: give --output FILE, or redirect stdout to a file`,
    )
  if (o.strict && !isChart(o.format)) throw new AppError('usage', `--strict is for datev, sie4 and saft-no, not ${o.format}`)
  if (o.checksum && o.format !== 'sie4') throw new AppError('usage', `--checksum is for sie4, not ${o.format}`)
  const { parseAccountsMap } = await import('../../src/domain/exports/formats/accounts-map.js')
  let accountsMap: Awaited<ReturnType<typeof parseAccountsMap>> | undefined
  if (o.accountsMap !== undefined) {
    if (o.format === 'csv' || o.format === 'xlsx')
      throw new AppError(
        'usage',
        `--accounts-map is for the journals (ledger, hledger, beancount) and the filing formats (datev, sie4, saft-no), not ${o.format}`,
      )
    await requireInputFile(o.accountsMap)
    const { readFile } = await import('node:fs/promises')
    accountsMap = await parseAccountsMap(await readFile(o.accountsMap, 'utf8'), o.accountsMap)
  }
  const { checkOutputFile, openOutputStream } = await import('../../src/jobs/output-file.js')
  const inputs = o.accountsMap === undefined ? [] : [{ path: o.accountsMap, what: 'the --accounts-map file' }]
  const target = { flag: '--output', overwrite: o.overwrite, inputs }
  if (o.output !== undefined) checkOutputFile(o.output, target)

  const client = await ctx.client()
  const { runExport: exportTo } = await import('../../src/jobs/export/run.js')
  const { ProgressLine } = await import('../../src/cli/progress.js')
  // Progress on a terminal's stderr, unless the export itself goes to that terminal.
  const bar = new ProgressLine(ctx.io, ctx.io.isStderrTTY && !ctx.printer.quiet && (o.output !== undefined || !ctx.io.isStdoutTTY))
  const started = Date.now()
  let written = 0
  const existed = o.output !== undefined && existsSync(o.output)
  let total: number | undefined
  // An export changes nothing in the books: stopping it loses only the file, which is never left half written.
  const stopped = (signal: 'SIGINT' | 'SIGTERM') => {
    const sofar =
      total === undefined
        ? 'before any transaction was written'
        : `after ${written.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} transactions`
    const path = o.output === undefined ? '' : printableLine(o.output)
    const where =
      o.output === undefined ? 'what went to stdout is incomplete' : existed ? `${path} was left as it was` : `${path} was not written`
    return `${stoppedBy(signal)}: the export stopped ${sofar}; ${where}: the same command again writes it whole`
  }
  let warnings = 0
  const request = {
    format: o.format,
    ...period,
    bankAccountId: o.account === undefined ? undefined : await resolveAccountId(client, o.account),
    accountsMap,
    checksum: o.checksum,
    asOf: o.asOf,
    writtenAt: ctx.io.now(),
    onWarning: (m: string) => {
      warnings++
      bar.end()
      warn(ctx.io, m)
    },
    onProgress: (done: number, of: number) => {
      written = done
      total = of
      bar.update({ done, total: of, elapsedMs: Date.now() - started })
    },
  }
  let result: Awaited<ReturnType<typeof exportTo>>
  if (o.output === undefined) {
    const { expectReader, writeDrained } = await import('../../src/cli/closed-output.js')
    const out = ctx.io.stdout
    try {
      // A reader that goes away (`| head`) ends the export quietly, as it ends `tx list --all`.
      // A file or a pipe gets the text exactly, for the accounting tools; a terminal, with its controls escaped.
      const { printableText } = await import('../../src/cli/terminal-text.js')
      const shown = (t: string | Uint8Array) => (ctx.io.isStdoutTTY && typeof t === 'string' ? printableText(t) : t)
      result = await interruptible(
        exportTo(client, { ...request, write: (t) => writeDrained(out, shown(t)), afterPage: () => expectReader(out) }, out),
        stopped,
        () => bar.end(),
      )
    } finally {
      bar.end()
    }
  } else {
    // Ctrl-C is ours from before the temporary file exists: a signal while it is being opened
    // would otherwise end the process by default and leave the file behind.
    let halted = false
    const opening = openOutputStream(o.output, target)
    const work = opening.then(async (file) => {
      if (halted) throw new Error('stopped before the export began')
      const r = await exportTo(client, request, file.stream)
      // --strict: a named text fails the export before the file takes its name.
      if (o.strict && warnings) throw strictFailure(warnings, o.output)
      await file.commit()
      return r
    })
    try {
      result = await interruptible(work, stopped, () => {
        halted = true
        bar.end()
      })
    } catch (e) {
      await (await opening.catch(() => undefined))?.abandon()
      throw e
    } finally {
      bar.end()
    }
  }
  if (o.strict && warnings) throw strictFailure(warnings, o.output)
  const zero = result.zeroLeftOut ? `; ${result.zeroLeftOut.toLocaleString('en-US')} of 0 left out: DATEV takes no booking of 0` : ''
  const left =
    result.voidLeftOut || zero
      ? ` (${result.voidLeftOut ? `${result.voidLeftOut.toLocaleString('en-US')} void left out: they moved nothing` : ''}${result.voidLeftOut ? zero : zero.slice(2)})`
      : ''
  note(
    ctx.io,
    ctx.printer,
    `exported ${result.rows.toLocaleString('en-US')} transactions of ${period.from} to ${period.to} as ${o.format}${left}${o.output ? ` to ${o.output}` : ''}`,
  )
  return 0
}

function strictFailure(warnings: number, output: string | undefined): AppError {
  const what = `${warnings.toLocaleString('en-US')} ${warnings === 1 ? 'text' : 'texts'} the format cannot hold as ${warnings === 1 ? 'it is' : 'they are'} (named above)`
  const where = output === undefined ? 'what went to stdout is not to be filed' : `${printableLine(output)} was not written`
  return new AppError('validation_error', `--strict: ${what}; ${where}`)
}

/** finctl close MONTH [--force --reason T] [--export F,... --output-dir D --accounts-map F --overwrite]: close a month. */
import { join } from 'node:path'
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { requireInputFile } from '../../src/cli/files.js'
import { note, printList, printRecord, type Column, warn } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { CloseExport } from '../../src/domain/closing/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { month } from './shared.js'

export interface CloseOptions {
  force?: boolean
  reason?: string
  export?: string
  outputDir?: string
  accountsMap?: string
  overwrite?: boolean
}

/** The `close` command itself (it takes a month); its subcommands are added to what this returns. */
export function registerCloseMonth(program: Command, run: Runner, runF: RunVerb<CloseOptions> = runClose): Command {
  return program
    .command('close')
    .description('close a month: its transactions can no longer change (the lock date); its readiness, reopening')
    .argument('[month]', 'the month to close, YYYY-MM')
    .option('--force', 'close although `close status` finds the month not ready (needs --reason; recorded as forced)')
    .option('--reason <text>', 'why (required with --force)')
    .option(
      '--export <formats>',
      'also write the month as these exports (comma-separated: ledger, hledger, beancount, xlsx, csv, datev, sie4, saft-no) and record their SHA-256 on the close',
    )
    .option('--output-dir <dir>', 'the folder for --export files, created if missing (default: the current folder)')
    .option(
      '--accounts-map <file>',
      "JSON or YAML: the journal accounts or account numbers for --export (default for datev, sie4, saft-no: the company's, export map set; docs/exporting.md)",
    )
    .option('--overwrite', 'replace --export files that exist')
    .addHelpText(
      'after',
      '\nExit codes: 0 closed; 12 the month is not ready (see `finctl close status`), nothing changed.\n\nExamples:\n  finctl close status --month 2026-10\n  finctl close 2026-10\n  finctl close 2026-10 --export hledger,xlsx --output-dir books/\n  finctl close 2026-10 --force --reason "bank statement arrives late; balances checked by hand"\n  finctl close reopen 2026-10 --reason "late supplier invoice"\n',
    )
    .hook('preAction', refuseOwnFlagsAfterSubcommand)
    .action(run(runF))
}

/**
 * Commander gives `close`'s own flags to `close` wherever they stand, so after a subcommand
 * (`close status --force`) they would be taken and dropped: refused there instead, as an unknown
 * option, except one the subcommand has too (reopen's --reason).
 */
function refuseOwnFlagsAfterSubcommand(close: Command, action: Command): void {
  if (action === close) return
  for (const o of close.options) {
    if (close.getOptionValueSource(o.attributeName()) !== 'cli' || action.options.some((a) => a.long === o.long)) continue
    action.error(`error: ${o.long} is an option of \`finctl close MONTH\`, not of \`finctl close ${action.name()}\``, {
      code: 'commander.unknownOption',
      exitCode: 2,
    })
  }
}

export async function runClose(host: VerbHost, o: CloseOptions, [m]: string[]): Promise<number> {
  if (m === undefined) throw new AppError('usage', 'give the month to close (finctl close 2026-10), or a command: status, reopen, history')
  month('MONTH', m)
  if (o.force && !o.reason?.trim())
    throw new AppError('usage', '--force needs --reason TEXT: say why the month is closed although not ready')
  const plan = o.export === undefined ? undefined : await exportPlan(m, o)
  if (plan === undefined && (o.outputDir || o.accountsMap || o.overwrite))
    throw new AppError('usage', '--output-dir, --accounts-map and --overwrite go with --export FORMATS')
  const client = await host.client()
  // With --export, a month closed already keeps its close and gets the exports (a retry after a failed write).
  const already = plan && (await client.close.status(m)).closed
  if (already) note(host.io, host.printer, `${m} is closed already: writing its exports and recording them on its close`)
  else {
    const r = await client.close.month(m, { ...(o.force ? { force: true } : {}), ...(o.reason ? { reason: o.reason } : {}) })
    if (!plan) await printRecord(host.io, host.printer, r.record)
    note(
      host.io,
      host.printer,
      `closed ${m}: transactions dated on or before ${r.record.lock_date} can no longer change${r.record.forced ? ' (forced: it was not ready)' : ''}`,
    )
  }
  if (!plan) return EXIT.ok
  const { writeCloseExports } = await import('../../src/jobs/export/close-exports.js')
  const written = await writeCloseExports(client, { ...plan, onWarning: (message) => warn(host.io, message) })
  await printList(host.io, host.printer, written, exportColumns(plan.dir))
  note(
    host.io,
    host.printer,
    `recorded ${written.length} export${written.length === 1 ? '' : 's'} on the close of ${m} (finctl verify --close ${m} checks them)`,
  )
  return EXIT.ok
}

async function exportPlan(m: string, o: CloseOptions) {
  const { formatsFlag } = await import('../../src/domain/exports/formats/format.js')
  const formats = formatsFlag(o.export ?? '', '--export')
  const { checkCloseExports, readAccountsMap } = await import('../../src/jobs/export/close-exports.js')
  let accountsMap: Awaited<ReturnType<typeof readAccountsMap>> | undefined
  if (o.accountsMap !== undefined) {
    await requireInputFile(o.accountsMap)
    accountsMap = await readAccountsMap(o.accountsMap)
  }
  const plan = {
    month: m,
    formats,
    dir: o.outputDir ?? '.',
    accountsMap,
    overwrite: o.overwrite,
  }
  await checkCloseExports(plan)
  return plan
}

const exportColumns = (dir: string): Column<CloseExport>[] => [
  { header: 'format', value: (r) => r.format },
  { header: 'file', value: (r) => join(dir, r.file_name) },
  { header: 'rows', value: (r) => r.rows, align: 'right' },
  { header: 'bytes', value: (r) => r.bytes, align: 'right' },
  { header: 'sha256', value: (r) => r.sha256 },
]

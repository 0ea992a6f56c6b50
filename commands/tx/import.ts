/**
 * `finctl tx import FILE --account ID`: flags (or a saved mapping, import-mapping.ts) -> import
 * options -> runImport (src/jobs/import/run.ts: the import's stages on a thread of their own) ->
 * summary (import-summary.ts). The import is loaded only when the command runs.
 */
import type { Command } from 'commander'
import type { Context } from '../../src/cli/context.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { requireInputFile } from '../../src/cli/files.js'
import { collect, wholeNumber } from '../../src/cli/flags.js'
import { note } from '../../src/cli/output.js'
import { Interrupted, interruptible } from '../../src/cli/interrupt.js'
import { type PromptHost, promptSelect, valueOrPrompt } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { accountNames, rememberAccounts, resolveAccountId, shortId } from '../../src/cli/short-ids.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import type { ImportSummary } from '../../src/jobs/import/run.js'
import { checkOutputFile } from '../../src/jobs/output-file.js'
import { AppError } from '../../src/kernel/errors.js'
import { formatNames } from '../../src/kernel/statement-formats.js'
import {
  type MappingFlags,
  checkReadingFlags,
  constantsOf,
  effectiveMapping,
  recognisedMapping,
  refuseStatementFile,
} from './import-mapping.js'
import { refuseWithReview } from './import-review.js'
import { printSummary } from './import-summary.js'

/**
 * The host of `tx import`: besides a verb's, the target and the settings the import thread opens
 * its own client with, the request log and the write gate it hands back, and a prompt for the account.
 */
export type ImportHost = Omit<VerbHost, 'client'> &
  PromptHost &
  Pick<Context, 'client' | 'releaseClient' | 'target' | 'describeTarget' | 'clientSettings' | 'writeGated' | 'logRequest' | 'confirmWrite'>

export function registerImport(tx: Command, run: Runner, runF: RunVerb<ImportOptions, ImportHost> = runImport): void {
  tx.command('import')
    .argument('<file>', 'a bank CSV file')
    .description('import a bank CSV file: mapped, validated, exactly once (re-running it creates nothing new)')
    .option('--account <id>', 'bank account to import into: its name or id (bank_account_id)')
    .option(
      '--map <field=Column>',
      "which column holds a field: date, posted_date, amount, debit, credit, indicator, description (repeatable: columns join), merchant_name, currency_code, reference, category, account (the number of the file's own account), fee (charged beside the amount), balance (a running balance the amounts are checked against)",
      collect,
    )
    .option('--mapping <name>', 'use a mapping saved with --save-mapping (default: the one whose header the file has)')
    .option('--no-mapping', 'use no saved mapping, even one whose header the file has')
    .option('--no-layout', "read the file by detection alone, not as a bank's layout finctl recognises it as")
    .option('--save-mapping <name>', "save this import's mapping and reading options under a name")
    .option(
      '--set <field=value>',
      'a value for every row: currency_code, category, accounting_category, cash_flow_category, merchant_name, tags (a,b), exchange_rate',
      collect,
    )
    .option('--delimiter <c>', 'field separator: , ; tab | (detected when not given)')
    .option('--encoding <name>', 'file encoding, e.g. utf-8, utf-16le, windows-1252, iso-8859-15 (detected when not given)')
    .option(
      '--date-format <format>',
      "the dates' layout: day, month (MM, or its name MMM/MMMM in any mapped language) and year in any order, e.g. DD.MM.YYYY, MM/DD/YY, DD/YYYY/MM, D-MMM-YYYY, YYYYMMDD, or strftime %d-%b-%Y (when not given: decided once only one format fits the rows, never guessed)",
    )
    .option('--decimal-comma', 'amounts use a decimal comma (1.234,56)')
    .option('--skip-lines <n>', 'lines before the header row (detected when not given)')
    .option(
      '--no-header',
      'the file has no header row: its first line is a transaction (detected when its lines start with one); map columns by number, --map date=1',
    )
    .option('--indicator-debit <value>', 'the value of the debit/credit column that means money out (repeatable)', collect)
    .option('--invert-sign', 'flip every amount (a card export that shows charges as positive)')
    .option(
      '--no-balance-check',
      "import the rows even where the file's running balance does not follow them (it still chooses how the amounts read)",
    )
    .option(
      '--account-number <number>',
      "only the rows of this account, in a file that holds several (its number in the file's account column, or its end)",
    )
    .option(
      '--where <Column=value>',
      'import only rows whose column (its name in the header, or its number from 1) holds this value (repeatable); then --where alone chooses the rows, and no balance or turnover row is skipped by itself',
      collect,
    )
    .option('--dry-run', 'show the first rows as they would be created, the counts and every problem; write nothing')
    .option('--rejects <file>', 'write rejected rows (the original row plus line and reason) to this CSV file')
    .option('--overwrite', 'let --rejects replace an existing file')
    .option('--atomic', 'all or nothing: one bad row and nothing is imported')
    .option(
      '--review',
      'validate and keep the rows pending, not created: see them with imports show, land them with imports apply (within 7 days)',
    )
    .option('--force', 'accept dates outside the date window (1970-01-01 to a year ahead) and amounts of 0')
    .option('--concurrency <n>', 'requests in flight at once (default 2 embedded, 4 remote)')
    .option('--batch-size <n>', 'rows per batch request (1 to 5000, default 1000; 5000 with --review)')
    .option('--single', 'send one create request per row (with an Idempotency-Key) instead of batches')
    .option('--wait', 'wait out a rate limit however long (a spent daily allowance); else a wait over a minute stops the import (exit 7)')
    .option('--progress', 'show progress even when stderr is not a terminal')
    .option('--no-progress', 'no progress line')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  finctl tx import statement.csv --account $ACCOUNT --dry-run\n' +
        '  finctl tx import export.csv --account $ACCOUNT --map description=Payee --map description=Memo --save-mapping mybank\n' +
        '  finctl tx import next-month.csv --account $ACCOUNT --mapping mybank --rejects rejects.csv\n' +
        '\nRe-running a file, or importing a download that overlaps the last one, creates only the rows the account does\n' +
        'not have yet: a row is known by its date, amount, description, bank reference and its place among identical rows.\n' +
        'A row already on an uploaded statement (same amount, date within 3 days: the rule a statement upload reconciles\n' +
        "by) is matched with the statement's transaction and reconciled, not created (already on a statement).\n" +
        'Exit codes: 0 every row imported or already there; 8 some rows rejected (see --rejects); 6 the file cannot be\n' +
        'read, or --atomic refused; 7 the service asks to wait over a minute (see --wait); 2 a bad flag, or a bank\n' +
        `statement file (${formatNames('parsed')}: statements upload).\n`,
    )
    .action(run(runF))
}

export interface ImportOptions extends MappingFlags {
  account?: string
  /** false: --no-layout. */
  layout?: boolean
  accountNumber?: string
  /** A name, or false for --no-mapping. */
  mapping?: string | false
  saveMapping?: string
  dryRun?: boolean
  rejects?: string
  overwrite?: boolean
  atomic?: boolean
  review?: boolean
  force?: boolean
  concurrency?: string
  batchSize?: string
  single?: boolean
  wait?: boolean
  progress?: boolean
}

/** Skipped lines the plan names one by one. */
const SHOWN_SKIPS = 20

/** A stopped import's batch says so, with the counts the service saw; a service out of reach leaves it running. */
async function markInterrupted(ctx: ImportHost, id: string): Promise<void> {
  try {
    await (await ctx.client()).imports.finish(id, { state: 'interrupted' })
  } catch {}
}

export async function runImport(ctx: ImportHost, o: ImportOptions, args: string[]): Promise<number> {
  const [file] = args
  refuseWithReview(o)
  await requireInputFile(file)
  await refuseStatementFile(file)
  if (o.rejects !== undefined)
    checkOutputFile(o.rejects, { flag: '--rejects', overwrite: o.overwrite, inputs: [{ path: file, what: 'the file being imported' }] })
  const { MappingStore, validMappingName } = await import('../../src/cli/mappings.js')
  if (o.saveMapping !== undefined && !validMappingName(o.saveMapping)) {
    throw new AppError('usage', `--save-mapping: "${o.saveMapping}" is not a valid mapping name (letters, digits, . _ -, at most 64)`)
  }
  const mappings = new MappingStore(ctx.io.env)
  const saved = o.mapping ? mappings.get(o.mapping) : o.mapping === false ? undefined : await recognisedMapping(ctx, file, mappings)
  if (o.mapping && !saved) {
    const names = Object.keys(mappings.list())
    throw new AppError(
      'usage',
      `no saved mapping "${o.mapping}"${names.length ? ` (saved: ${names.join(', ')})` : ''}; save one with --save-mapping NAME`,
    )
  }
  const m = effectiveMapping(await import('../../src/import/mapping.js'), o, saved)
  await checkReadingFlags(m)
  const constants = await constantsOf(m.set)
  // Unset: the import's default for the target (src/jobs/import/send.ts, defaultConcurrency).
  const concurrency = wholeNumber(o.concurrency, '--concurrency', { max: 64 })
  const batchSize = wholeNumber(o.batchSize, '--batch-size', { max: 5000 })
  // A name or a short id: the account's full id (short-ids.ts).
  if (o.account !== undefined) o.account = await resolveAccountId(() => ctx.client({ thread: true }), o.account)
  const account = await valueOrPrompt(ctx, o.account, '--account', 'the bank account to import into', async () => {
    // Only to offer a choice: the import itself opens its own client on its own thread.
    const client = await ctx.client({ thread: true })
    const { data } = await client.accounts.list({ status: 'active' })
    if (data.length === 0) throw new AppError('usage', 'there are no bank accounts yet: create one with `finctl accounts create`')
    rememberAccounts(data)
    return promptSelect(
      ctx,
      'Import into which bank account?',
      data.map((a) => ({ name: `${a.name} (${a.currency_code})`, value: a.id })),
    )
  })
  // A person watching reads the account's name, not the UUID a script gives (scripts' stderr is no terminal).
  if (!accountNames.has(account) && ctx.io.isStderrTTY && !ctx.printer.quiet && !o.dryRun) {
    const client = await ctx.client({ thread: true })
    await client.accounts.get(account).then(
      (a) => rememberAccounts([a]),
      () => undefined,
    )
  }
  // The import opens its own client: a core opened above to find the account is not kept beside it.
  await ctx.releaseClient()

  // Reading, mapping and sending run on a thread of their own (src/jobs/import/run.ts); on the
  // embedded target the core runs on another, beside them.
  const { runImport: startImport } = await import('../../src/jobs/import/run.js')
  const { rowsNote } = await import('../../src/import/plan-words.js')
  const { ProgressLine } = await import('../../src/cli/progress.js')
  const showProgress = !o.dryRun && !ctx.printer.quiet && (o.progress === true || (o.progress !== false && ctx.io.isStderrTTY))
  const bar = new ProgressLine(ctx.io, showProgress)
  // The account by its name where a lookup above gave it (a name typed, or chosen), its id otherwise.
  const named = accountNames.get(account)
  const into = named === undefined ? `account ${account}` : `"${printableLine(named)}" (${shortId(account)})`
  if (!o.dryRun) note(ctx.io, ctx.printer, `importing ${file} into ${into} on ${ctx.describeTarget()}`)
  let summary: ImportSummary
  let created = 0
  let batchId: string | undefined
  const stopper = new AbortController()
  // Batches commit one by one: what went in before a failure or Ctrl-C stays, and the same command goes on.
  const stoppedAfter = () =>
    created > 0
      ? `the import stopped after at least ${created.toLocaleString('en-US')} rows were created; they stay: the same command again imports the rest, each row once`
      : 'the import stopped before any row was confirmed created: the same command again imports the file, each row once'
  try {
    summary = await interruptible(
      startImport(
        {
          path: file,
          accountId: account,
          mapping: {
            ...m,
            ...(o.accountNumber === undefined ? {} : { accountNumber: o.accountNumber }),
            ...(o.layout === false ? { layouts: false } : {}),
          },
          constants: o.force ? { ...constants, force: true } : constants,
          dryRun: o.dryRun,
          atomic: o.atomic,
          review: o.review,
          rejectsPath: o.rejects,
          overwrite: o.overwrite,
          wait: o.wait,
          concurrency,
          batchSize,
          mode: o.single ? 'single' : 'auto',
        },
        {
          connection: {
            target: ctx.target(),
            targetName: ctx.describeTarget(),
            ...ctx.clientSettings(),
            verbose: Boolean(ctx.globals.verbose),
            gate: ctx.writeGated(),
          },
          onPlan: (plan) => {
            for (const n of plan.notes) note(ctx.io, ctx.printer, n)
            note(ctx.io, ctx.printer, rowsNote(plan))
            for (const k of plan.skipped.slice(0, SHOWN_SKIPS)) note(ctx.io, ctx.printer, `line ${k.line} skipped: ${k.reason}`)
            if (plan.skipped.length > SHOWN_SKIPS)
              note(ctx.io, ctx.printer, `... and ${plan.skipped.length - SHOWN_SKIPS} more lines skipped`)
            if (o.saveMapping) {
              mappings.save(o.saveMapping, {
                ...m,
                encoding: m.encoding,
                delimiter: m.delimiter ?? plan.layout.delimiter,
                dateFormat: m.dateFormat ?? plan.dateFormat.name,
                decimalComma: m.decimalComma ?? plan.decimal === ',',
                // A file without a header has none to be recognised by.
                source: plan.headerless
                  ? undefined
                  : {
                      header: plan.header,
                      encoding: plan.layout.encoding.encoding,
                      delimiter: plan.layout.delimiter,
                      saved_at: ctx.io.now().toISOString(),
                    },
              })
              note(ctx.io, ctx.printer, `mapping saved as "${o.saveMapping}" (use it with --mapping ${o.saveMapping})`)
            }
          },
          onProgress: (p) => {
            created = p.created
            bar.update({ ...p, detail: p.duplicates ? `${p.duplicates.toLocaleString('en-US')} already imported` : undefined })
          },
          onBatch: (id) => (batchId = id),
          onRequest: (l) => ctx.logRequest(l),
          beforeWrite: () => ctx.confirmWrite(),
          signal: stopper.signal,
        },
      ),
      (signal) =>
        `${signal === 'SIGINT' ? 'interrupted (Ctrl-C)' : 'terminated (SIGTERM)'}: ${o.dryRun ? 'the dry run wrote nothing' : stoppedAfter()}`,
      () => {
        bar.end()
        stopper.abort()
      },
    )
  } catch (e) {
    bar.end()
    if (created > 0 && !o.atomic && !(e instanceof Interrupted)) note(ctx.io, ctx.printer, stoppedAfter())
    // A stopped import's batch keeps the counts the service saw; as far as it can be reached, it says so.
    if (e instanceof Interrupted && batchId) await markInterrupted(ctx, batchId)
    throw e
  } finally {
    bar.end()
  }
  const rejects = await import('../../src/jobs/import/reject-list.js')
  try {
    await printSummary(ctx, summary, rejects.readRejects)
  } finally {
    rejects.discardRejects(summary.rejects_spill)
  }
  if (summary.rolled_back) return EXIT.invalid
  return summary.rejected > 0 ? EXIT.partial : EXIT.ok
}

/**
 * finctl statements upload FILE --account ID [...]: sends the file (JSON, base64) and waits for the
 * service to process it (a spinner on a terminal), then prints the statement; a statement that ends
 * `failed` exits 6 with its error on stderr. `--preview` parses the file here with the service's own
 * parsers and shows what would be created, without uploading anything (preview.ts).
 */
import { count } from '../../src/kernel/words.js'
import { collect } from '../../src/cli/flags.js'
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { requireInputFile } from '../../src/cli/files.js'
import { showAmount } from '../../src/cli/money.js'
import { json, note, say } from '../../src/cli/output.js'
import type { Context } from '../../src/cli/context.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { statementReasonInUserWords } from '../../src/cli/user-words.js'
import type { Statement } from '../../src/domain/statements/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { formatNames } from '../../src/kernel/statement-formats.js'
import { FORMATS, printStatement } from './shared.js'
import { resolveAccountId } from '../../src/cli/short-ids.js'
import { interruptible, stoppedBy } from '../../src/cli/interrupt.js'
import { printableLine } from '../../src/cli/terminal-text.js'

const MAX_FILE = 20 * 1024 * 1024

/** The host of `upload`: where the target is tells what becomes of a statement whose upload was stopped. */
export type UploadHost = VerbHost & Pick<Context, 'target'>

export function registerUpload(st: Command, run: Runner, runF: RunVerb<UploadOptions, UploadHost> = runUpload): void {
  st.command('upload')
    .argument('<file>', `a bank statement: ${formatNames()} (at most 20 MiB)`)
    .description('upload a bank statement and wait until it is processed')
    .option('--account <id>', 'bank account the statement belongs to: its name or id (bank_account_id)')
    .option('--format <format>', `${FORMATS.join(', ')} (detected from the content when not given)`)
    .option(
      '--date-format <format>',
      "CSV and QIF: the dates' layout, in letters (DD.MM.YYYY, MM/DD/YY, DD/YYYY/MM, D-MMM-YYYY, YYYYMMDD) or strftime (%d-%b-%Y); decided from the dates when not given, never guessed",
    )
    .option('--map <field=Column>', 'CSV: which column holds a field (as in tx import; repeatable)', collect)
    .option('--delimiter <c>', 'CSV field separator (detected when not given)')
    .option('--encoding <name>', 'file encoding, e.g. windows-1252 (detected when not given)')
    .option('--decimal-comma', 'CSV and QIF: amounts use a decimal comma')
    .option('--skip-lines <n>', 'CSV: lines before the header row')
    .option('--no-header', 'CSV: the file has no header row, its first line is a transaction (map columns by number: --map date=1)')
    .option('--no-layout', "CSV: read the file by detection alone, not as a bank's layout finctl knows")
    .option(
      '--where <Column=value>',
      'CSV: only rows whose column (its name in the header, or its number from 1) holds this value (repeatable); then --where alone chooses the rows, and no balance or turnover row is skipped by itself',
      collect,
    )
    .option('--invert-sign', 'CSV: flip every amount')
    .option('--no-balance-check', "CSV: take the lines even where the file's running balance does not follow them")
    .option(
      '--exchange-rate <rate>',
      "rate to the company's base currency (default: each line at the company's rate of its date, finctl rates)",
    )
    .option(
      '--statement-account <number>',
      'which account of a file that holds several (its number in the file, or its end; a CSV file by its account column)',
    )
    .option('--preview', 'parse the file here and show what would be created; upload nothing')
    .option('--no-wait', 'do not wait for processing: print the pending statement')
    .option('--review', 'keep the upload pending (no statement yet) until finctl imports apply, or discard')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  finctl statements upload march.sta --account $ACCOUNT\n' +
        '  finctl statements upload export.csv --account $ACCOUNT --map description=Memo --preview\n' +
        '  finctl statements upload march.ofx --account $ACCOUNT --review     # then finctl imports apply BATCH\n' +
        '\nLines already imported (same bank id, or same date, amount and description) are counted as duplicates;\n' +
        'a line with the amount of a transaction entered by hand within 3 days reconciles it instead of creating one.\n' +
        "A flag that does not apply to the file's format is refused (exit 2), never ignored.\n" +
        'Exit codes: 0 completed, every transaction line imported or already there; 2 a bad flag, or one that does not\n' +
        'apply to the format; 6 the statement failed (its error on stderr: a line it cannot read fails it whole, and\n' +
        'every such line is named in its warnings), or the upload was refused, or the balance check found a mismatch\n' +
        '(the lines are imported; the difference on stderr); 130, 143 stopped by Ctrl-C or SIGTERM (the statement named:\n' +
        'it is finished before finctl exits, and the same file is never imported twice).\n',
    )
    .action(run(runF))
}

export interface UploadOptions {
  account?: string
  format?: string
  dateFormat?: string
  map?: string[]
  delimiter?: string
  encoding?: string
  decimalComma?: boolean
  skipLines?: string
  /** false: --no-header. */
  header?: boolean
  /** false: --no-layout. */
  layout?: boolean
  where?: string[]
  invertSign?: boolean
  /** false: --no-balance-check. */
  balanceCheck?: boolean
  exchangeRate?: string
  statementAccount?: string
  preview?: boolean
  wait?: boolean
  review?: boolean
}

function skipLines(text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  if (!/^\d{1,4}$/.test(text)) throw new AppError('usage', `--skip-lines must be a whole number (got "${text}")`)
  return Number(text)
}

/**
 * A flag is applied to every format it is accepted for, or refused for the others (exit 2) with the
 * reason, before anything is uploaded: the service refuses the same options (a 400) by the same rule.
 */
async function refuseFlagsOfOtherFormats(bytes: Uint8Array, fileName: string, o: UploadOptions): Promise<void> {
  const [{ detectFormat }, { inapplicableOptions }] = await Promise.all([
    import('../../src/import/statements/index.js'),
    import('../../src/domain/statements/options.js'),
  ])
  const format = (o.format as Statement['format'] | undefined) ?? detectFormat(bytes, fileName)
  if (!format) return // the service says it cannot tell the format
  const refused = inapplicableOptions(format, {
    dateFormat: o.dateFormat,
    delimiter: o.delimiter,
    accountNumber: o.statementAccount,
    map: o.map,
    where: o.where,
    decimalComma: o.decimalComma,
    skipLines: o.skipLines === undefined ? undefined : 0,
    noHeader: o.header === false,
    noLayout: o.layout === false,
    invertSign: o.invertSign,
    noBalanceCheck: o.balanceCheck === false,
  })
  const flag = (field: string) => (field === 'account_number' ? '--statement-account' : `--${field.replaceAll('_', '-')}`)
  if (refused.length) throw new AppError('usage', refused.map((p) => `${flag(p.field)} ${p.message}`).join('; '))
}

export async function runUpload(ctx: UploadHost, o: UploadOptions, [file]: string[]): Promise<number> {
  if (!o.account) throw new AppError('usage', 'the bank account is required: give --account ID')
  if (o.review && o.preview)
    throw new AppError('usage', '--review cannot go with --preview: a review keeps the upload pending on the service')
  if (o.format !== undefined && !FORMATS.includes(o.format)) throw new AppError('usage', `--format must be one of ${FORMATS.join(', ')}`)
  const { readFile } = await import('node:fs/promises')
  const { basename } = await import('node:path')
  const info = await requireInputFile(file)
  if (info.size === 0) throw new AppError('validation_error', `${file} is empty: there is nothing to upload`)
  if (info.size > MAX_FILE) throw new AppError('payload_too_large', `${file} is ${info.size} bytes: a statement file may be at most 20 MiB`)
  const bytes = new Uint8Array(await readFile(file))
  await refuseFlagsOfOtherFormats(bytes, basename(file), o)
  if (o.dateFormat !== undefined) {
    const { formatFromFlag } = await import('../../src/import/dates.js')
    try {
      formatFromFlag(o.dateFormat)
    } catch (e) {
      throw new AppError('usage', (e as Error).message)
    }
  }
  const request = {
    bank_account_id: await resolveAccountId(await ctx.client(), o.account),
    file_name: basename(file),
    format: o.format as Statement['format'] | undefined,
    date_format: o.dateFormat,
    encoding: o.encoding,
    delimiter: o.delimiter,
    account_number: o.statementAccount,
    map: o.map,
    where: o.where,
    decimal_comma: o.decimalComma,
    skip_lines: skipLines(o.skipLines),
    no_header: o.header === false ? true : undefined,
    no_layout: o.layout === false ? true : undefined,
    invert_sign: o.invertSign,
    no_balance_check: o.balanceCheck === false ? true : undefined,
    exchange_rate: o.exchangeRate,
  }
  const client = await ctx.client()
  if (o.preview) return (await import('./preview.js')).preview(ctx, bytes, request)
  if (o.review) return (await import('./review.js')).review(ctx, bytes, request)

  const { Spinner } = await import('../../src/cli/spinner.js')
  const spinner = new Spinner(ctx.io, ctx.io.isStderrTTY && !ctx.printer.quiet)
  let pending: Statement | undefined
  // The service takes a file once: whatever the moment of the stop, the same command again is safe.
  const stopped = (signal: 'SIGINT' | 'SIGTERM') => {
    const name = printableLine(file)
    if (pending === undefined)
      return `${stoppedBy(signal)}: the upload of ${name} stopped before the service confirmed it: the same command uploads it (never twice: a file uploaded before is refused, naming its statement)`
    if (pending.status !== 'pending' && pending.status !== 'processing')
      return `${stoppedBy(signal)}: ${name} was uploaded as statement ${pending.id}, ${pending.status}: \`finctl statements get ${pending.id}\` shows it`
    // An embedded core finishes a statement in flight before it closes (jobs.ts); a service goes on by itself.
    const goesOn = ctx.target().kind === 'embedded' ? 'finctl finishes processing it before it exits' : 'the service goes on processing it'
    return `${stoppedBy(signal)}: ${name} was uploaded as statement ${pending.id}, still ${pending.status}: ${goesOn}; \`finctl statements get ${pending.id}\` shows the result (the same command again never imports a file twice)`
  }
  let s: Statement
  try {
    s = await interruptible(
      (async () => {
        const uploaded = await client.statements.upload({ ...request, content_base64: Buffer.from(bytes).toString('base64') })
        pending = uploaded
        if (o.wait === false) return uploaded
        spinner.start(`processing ${request.file_name} (statement ${uploaded.id})`)
        const done = await client.statements.wait(uploaded.id, {
          onPoll: (x) => {
            pending = x
            spinner.update(`processing ${request.file_name}: ${x.status}`)
          },
        })
        // The import batch is named in the upload's answer only: --json keeps it.
        return uploaded.batch_id ? { ...done, batch_id: uploaded.batch_id } : done
      })(),
      stopped,
      () => spinner.stop(),
    )
  } finally {
    spinner.stop()
  }
  if (o.wait === false) {
    await printStatement(ctx, s)
    note(ctx.io, ctx.printer, `statement ${s.id} is ${s.status}: follow it with \`finctl statements get ${s.id}\``)
    return EXIT.ok
  }
  await printStatement(ctx, s)
  if (s.status === 'failed') {
    // The service names its upload fields; on the command line they are flags.
    const reason = statementReasonInUserWords(s.error ?? 'no reason given')
    const message = `statement ${s.id} failed: ${reason}`
    if (ctx.printer.format === 'json') ctx.io.stderr.write(`${json({ code: 'statement_failed', message, statement_id: s.id })}\n`)
    // The reason may quote the file: escaped for the terminal.
    else say(ctx.io, `error: ${message}`)
    return EXIT.invalid
  }
  if (s.balance_check === 'mismatch') {
    // The lines are in, but the file does not add up: a script must not take it for a clean statement.
    const said = s.warnings.find((w) => w.startsWith('balance check mismatch')) ?? 'balance check mismatch'
    // The service writes plain decimals; a person reads them as every other amount (money.ts).
    const shown = said.replace(/(-?\d+\.\d+|-?\d+) ([A-Z]{3})\b/g, (_, amount: string, code: string) =>
      showAmount(amount, code, { group: true, code: true }),
    )
    const message = `statement ${s.id}: ${shown}; its ${s.transaction_count} lines are imported: compare the file with the bank's (finctl statements get ${s.id})`
    if (ctx.printer.format === 'json') ctx.io.stderr.write(`${json({ code: 'balance_mismatch', message, statement_id: s.id })}\n`)
    else say(ctx.io, `error: ${message}`)
    return EXIT.invalid
  }
  const created = s.transaction_count - s.matched_count
  note(
    ctx.io,
    ctx.printer,
    `statement ${s.id}: ${count(created, 'transaction')} created, ${s.matched_count} reconciled, ${s.duplicate_count} already imported; balance check ${s.balance_check}`,
  )
  return EXIT.ok
}

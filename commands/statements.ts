/**
 * finctl statements upload | list | get | transactions
 *
 * `upload` sends the file (JSON, base64) and waits for the service to process it (a spinner on a
 * terminal), then prints the statement; a statement that ends `failed` exits 6 with its error on
 * stderr. `--preview` parses the file here with the service's own parsers and shows what would be
 * created, without uploading anything.
 */
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import type { Statement } from '../src/domain/statements/schemas.js'
import type { Transaction } from '../src/domain/schemas.js'
import type { Context } from '../src/cli/context.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { requireInputFile } from '../src/cli/files.js'
import { addPaging } from '../src/cli/flags.js'
import { idColumn, transactionColumns } from '../src/cli/columns.js'
import { accountsFor, resolveAccountId, resolveListedId } from '../src/cli/short-ids.js'
import type { Client } from '../src/client/client.js'
import { showAmount } from '../src/cli/money.js'
import { note, printList, printRecord, streamList, type Column } from '../src/cli/output.js'
import type { Runner } from '../src/cli/runner.js'
import { amountTotal } from '../src/cli/totals.js'
import { statementReasonInUserWords } from '../src/cli/user-words.js'

const collect = (v: string, prev: string[] = []) => [...prev, v]
const FORMATS = ['csv', 'ofx', 'qfx', 'qif', 'camt053', 'mt940']
const MAX_FILE = 20 * 1024 * 1024

export function registerStatements(program: Command, run: Runner): void {
  const st = program.command('statements').description('bank statements: upload a bank file, see what it imported and reconciled')
  st.command('upload')
    .argument('<file>', 'a bank statement: CSV, OFX/QFX, QIF, CAMT.053 (XML) or MT940 (at most 20 MiB)')
    .description('upload a bank statement and wait until it is processed')
    .option('--account <id>', 'bank account the statement belongs to: its name or id (bank_account_id)')
    .option('--format <format>', `${FORMATS.join(', ')} (detected from the content when not given)`)
    .option(
      '--date-format <format>',
      'CSV and QIF: e.g. DD.MM.YYYY, MM/DD/YY, YY/MM/DD (decided from the dates when not given, never guessed)',
    )
    .option('--map <field=Column>', 'CSV: which column holds a field (as in tx import; repeatable)', collect)
    .option('--delimiter <c>', 'CSV field separator (detected when not given)')
    .option('--encoding <name>', 'file encoding, e.g. windows-1252 (detected when not given)')
    .option('--decimal-comma', 'CSV and QIF: amounts use a decimal comma')
    .option('--skip-lines <n>', 'CSV: lines before the header row')
    .option(
      '--where <Column=value>',
      'CSV: only rows whose column (its name in the header, or its number from 1) holds this value (repeatable); then --where alone chooses the rows, and no balance or turnover row is skipped by itself',
      collect,
    )
    .option('--invert-sign', 'CSV: flip every amount')
    .option(
      '--exchange-rate <rate>',
      "rate to the company's base currency (default: each line at the company's rate of its date, finctl rates)",
    )
    .option('--statement-account <number>', 'which account of a file that holds several (its number in the file, or its end; not CSV)')
    .option('--preview', 'parse the file here and show what would be created; upload nothing')
    .option('--no-wait', 'do not wait for processing: print the pending statement')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  finctl statements upload march.sta --account $ACCOUNT\n' +
        '  finctl statements upload export.csv --account $ACCOUNT --map description=Memo --preview\n' +
        '\nLines already imported (same bank id, or same date, amount and description) are counted as duplicates;\n' +
        'a line with the amount of a transaction entered by hand within 3 days reconciles it instead of creating one.\n' +
        "A flag that does not apply to the file's format is refused (exit 2), never ignored.\n" +
        'Exit codes: 0 completed, every transaction line imported or already there; 2 a bad flag, or one that does not\n' +
        'apply to the format; 6 the statement failed (its error on stderr: a line it cannot read fails it whole, and\n' +
        'every such line is named in its warnings), or the upload was refused.\n',
    )
    .action(run(runUpload))
  addPaging(
    st
      .command('list')
      .description('list statements, newest first')
      .option('--account <id>', 'only this bank account: its name or id')
      .option('--status <status>', 'pending, processing, completed or failed'),
  )
    .addHelpText('after', '\nExample:\n  finctl statements list --account $ACCOUNT --status failed\n')
    .action(run(runList))
  st.command('get')
    .argument('<id>')
    .description('show a statement and its processing status')
    .addHelpText('after', '\nExample:\n  finctl statements get $STATEMENT --json\n')
    .action(run(runGet))
  const statementTransactions = st
    .command('transactions')
    .argument('<id>')
    .description("a statement's transactions: created from its lines or reconciled with them")
    .option('--sort <field>', 'transaction_date, -transaction_date (default), amount, -amount, created_at')
  addPaging(statementTransactions)
    .addHelpText('after', '\nExample:\n  finctl statements transactions $STATEMENT --all --output csv > lines.csv\n')
    .action(run(runTransactions))
}

const statementColumns: Column<Statement>[] = [
  idColumn((s: Statement) => s.id),
  { header: 'uploaded', value: (s) => s.created_at.slice(0, 19).replace('T', ' ') },
  { header: 'file', value: (s) => s.file_name },
  { header: 'format', value: (s) => s.format },
  { header: 'status', value: (s) => s.status },
  { header: 'period', value: (s) => (s.period_start ? `${s.period_start}..${s.period_end}` : '') },
  { header: 'lines', value: (s) => s.line_count, align: 'right' },
  { header: 'created', value: (s) => s.transaction_count - s.matched_count, align: 'right' },
  { header: 'reconciled', value: (s) => s.matched_count, align: 'right' },
  { header: 'duplicates', value: (s) => s.duplicate_count, align: 'right' },
  { header: 'balance', value: (s) => s.balance_check ?? '' },
]

const money = (v: number | null, currency: string) => (v === null ? '' : showAmount(v, currency, { code: true }))

/** One statement: every field as JSON; a readable FIELD / VALUE table otherwise. */
async function printStatement(ctx: Context, s: Statement): Promise<void> {
  const fields: Array<[string, (s: Statement) => unknown]> = [
    ['id', (x) => x.id],
    ['bank account', (x) => x.bank_account_id],
    ['file', (x) => `${x.file_name} (${x.format}, ${x.file_size} bytes)`],
    ['status', (x) => x.status],
    ['period', (x) => (x.period_start ? `${x.period_start} .. ${x.period_end}` : '')],
    ['opening balance', (x) => money(x.opening_balance, x.currency_code)],
    ['closing balance', (x) => money(x.closing_balance, x.currency_code)],
    ['balance check', (x) => x.balance_check ?? ''],
    ['lines', (x) => x.line_count],
    ['created', (x) => x.transaction_count - x.matched_count],
    ['reconciled', (x) => x.matched_count],
    ['duplicates', (x) => x.duplicate_count],
    ['uploaded', (x) => x.created_at],
    ['processed', (x) => x.processed_at ?? ''],
  ]
  if (s.error) fields.push(['error', (x) => x.error])
  await printRecord(ctx.io, ctx.printer, s, ctx.printer.format === 'json' || ctx.printer.format === 'ndjson' ? undefined : fields)
  if (ctx.printer.format === 'table') for (const w of s.warnings) note(ctx.io, ctx.printer, `warning: ${w}`)
}

interface UploadFlags {
  account?: string
  format?: string
  dateFormat?: string
  map?: string[]
  delimiter?: string
  encoding?: string
  decimalComma?: boolean
  skipLines?: string
  where?: string[]
  invertSign?: boolean
  exchangeRate?: string
  statementAccount?: string
  preview?: boolean
  wait?: boolean
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
async function refuseFlagsOfOtherFormats(bytes: Uint8Array, fileName: string, o: UploadFlags): Promise<void> {
  const [{ detectFormat }, { inapplicableOptions }] = await Promise.all([
    import('../src/import/statements/index.js'),
    import('../src/domain/statements/options.js'),
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
    invertSign: o.invertSign,
  })
  const flag = (field: string) => (field === 'account_number' ? '--statement-account' : `--${field.replaceAll('_', '-')}`)
  if (refused.length) throw new AppError('usage', refused.map((p) => `${flag(p.field)} ${p.message}`).join('; '))
}

async function runUpload(ctx: Context, o: UploadFlags, [file]: string[]): Promise<number> {
  if (!o.account) throw new AppError('usage', 'the bank account is required: give --account ID')
  if (o.format !== undefined && !FORMATS.includes(o.format)) throw new AppError('usage', `--format must be one of ${FORMATS.join(', ')}`)
  const { readFile } = await import('node:fs/promises')
  const { basename } = await import('node:path')
  const info = await requireInputFile(file)
  if (info.size === 0) throw new AppError('validation_error', `${file} is empty: there is nothing to upload`)
  if (info.size > MAX_FILE) throw new AppError('payload_too_large', `${file} is ${info.size} bytes: a statement file may be at most 20 MiB`)
  const bytes = new Uint8Array(await readFile(file))
  await refuseFlagsOfOtherFormats(bytes, basename(file), o)
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
    invert_sign: o.invertSign,
    exchange_rate: o.exchangeRate,
  }
  const client = await ctx.client()
  if (o.preview) return (await import('./statements-preview.js')).preview(ctx, bytes, request)

  const uploaded = await client.statements.upload({ ...request, content_base64: Buffer.from(bytes).toString('base64') })
  if (o.wait === false) {
    await printStatement(ctx, uploaded)
    note(ctx.io, ctx.printer, `statement ${uploaded.id} is ${uploaded.status}: follow it with \`finctl statements get ${uploaded.id}\``)
    return EXIT.ok
  }
  const { Spinner } = await import('../src/cli/spinner.js')
  const spinner = new Spinner(ctx.io, ctx.io.isStderrTTY && !ctx.printer.quiet)
  spinner.start(`processing ${request.file_name} (statement ${uploaded.id})`)
  let s: Statement
  try {
    s = await client.statements.wait(uploaded.id, { onPoll: (x) => spinner.update(`processing ${request.file_name}: ${x.status}`) })
  } finally {
    spinner.stop()
  }
  await printStatement(ctx, s)
  if (s.status === 'failed') {
    // The service names its upload fields; on the command line they are flags.
    const reason = statementReasonInUserWords(s.error ?? 'no reason given')
    const message = `statement ${s.id} failed: ${reason}`
    ctx.io.stderr.write(
      ctx.printer.format === 'json'
        ? `${JSON.stringify({ code: 'statement_failed', message, statement_id: s.id })}\n`
        : `error: ${message}\n`,
    )
    return EXIT.invalid
  }
  const created = s.transaction_count - s.matched_count
  note(
    ctx.io,
    ctx.printer,
    `statement ${s.id}: ${created} transactions created, ${s.matched_count} reconciled, ${s.duplicate_count} already imported; balance check ${s.balance_check}`,
  )
  return EXIT.ok
}

function limitOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1000)
    throw new AppError('usage', '--limit must be a whole number from 1 to 1000')
  return Number(text)
}

async function runList(ctx: Context, o: { account?: string; status?: string; limit?: string; all?: boolean }): Promise<number> {
  const client = await ctx.client()
  const query = { bank_account_id: o.account, status: o.status, limit: limitOf(o.limit) }
  if (query.bank_account_id) query.bank_account_id = await resolveAccountId(client, query.bank_account_id)
  if (o.all) {
    const pages = (async function* () {
      for await (const page of client.pages<Statement>('/api-v1/statements', { ...query, limit: query.limit ?? 1000 })) yield page.data
    })()
    await streamList(ctx.io, ctx.printer, pages, statementColumns)
    return EXIT.ok
  }
  const page = await client.statements.list(query)
  await printList(ctx.io, ctx.printer, page.data, statementColumns, {
    empty: 'no statements: upload one with `finctl statements upload FILE --account ID`',
  })
  if (page.pagination?.has_more && ctx.printer.format === 'table')
    note(ctx.io, ctx.printer, `showing ${page.data.length} of ${page.pagination.total}: add --all for every row`)
  return EXIT.ok
}

async function runGet(ctx: Context, _o: object, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  await printStatement(ctx, await client.statements.get(await statementId(client, id)))
  return EXIT.ok
}

/** The full id of the statement ID names: whole, or a unique prefix or suffix of 6+ hex digits (short-ids.ts). */
function statementId(client: Client, id: string): Promise<string> {
  return resolveListedId(
    'statement',
    id,
    async () => {
      const all: Statement[] = []
      for await (const page of client.pages<Statement>('/api-v1/statements', { limit: 1000 })) all.push(...page.data)
      return all
    },
    (s) => `${s.id}  ${s.file_name}`,
  )
}

async function runTransactions(ctx: Context, o: { sort?: string; limit?: string; all?: boolean }, [id]: string[]): Promise<number> {
  const client = await ctx.client()
  id = await statementId(client, id)
  await accountsFor(ctx, client, {})
  const query = { sort: o.sort, limit: limitOf(o.limit) }
  if (o.all) {
    const pages = (async function* () {
      for await (const page of client.pages<Transaction>(`/api-v1/statements/${encodeURIComponent(id)}/transactions`, {
        ...query,
        limit: query.limit ?? 1000,
      }))
        yield page.data
    })()
    await streamList(ctx.io, ctx.printer, pages, transactionColumns, amountTotal)
    return EXIT.ok
  }
  const page = await client.statements.transactions(id, query)
  await printList(ctx.io, ctx.printer, page.data, transactionColumns, {
    footer: amountTotal(page.data),
    empty: 'the statement has no transactions',
  })
  if (page.pagination?.has_more && ctx.printer.format === 'table')
    note(ctx.io, ctx.printer, `showing ${page.data.length} of ${page.pagination.total}: add --all for every row`)
  return EXIT.ok
}

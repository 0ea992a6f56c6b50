/**
 * `finctl tx import FILE --account ID`: the import verb of the `tx` group (its own module for its
 * many flags). Flags (or a saved mapping) -> import options -> runImport (src/jobs/import/run.ts: the
 * import's stages on a thread of their own) -> summary. The import is loaded only when the command runs.
 */
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import type { CreateTransactionRequest } from '../src/domain/schemas.js'
import type { Context } from '../src/cli/context.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { requireInputFile } from '../src/cli/files.js'
import { checkOutputFile } from '../src/jobs/output-file.js'
import { writeDrained } from '../src/cli/closed-output.js'
import { note, printList, printRecord, printRecordStreaming } from '../src/cli/output.js'
import { showAmount } from '../src/cli/money.js'
import { resolveAccountId } from '../src/cli/short-ids.js'
import { importSummaryJson } from '../src/cli/import-json.js'
import { wholeNumber } from '../src/cli/flags.js'
import type { Runner } from '../src/cli/runner.js'
import { promptSelect, valueOrPrompt } from '../src/cli/prompts.js'
import type { MappingStore, SavedMapping } from '../src/cli/mappings.js'
import type { ImportRequest, ImportSummary } from '../src/jobs/import/run.js'
import type { readRejects as ReadRejects } from '../src/jobs/import/reject-list.js'
import type { Role } from '../src/import/mapping.js'

type Mapping = typeof import('../src/import/mapping.js')

const collect = (v: string, prev: string[] = []) => [...prev, v]

export function registerTxImport(tx: Command, run: Runner): void {
  tx.command('import')
    .argument('<file>', 'a bank CSV file')
    .description('import a bank CSV file: mapped, validated, exactly once (re-running it creates nothing new)')
    .option('--account <id>', 'bank account to import into: its name or id (bank_account_id)')
    .option(
      '--map <field=Column>',
      'which column holds a field: date, posted_date, amount, debit, credit, indicator, description (repeatable: columns join), merchant_name, currency_code, reference, category',
      collect,
    )
    .option('--mapping <name>', 'use a mapping saved with --save-mapping (default: the one whose header the file has)')
    .option('--no-mapping', 'use no saved mapping, even one whose header the file has')
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
      'e.g. DD.MM.YYYY, MM/DD/YY, YYYY-MM-DD (when not given: decided once only one format fits the rows, never guessed)',
    )
    .option('--decimal-comma', 'amounts use a decimal comma (1.234,56)')
    .option('--skip-lines <n>', 'lines before the header row (detected when not given)')
    .option('--indicator-debit <value>', 'the value of the debit/credit column that means money out (repeatable)', collect)
    .option('--invert-sign', 'flip every amount (a card export that shows charges as positive)')
    .option(
      '--where <Column=value>',
      'import only rows whose column (its name in the header, or its number from 1) holds this value (repeatable); then --where alone chooses the rows, and no balance or turnover row is skipped by itself',
      collect,
    )
    .option('--dry-run', 'show the first rows as they would be created, the counts and every problem; write nothing')
    .option('--rejects <file>', 'write rejected rows (the original row plus line and reason) to this CSV file')
    .option('--overwrite', 'let --rejects replace an existing file')
    .option('--atomic', 'all or nothing: one bad row and nothing is imported')
    .option('--force', 'accept dates outside the date window (1970-01-01 to a year ahead) and amounts of 0')
    .option('--concurrency <n>', 'requests in flight at once (default 2 embedded, 4 remote)')
    .option('--batch-size <n>', 'rows per batch request (1 to 5000, default 1000)')
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
        'statement file (OFX, QIF, CAMT.053, MT940: statements upload).\n',
    )
    .action(run(runImportCommand))
}

interface ImportFlags {
  account?: string
  map?: string[]
  /** A name, or false for --no-mapping. */
  mapping?: string | false
  saveMapping?: string
  set?: string[]
  delimiter?: string
  encoding?: string
  dateFormat?: string
  decimalComma?: boolean
  skipLines?: string
  indicatorDebit?: string[]
  invertSign?: boolean
  where?: string[]
  dryRun?: boolean
  rejects?: string
  overwrite?: boolean
  atomic?: boolean
  force?: boolean
  concurrency?: string
  batchSize?: string
  single?: boolean
  wait?: boolean
  progress?: boolean
}

/** Skipped lines the plan names one by one. */
const SHOWN_SKIPS = 20

const SETTABLE = [
  'currency_code',
  'category',
  'accounting_category',
  'cash_flow_category',
  'merchant_name',
  'tags',
  'exchange_rate',
] as const

function pairs(mapping: Mapping, list: string[] | undefined, flag: string): Array<[string, string]> {
  return (list ?? []).map((item) => {
    const pair = mapping.splitPair(item)
    if (!pair) throw new AppError('usage', `${flag} takes name=value (got "${item}")`)
    return pair
  })
}

/** Flags win over the saved mapping, field by field. */
function effectiveMapping(mapping: Mapping, o: ImportFlags, saved: SavedMapping | undefined): SavedMapping {
  const map = pairs(mapping, o.map, '--map').map(([field, column]): [Role, string] => {
    const role = mapping.roleNamed(field)
    if (!role) throw new AppError('usage', `--map: unknown field "${field}"; use one of ${mapping.ROLES.join(', ')}`)
    return [role, column]
  })
  const set = Object.fromEntries(pairs(mapping, o.set, '--set'))
  for (const k of Object.keys(set)) {
    if (!(SETTABLE as readonly string[]).includes(k))
      throw new AppError('usage', `--set: "${k}" cannot be set on imported rows; use one of ${SETTABLE.join(', ')}`)
  }
  return {
    map: map.length ? map : saved?.map,
    delimiter: o.delimiter ?? saved?.delimiter,
    encoding: o.encoding ?? saved?.encoding,
    dateFormat: o.dateFormat ?? saved?.dateFormat,
    decimalComma: o.decimalComma ?? saved?.decimalComma,
    skipLines: wholeNumber(o.skipLines, '--skip-lines', { min: 0, max: 10_000 }) ?? saved?.skipLines,
    where: o.where?.length ? pairs(mapping, o.where, '--where') : saved?.where,
    invertSign: o.invertSign ?? saved?.invertSign,
    indicatorDebit: o.indicatorDebit?.length ? o.indicatorDebit : saved?.indicatorDebit,
    set: { ...saved?.set, ...set },
  }
}

/** An encoding or date format that names nothing is a usage error (2), found before the file is read. */
async function checkReadingFlags(m: SavedMapping): Promise<void> {
  const { normalizeEncoding } = await import('../src/import/decode.js')
  const { formatFromFlag } = await import('../src/import/dates.js')
  try {
    if (m.encoding !== undefined) normalizeEncoding(m.encoding)
    if (m.dateFormat !== undefined) formatFromFlag(m.dateFormat)
  } catch (e) {
    throw new AppError('usage', (e as Error).message)
  }
}

async function constantsOf(set: Record<string, string> | undefined): Promise<Partial<CreateTransactionRequest>> {
  if (!set || Object.keys(set).length === 0) return {}
  const c: Record<string, unknown> = { ...set }
  if (set.tags !== undefined)
    c.tags = set.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)
  if (set.currency_code !== undefined) c.currency_code = set.currency_code.toUpperCase()
  if (set.exchange_rate !== undefined && !(await import('../src/kernel/money.js')).parseRate(set.exchange_rate)) {
    throw new AppError('usage', `--set exchange_rate: "${set.exchange_rate}" is not a positive decimal number`)
  }
  const { CreateTransactionRequest } = await import('../src/domain/schemas.js')
  const parsed = CreateTransactionRequest.partial().safeParse(c)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new AppError('usage', `--set ${issue.path.join('.')}: ${issue.message}`)
  }
  return parsed.data
}

const STATEMENT_FORMAT_NAMES: Record<string, string> = {
  ofx: 'an OFX',
  qfx: 'a QFX',
  qif: 'a QIF',
  camt053: 'a CAMT.053',
  mt940: 'an MT940',
}

/** tx import reads CSV; a bank statement file (by its content) is refused with the command that reads it (exit 2). */
async function refuseStatementFile(file: string): Promise<void> {
  const { open } = await import('node:fs/promises')
  const handle = await open(file, 'r')
  let head: Uint8Array
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16_384), 0, 16_384, 0)
    head = buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
  const format = (await import('../src/import/statements/index.js')).detectFormat(head, file)
  if (format && format !== 'csv') {
    throw new AppError(
      'usage',
      `${file} is ${STATEMENT_FORMAT_NAMES[format]} statement, not a CSV file: tx import reads CSV files; import it with \`finctl statements upload ${file} --account ID\``,
    )
  }
}

/**
 * The saved mapping whose header the file has (said on stderr), none when none has; two or more
 * are a usage error naming them (docs/csv-mapping.md, "Banks recognised").
 */
async function recognisedMapping(ctx: Context, file: string, mappings: MappingStore): Promise<SavedMapping | undefined> {
  const { mappingsMatching } = await import('../src/cli/mappings.js')
  const names = await mappingsMatching(file, mappings.list())
  if (names.length > 1) {
    throw new AppError(
      'usage',
      `the header of ${file} matches the saved mappings ${names.map((n) => `"${n}"`).join(' and ')}: choose one with --mapping NAME, or none with --no-mapping`,
    )
  }
  if (names.length === 0) return undefined
  note(ctx.io, ctx.printer, `using mapping "${names[0]}" (header matched)`)
  return mappings.get(names[0])
}

async function runImportCommand(ctx: Context, o: ImportFlags, args: string[]): Promise<number> {
  const [file] = args
  await requireInputFile(file)
  await refuseStatementFile(file)
  if (o.rejects !== undefined)
    checkOutputFile(o.rejects, { flag: '--rejects', overwrite: o.overwrite, input: { path: file, what: 'the file being imported' } })
  const { MappingStore, validMappingName } = await import('../src/cli/mappings.js')
  if (o.saveMapping !== undefined && !validMappingName(o.saveMapping)) {
    throw new AppError('usage', `--save-mapping: "${o.saveMapping}" is not a valid mapping name (letters, digits, . _ -, at most 64)`)
  }
  const mappings = new MappingStore(ctx.env)
  const saved = o.mapping ? mappings.get(o.mapping) : o.mapping === false ? undefined : await recognisedMapping(ctx, file, mappings)
  if (o.mapping && !saved) {
    const names = Object.keys(mappings.list())
    throw new AppError(
      'usage',
      `no saved mapping "${o.mapping}"${names.length ? ` (saved: ${names.join(', ')})` : ''}; save one with --save-mapping NAME`,
    )
  }
  const m = effectiveMapping(await import('../src/import/mapping.js'), o, saved)
  await checkReadingFlags(m)
  const constants = await constantsOf(m.set)
  // Unset: the import's default for the target (src/jobs/import/send.ts, defaultConcurrency).
  const concurrency = wholeNumber(o.concurrency, '--concurrency', { max: 64 })
  const batchSize = wholeNumber(o.batchSize, '--batch-size', { max: 5000 })
  // A name or a short id: the account's full id (short-ids.ts).
  if (o.account !== undefined) o.account = await resolveAccountId(await ctx.client({ thread: true }), o.account)
  const account = await valueOrPrompt(ctx, o.account, '--account', 'the bank account to import into', async () => {
    // Only to offer a choice: the import itself opens its own client on its own thread.
    const client = await ctx.client({ thread: true })
    const { data } = await client.accounts.list({ status: 'active' })
    if (data.length === 0) throw new AppError('usage', 'there are no bank accounts yet: create one with `finctl accounts create`')
    return promptSelect(
      ctx,
      'Import into which bank account?',
      data.map((a) => ({ name: `${a.name} (${a.currency_code})`, value: a.id })),
    )
  })

  // Reading, mapping and sending run on a thread of their own (src/jobs/import/run.ts); on the
  // embedded target the core runs on another, beside them.
  const { runImport } = await import('../src/jobs/import/run.js')
  const { rowsNote } = await import('../src/import/plan-words.js')
  const { ProgressLine } = await import('../src/cli/progress.js')
  const showProgress = !o.dryRun && !ctx.printer.quiet && (o.progress === true || (o.progress !== false && ctx.io.isStderrTTY))
  const bar = new ProgressLine(ctx.io, showProgress)
  if (!o.dryRun) note(ctx.io, ctx.printer, `importing ${file} into account ${account} on ${ctx.describeTarget()}`)
  let summary: ImportSummary
  try {
    summary = await runImport(
      {
        path: file,
        accountId: account,
        mapping: m,
        constants: o.force ? { ...constants, force: true } : constants,
        dryRun: o.dryRun,
        atomic: o.atomic,
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
              source: {
                header: plan.header,
                encoding: plan.layout.encoding.encoding,
                delimiter: plan.layout.delimiter,
                saved_at: ctx.io.now().toISOString(),
              },
            })
            note(ctx.io, ctx.printer, `mapping saved as "${o.saveMapping}" (use it with --mapping ${o.saveMapping})`)
          }
        },
        onProgress: (p) =>
          bar.update({ ...p, detail: p.duplicates ? `${p.duplicates.toLocaleString('en-US')} already imported` : undefined }),
        onRequest: (l) => ctx.logRequest(l),
        beforeWrite: () => ctx.confirmWrite(),
      },
    )
  } finally {
    bar.end()
  }
  const rejects = await import('../src/jobs/import/reject-list.js')
  try {
    await printSummary(ctx, summary, rejects.readRejects)
  } finally {
    rejects.discardRejects(summary.rejects_spill)
  }
  if (summary.rolled_back) return EXIT.invalid
  return summary.rejected > 0 ? EXIT.partial : EXIT.ok
}

/** A total for people (grouped by the locale) on a terminal; plain in csv and tab-separated rows. */
let grouped = false
const money = (total: string, currency: string) => showAmount(total, currency, { group: grouped, code: true })

async function printSummary(ctx: Context, { rejects_spill: spill, ...s }: ImportSummary, readRejects: typeof ReadRejects): Promise<void> {
  const { io, printer } = ctx
  grouped = printer.format === 'table' && io.isStdoutTTY
  if (printer.format === 'json' || printer.format === 'ndjson') {
    // Every rejected row, however many: those past the first thousand are read back from the spill file.
    const json = importSummaryJson(s)
    await (spill ? printRecordStreaming(io, printer, json, 'rejects', readRejects(s.rejects, spill)) : printRecord(io, printer, json))
    return
  }
  if (s.preview?.length) {
    note(io, printer, `dry run: the first ${s.preview.length} rows as they would be created (nothing is written)`)
    await printList<ImportRequest>(io, printer, s.preview, [
      { header: 'date', value: (r) => r.transaction_date },
      { header: 'description', value: (r) => r.description },
      {
        header: 'amount',
        value: (r) => showAmount(r.amount, r.currency_code ?? s.currency),
        tty: (r) => showAmount(r.amount, r.currency_code ?? s.currency, { group: true }),
        align: 'right',
      },
      { header: 'currency', value: (r) => r.currency_code ?? s.currency },
      { header: 'merchant', value: (r) => r.merchant_name ?? '' },
    ])
  }
  // Debit and credit columns: values with the other sign from their column's, each read as a reversal.
  const reversals: Array<[string, unknown]> = s.reversals === undefined ? [] : [['reversals', s.reversals]]
  const rows: Array<[string, unknown]> = s.dry_run
    ? [
        ['rows read', s.read],
        ['would be sent', s.read - s.rejected],
        ['rejected', s.rejected],
        ['skipped', s.skipped_lines],
        ...reversals,
        ['amount total', money(s.amount_total, s.currency)],
        ...(s.other_currencies ?? []).map((o): [string, unknown] => [
          `amount total ${o.currency}`,
          `${money(o.amount_total, o.currency)} (${o.rows} ${o.rows === 1 ? 'row' : 'rows'})`,
        ]),
        ['elapsed', `${(s.elapsed_ms / 1000).toFixed(1)} s`],
      ]
    : [
        ['rows read', s.read],
        ['created', s.created],
        ['already imported', s.already_imported],
        ['already on a statement', s.on_statement],
        ['rejected', s.rejected],
        ['skipped', s.skipped_lines],
        ...reversals,
        ['amount total', money(s.amount_total, s.currency)],
        ['created total', money(s.created_total, s.currency)],
        ...(s.other_currencies ?? []).flatMap(
          (o): Array<[string, unknown]> => [
            [`amount total ${o.currency}`, `${money(o.amount_total, o.currency)} (${o.rows} ${o.rows === 1 ? 'row' : 'rows'})`],
            [`created total ${o.currency}`, money(o.created_total, o.currency)],
          ],
        ),
        ['elapsed', `${(s.elapsed_ms / 1000).toFixed(1)} s`],
      ]
  await printRecord(
    io,
    printer,
    Object.fromEntries(rows),
    rows.map(([k]) => [k, (r: Record<string, unknown>) => r[k]]),
  )
  for (const k of s.skipped_after_plan ?? []) note(io, printer, `line ${k.line} skipped: ${k.reason}`)
  // A dry run lists every problem; an import the first 50 (all of them are in the --rejects file).
  let shown = 0
  for await (const r of readRejects(s.rejects, s.dry_run ? spill : undefined)) {
    if (!s.dry_run && shown === 50) break
    await writeDrained(io.stderr, `line ${r.line}: ${r.reason}\n`)
    shown++
  }
  if (s.rejected > shown)
    io.stderr.write(`... and ${s.rejected - shown} more rejected rows${s.rejects_file ? '' : ' (write them all with --rejects FILE)'}\n`)
  if (s.rejects_file) note(io, printer, `rejected rows written to ${s.rejects_file}`)
  if (s.rolled_back) io.stderr.write('error: --atomic: some rows are invalid, so nothing was imported\n')
  else if (!s.dry_run && s.created === 0 && s.already_imported > 0 && s.on_statement === 0 && s.rejected === 0)
    note(io, printer, 'nothing new: every row of this file was imported before')
  if (!s.dry_run && s.on_statement > 0) {
    note(
      io,
      printer,
      `${s.on_statement} row${s.on_statement === 1 ? ' was' : 's were'} already on a statement of the account: matched with its transactions (same amount, date within 3 days) and reconciled, not created again`,
    )
  }
}

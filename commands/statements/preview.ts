/**
 * `finctl statements upload FILE --preview`: the file parsed here with the service's own parsers,
 * the account's statement picked as the service picks it, and what would be created shown
 * (lines, count, sum, balances, balance check). Nothing is uploaded.
 */
import { LIABILITY_ACCOUNT_TYPES } from '../../src/kernel/vocabulary.js'
import { AppError } from '../../src/kernel/errors.js'
import type { Statement } from '../../src/domain/statements/schemas.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printList, printRecord } from '../../src/cli/output.js'
import type { VerbHost } from '../../src/cli/runner.js'
import { statementReasonInUserWords } from '../../src/cli/user-words.js'
import { FORMATS, warningLine } from './shared.js'
import { count } from '../../src/kernel/words.js'

export interface PreviewRequest {
  bank_account_id: string
  file_name: string
  format?: Statement['format']
  account_number?: string
  map?: string[]
  where?: string[]
  date_format?: string
  encoding?: string
  delimiter?: string
  decimal_comma?: boolean
  skip_lines?: number
  no_header?: boolean
  no_layout?: boolean
  invert_sign?: boolean
  no_balance_check?: boolean
  exchange_rate?: string
}

interface PreviewRow {
  date: string
  description: string
  /** A JSON number (jsonAmount); the table shows amountMinor. */
  amount: number
  amountMinor: number
  merchant_name: string | null
  category: string | null
  bank_id: string | null
}

/** Parse here with the service's parsers and show the statement that would be imported. */
export async function preview(ctx: VerbHost, bytes: Uint8Array, r: PreviewRequest): Promise<number> {
  const client = await ctx.client()
  const account = await client.accounts.get(r.bank_account_id)
  const [
    { uploadOptions, statementRate },
    { parseUpload, StatementFileError },
    { selectStatement },
    { detectFormat },
    { currencyExponent },
    { formatMoney, jsonAmount },
  ] = await Promise.all([
    import('../../src/domain/statements/statements.js'),
    import('../../src/domain/statements/parse.js'),
    import('../../src/domain/statements/select.js'),
    import('../../src/import/statements/index.js'),
    import('../../src/kernel/currencies.js'),
    import('../../src/cli/money.js'),
  ])
  const options = uploadOptions({
    bankAccountId: r.bank_account_id,
    fileName: r.file_name,
    bytes,
    format: r.format,
    accountNumber: r.account_number,
    map: r.map,
    where: r.where,
    dateFormat: r.date_format,
    encoding: r.encoding,
    delimiter: r.delimiter,
    decimalComma: r.decimal_comma,
    skipLines: r.skip_lines,
    noHeader: r.no_header,
    noLayout: r.no_layout,
    invertSign: r.invert_sign,
    noBalanceCheck: r.no_balance_check,
  })
  // The rate as the upload checks it: a bad one is refused here too (a missing one is no problem: the lines convert at the company's rates).
  const rateProblem = await rateCheck(() => client.company(), account.currency_code, r.exchange_rate, statementRate)
  const format = r.format ?? detectFormat(bytes, r.file_name)
  if (!format) throw new AppError('usage', `cannot tell the format of ${r.file_name}: give --format (${FORMATS.join(', ')})`)
  const exp = currencyExponent(account.currency_code)
  let sel: ReturnType<typeof selectStatement>
  try {
    const liability = LIABILITY_ACCOUNT_TYPES.has(account.account_type)
    const parsed = await parseUpload(
      bytes,
      { fileName: r.file_name, format, currency: account.currency_code, exponent: exp, ...(liability ? { liability } : {}) },
      options,
    )
    sel = selectStatement(
      parsed,
      { name: account.name, currency: account.currency_code, last4: account.account_number_last4 },
      options.accountNumber,
    )
  } catch (e) {
    if (e instanceof StatementFileError) {
      // Each line the error is about (the error itself names the first few), as the upload lists them.
      for (const line of e.lines) note(ctx.io, ctx.printer, `warning: ${line}`)
      throw new AppError('validation_error', `${r.file_name}: ${statementReasonInUserWords(e.message)}`)
    }
    throw e
  }
  const cur = account.currency_code
  const amount = (minor: number | bigint | null) => (minor === null ? null : formatMoney(minor, cur, { code: true }))
  const json = (minor: number | bigint | null) => (minor === null ? null : jsonAmount(minor, cur))
  const lines: PreviewRow[] = sel.lines.map((l) => ({
    date: l.date,
    description: l.description,
    amount: jsonAmount(l.amountMinor, cur),
    amountMinor: l.amountMinor,
    merchant_name: l.merchant ?? null,
    category: l.category ?? null,
    bank_id: l.externalId ?? null,
  }))
  const summary = {
    file_name: r.file_name,
    format,
    bank_account_id: account.id,
    account_in_file: sel.accountHint ?? null,
    currency_code: cur,
    period_start: sel.periodStart,
    period_end: sel.periodEnd,
    opening_balance: json(sel.openingBalance),
    closing_balance: json(sel.closingBalance),
    balance_check: sel.balanceCheck,
    line_count: sel.lines.length,
    sum: json(sel.sum),
    warnings: rateProblem ? [...sel.warnings, `the upload will refuse this file without a rate: ${rateProblem}`] : sel.warnings,
    lines: lines.map(({ amountMinor: _, ...l }) => l),
  }
  if (ctx.printer.format === 'json' || ctx.printer.format === 'ndjson') {
    await printRecord(ctx.io, ctx.printer, summary)
    return EXIT.ok
  }
  await printList<PreviewRow>(
    ctx.io,
    ctx.printer,
    lines,
    [
      { header: 'date', value: (l) => l.date },
      { header: 'description', value: (l) => l.description },
      { header: 'amount', value: (l) => formatMoney(l.amountMinor, cur, { code: true }), align: 'right' },
      { header: 'merchant', value: (l) => l.merchant_name ?? '' },
      { header: 'bank id', value: (l) => l.bank_id ?? '' },
    ],
    { footer: ['', `total of ${lines.length}`, amount(sel.sum)!, '', ''], empty: 'the statement holds no lines' },
  )
  const p = ctx.printer
  note(ctx.io, p, `preview of ${r.file_name} (${format}${sel.accountHint ? `, account ${sel.accountHint}` : ''}): nothing was uploaded`)
  note(ctx.io, p, `${count(lines.length, 'line')}, sum ${amount(sel.sum)}, period ${sel.periodStart ?? '?'} .. ${sel.periodEnd ?? '?'}`)
  note(
    ctx.io,
    p,
    `opening balance ${amount(sel.openingBalance) ?? 'not given'}, closing balance ${amount(sel.closingBalance) ?? 'not given'}: balance check ${sel.balanceCheck}`,
  )
  for (const w of summary.warnings) note(ctx.io, p, warningLine(w))
  return EXIT.ok
}

/**
 * The upload's rate rule (statementRate) in the command's words: a rate given and wrong is an error
 * naming --exchange-rate; a problem of a missing rate (none today: the rates table converts each line)
 * is returned, for a warning.
 */
async function rateCheck(
  company: () => Promise<{ base_currency: string }>,
  accountCurrency: string,
  rate: string | undefined,
  statementRate: (accountCurrency: string, base: string, rate: string | undefined) => string | undefined,
): Promise<string | undefined> {
  const base = (await company()).base_currency
  try {
    statementRate(accountCurrency, base, rate)
    return undefined
  } catch (e) {
    const detail = e instanceof AppError ? e.details?.find((d) => d.path === 'exchange_rate') : undefined
    if (!detail) throw e
    const words = `--exchange-rate ${detail.message}`
    if (rate === undefined) return words
    throw new AppError('validation_error', words)
  }
}

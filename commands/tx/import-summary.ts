/** `tx import`'s summary: a record of the counts and totals (or the JSON of it), the dry run's first rows, the rejected rows. */
import { writeDrained } from '../../src/cli/closed-output.js'
import { importSummaryJson } from '../../src/cli/import-json.js'
import { showAmount } from '../../src/cli/money.js'
import { note, printList, printRecord, printRecordStreaming } from '../../src/cli/output.js'
import type { VerbHost } from '../../src/cli/runner.js'
import type { ImportRequest, ImportSummary } from '../../src/jobs/import/run.js'
import type { readRejects as ReadRejects } from '../../src/jobs/import/reject-list.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { shortId } from '../../src/cli/short-ids.js'
import { reviewNotes } from './import-review.js'

/** The rows of amount 0 taken as bookings, named by their lines. */
function zeroNote(z: { rows: number; lines: number[] }, dryRun: boolean): string {
  const lines = `${z.lines.length === 1 ? 'line' : 'lines'} ${z.lines.join(', ')}${z.rows > z.lines.length ? ', ...' : ''}`
  const rows = z.rows === 1 ? '1 row has' : `${z.rows} rows have`
  return `${rows} an amount of 0 (${lines}): bookings without money moving (a card hold, a waived fee), ${dryRun ? 'to be imported' : 'imported'} as transactions of 0.00`
}

export async function printSummary(
  ctx: Pick<VerbHost, 'io' | 'printer'>,
  { rejects_spill: spill, ...s }: ImportSummary,
  readRejects: typeof ReadRejects,
): Promise<void> {
  const { io, printer } = ctx
  // A total for people (grouped by the locale) on a terminal; plain in csv and tab-separated rows.
  const grouped = printer.format === 'table' && io.isStdoutTTY
  const money = (total: string, currency: string) => showAmount(total, currency, { group: grouped, code: true })
  if (printer.format === 'json' || printer.format === 'ndjson') {
    // Every rejected row, however many: those past the first thousand are read back from the spill file.
    const json = importSummaryJson(s)
    await (spill ? printRecordStreaming(io, printer, json, 'rejects', readRejects(s.rejects, spill)) : printRecord(io, printer, json))
    return
  }
  if (s.preview?.length) {
    note(
      io,
      printer,
      `dry run: ${s.preview.length === 1 ? 'the first row as it' : `the first ${s.preview.length} rows as they`} would be created (nothing is written)`,
    )
    await printList<ImportRequest>(io, printer, s.preview, [
      { header: 'date', value: (r) => r.transaction_date },
      { header: 'description', value: (r) => r.description },
      {
        header: 'amount',
        value: (r) => showAmount(r.amount, r.currency_code ?? s.currency),
        // On a terminal the amount names its currency (as every table's), and no column of its own can be left out from it.
        tty: (r) => showAmount(r.amount, r.currency_code ?? s.currency, { group: true, code: true }),
        align: 'right',
      },
      { header: 'currency', value: (r) => r.currency_code ?? s.currency, plainOnly: true },
      { header: 'merchant', value: (r) => r.merchant_name ?? '' },
    ])
  }
  // Debit and credit columns: values with the other sign from their column's, each read as a reversal.
  const reversals: Array<[string, unknown]> = [
    ...(s.reversals === undefined ? [] : ([['reversals', s.reversals]] as Array<[string, unknown]>)),
    // A running balance in the file: every row with one was checked against it before anything was written.
    ...(s.balance_checked
      ? ([['balance checked', `on ${s.balance_checked.rows} of ${s.balance_checked.of} rows (${s.balance_checked.column})`]] as Array<
          [string, unknown]
        >)
      : []),
  ]
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
    : s.review
      ? [
          ['rows read', s.read],
          ['pending', s.review.pending],
          ['already imported', s.already_imported],
          ['rejected', s.rejected],
          ['skipped', s.skipped_lines],
          ...reversals,
          ['amount total', money(s.amount_total, s.currency)],
          ['pending total', money(s.review.pending_total, s.currency)],
          ...(s.other_currencies ?? []).flatMap(
            (o): Array<[string, unknown]> => [
              [`amount total ${o.currency}`, `${money(o.amount_total, o.currency)} (${o.rows} ${o.rows === 1 ? 'row' : 'rows'})`],
              [`pending total ${o.currency}`, money(o.pending_total ?? o.created_total, o.currency)],
            ],
          ),
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
  if (s.zero_amounts) note(io, printer, zeroNote(s.zero_amounts, s.dry_run))
  // A dry run lists every problem; an import the first 50 (all of them are in the --rejects file).
  let shown = 0
  for await (const r of readRejects(s.rejects, s.dry_run ? spill : undefined)) {
    if (!s.dry_run && shown === 50) break
    // A reason quotes the line's text (`date "..."`): one line, its controls escaped.
    await writeDrained(io.stderr, `line ${r.line}: ${printableLine(r.reason)}\n`)
    shown++
  }
  if (s.rejected > shown)
    io.stderr.write(`... and ${s.rejected - shown} more rejected rows${s.rejects_file ? '' : ' (write them all with --rejects FILE)'}\n`)
  if (s.rejects_file) note(io, printer, `rejected rows written to ${s.rejects_file}`)
  if (s.rolled_back) io.stderr.write('error: --atomic: some rows are invalid, so nothing was imported\n')
  else if (!s.dry_run && !s.review && s.created === 0 && s.already_imported > 0 && s.on_statement === 0 && s.rejected === 0)
    note(io, printer, 'nothing new: every row of this file was imported before')
  if (s.review && s.batch_id)
    for (const line of reviewNotes(shortId(s.batch_id), s.review, money(s.review.pending_total, s.currency))) note(io, printer, line)
  else if (!s.dry_run && s.batch_id)
    note(io, printer, `import batch ${shortId(s.batch_id)}: see it with finctl imports show ${shortId(s.batch_id)}`)
  if (!s.dry_run && s.on_statement > 0) {
    note(
      io,
      printer,
      `${s.on_statement} row${s.on_statement === 1 ? ' was' : 's were'} already on a statement of the account: matched with its transactions (same amount, date within 3 days) and reconciled, not created again`,
    )
  }
}

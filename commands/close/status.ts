/** finctl close status [--month M]: a month's readiness to close; exit 12 when it is not ready. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printList, printRecord, type Column } from '../../src/cli/output.js'
import { showAmount } from '../../src/cli/money.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { CloseStatus, CloseStatusAccount } from '../../src/domain/closing/schemas.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { month } from './shared.js'

export interface StatusOptions {
  month?: string
}

export function registerStatus(close: Command, run: Runner, runF: RunVerb<StatusOptions> = runStatus): void {
  close
    .command('status')
    .description(
      "a month's readiness to close: per account the statement's closing balance beside the book balance, and what is still open",
    )
    .option('--month <month>', 'the month, YYYY-MM (default: the last full month)')
    .addHelpText(
      'after',
      '\nExit codes: 0 the month is ready to close; 12 it is not (for CI gates).\n\nExample:\n  finctl close status --month 2026-10 --json\n',
    )
    .action(run(runF))
}

export async function runStatus(host: VerbHost, o: StatusOptions): Promise<number> {
  const m = o.month === undefined ? undefined : month('--month', o.month)
  const s = await (await host.client()).close.status(m)
  if (host.printer.format === 'json' || host.printer.format === 'ndjson') await printRecord(host.io, host.printer, s)
  else await printList(host.io, host.printer, rowsOf(s), columns)
  const closed = s.closed ? ` (closed: the lock date is ${s.lock_date})` : ''
  if (s.ready) note(host.io, host.printer, `${s.month} is ready to close${closed}`)
  else {
    note(host.io, host.printer, `${s.month} is not ready to close${closed}:`)
    for (const a of s.accounts.filter((x) => !x.ready)) note(host.io, host.printer, `  ${a.name}: ${a.blockers.join(', ')}`)
  }
  if (s.company.documents_missing > 0) {
    const limits = Object.entries(s.document_policy.document_thresholds)
      .map(([c, a]) => `${a} ${c}`)
      .join(', ')
    note(
      host.io,
      host.printer,
      `${s.company.documents_missing} transaction(s) at or above the document threshold (${limits}) without a document${s.document_policy.require_documents ? '' : ' (listed only: the policy does not require them)'}:`,
    )
    // The description is text from outside: printed escaped.
    for (const d of s.documents_missing)
      note(host.io, host.printer, `  ${d.id}  ${d.transaction_date}  ${d.amount} ${d.currency_code}  ${printableLine(d.description)}`)
    if (s.company.documents_missing > s.documents_missing.length)
      note(host.io, host.printer, `  and ${s.company.documents_missing - s.documents_missing.length} more (--json lists the first 100)`)
  }
  return s.ready ? EXIT.ok : EXIT.notReady
}

type Row = Pick<
  CloseStatusAccount,
  'name' | 'currency_code' | 'not_reconciled' | 'uncategorized' | 'pending' | 'unconverted' | 'statements_processing' | 'documents_missing'
> & {
  statement: number | null
  as_of: string
  book: number | null
  difference: number | null
  ready: string
}

/** An amount of the row's account: grouped with its code on a terminal, plain in tab-separated rows and CSV. */
function money(header: string, v: (r: Row) => number | null, drop?: number): Column<Row> {
  const cur = (r: Row) => r.currency_code
  return {
    header,
    value: (r) => (v(r) === null ? '' : showAmount(v(r) as number, cur(r))),
    tty: (r) => (v(r) === null ? '' : showAmount(v(r) as number, cur(r), { group: true, code: true })),
    negative: (r) => (v(r) ?? 0) < 0,
    align: 'right',
    drop,
  }
}

// On a narrow terminal the counts go first (named under the table); the account and `ready` stay.
const columns: Column<Row>[] = [
  { header: 'account', value: (r) => r.name },
  { header: 'currency', value: (r) => r.currency_code, plainOnly: true },
  money('statement', (r) => r.statement),
  { header: 'as of', value: (r) => r.as_of, drop: 6 },
  money('book', (r) => r.book),
  money('difference', (r) => r.difference),
  { header: 'not reconciled', value: (r) => r.not_reconciled, align: 'right', drop: 1 },
  { header: 'uncategorized', value: (r) => r.uncategorized, align: 'right', drop: 2 },
  { header: 'pending', value: (r) => r.pending, align: 'right', drop: 3 },
  { header: 'no rate', value: (r) => r.unconverted, align: 'right', drop: 4 },
  { header: 'processing', value: (r) => r.statements_processing, align: 'right', drop: 5 },
  { header: 'no document', value: (r) => r.documents_missing, align: 'right', drop: 7 },
  { header: 'ready', value: (r) => r.ready, keep: true },
]

function rowsOf(s: CloseStatus): Row[] {
  const rows: Row[] = s.accounts.map((a) => ({
    ...a,
    statement: a.statement ? a.statement.closing_balance : null,
    as_of: a.statement ? a.statement.period_end : 'no statement',
    book: a.book_balance,
    difference: a.difference,
    ready: a.ready ? 'yes' : 'no',
  }))
  rows.push({
    name: '(company)',
    currency_code: '',
    statement: null,
    as_of: '',
    book: null,
    difference: null,
    ...s.company,
    ready: s.ready ? 'yes' : 'no',
  })
  return rows
}

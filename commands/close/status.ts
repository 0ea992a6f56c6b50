/** finctl close status [--month M]: a month's readiness to close; exit 12 when it is not ready. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printList, printRecord, type Column } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { CloseStatus, CloseStatusAccount } from '../../src/domain/closing/schemas.js'
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
  return s.ready ? EXIT.ok : EXIT.notReady
}

type Row = Pick<
  CloseStatusAccount,
  'name' | 'currency_code' | 'not_reconciled' | 'uncategorized' | 'pending' | 'unconverted' | 'statements_processing'
> & {
  statement: string
  book: string
  difference: string
  ready: string
}

const num = (v: number | null) => (v === null ? '' : String(v))
const columns: Column<Row>[] = [
  { header: 'account', value: (r) => r.name },
  { header: 'currency', value: (r) => r.currency_code },
  { header: 'statement', value: (r) => r.statement, align: 'right' },
  { header: 'book', value: (r) => r.book, align: 'right' },
  { header: 'difference', value: (r) => r.difference, align: 'right' },
  { header: 'not reconciled', value: (r) => r.not_reconciled, align: 'right' },
  { header: 'uncategorized', value: (r) => r.uncategorized, align: 'right' },
  { header: 'pending', value: (r) => r.pending, align: 'right' },
  { header: 'no rate', value: (r) => r.unconverted, align: 'right' },
  { header: 'processing', value: (r) => r.statements_processing, align: 'right' },
  { header: 'ready', value: (r) => r.ready },
]

function rowsOf(s: CloseStatus): Row[] {
  const rows: Row[] = s.accounts.map((a) => ({
    ...a,
    statement: a.statement ? `${a.statement.closing_balance} (${a.statement.period_end})` : 'none',
    book: num(a.book_balance),
    difference: num(a.difference),
    ready: a.ready ? 'yes' : 'no',
  }))
  rows.push({
    name: '(company)',
    currency_code: '',
    statement: '',
    book: '',
    difference: '',
    ...s.company,
    ready: s.ready ? 'yes' : 'no',
  })
  return rows
}

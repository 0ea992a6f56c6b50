/** What the review verbs of `finctl imports` share: a pending batch's rows, as `show` prints them. */
import { showAmount } from '../../src/cli/money.js'
import { type Column, note, printList, printRecord } from '../../src/cli/output.js'
import type { VerbHost } from '../../src/cli/runner.js'
import type { Client } from '../../src/client/client.js'
import type { PendingRow } from '../../src/domain/imports/review-schemas.js'
import type { ImportBatchDetail } from '../../src/domain/imports/schemas.js'

/** Every pending row of a batch, a page at a time. */
export async function allPending(client: Client, id: string): Promise<{ expires_at: string; staged: number; rows: PendingRow[] }> {
  const rows: PendingRow[] = []
  let after: number | undefined
  for (;;) {
    const page = await client.imports.pending(id, { limit: 1000, after })
    rows.push(...page.data.rows)
    if (!page.pagination.has_more || page.pagination.next_after === null) return { ...page.data, rows }
    after = page.pagination.next_after
  }
}

function pendingColumns(currency: string): Column<PendingRow>[] {
  const cur = (r: PendingRow) => r.transaction.currency_code ?? currency
  const amount = (r: PendingRow) => String(r.transaction.amount ?? '')
  return [
    { header: 'line', value: (r) => r.line, align: 'right' },
    { header: 'date', value: (r) => r.transaction.transaction_date ?? '' },
    { header: 'description', value: (r) => r.transaction.description ?? '', wide: true },
    {
      header: 'amount',
      value: (r) => showAmount(amount(r), cur(r), { code: true }),
      tty: (r) => showAmount(amount(r), cur(r), { group: true, code: true }),
      align: 'right',
      negative: (r) => amount(r).trim().startsWith('-'),
      csv: [
        { header: 'amount', value: (r) => showAmount(amount(r), cur(r)) },
        { header: 'currency', value: cur },
      ],
    },
    { header: 'category', value: (r) => r.transaction.category ?? '', drop: 1 },
    { header: 'merchant', value: (r) => r.transaction.merchant_name ?? '', drop: 2 },
  ]
}

/**
 * A pending batch: in a table its record, then its rows; --json the record with `pending` (expiry
 * and every row); csv and tab-separated output the rows alone, one a line, for a spreadsheet.
 */
export async function showPending(host: VerbHost, client: Client, b: ImportBatchDetail, record: object): Promise<void> {
  const pending = await allPending(client, b.id)
  const currency = b.bank_account_id ? (await client.accounts.get(b.bank_account_id)).currency_code : 'XXX'
  if (host.printer.format === 'json' || host.printer.format === 'ndjson') {
    await printRecord(host.io, host.printer, { ...b, pending })
    return
  }
  if (host.printer.format !== 'table') {
    await printList(host.io, host.printer, pending.rows, pendingColumns(currency))
    return
  }
  await printRecord(host.io, host.printer, { ...record, pending: pending.rows.length, expires: pending.expires_at })
  note(host.io, host.printer, `its pending rows (nothing is created until finctl imports apply ${b.id.slice(-8)}):`)
  await printList(host.io, host.printer, pending.rows, pendingColumns(currency), { empty: 'no pending rows' })
}

/**
 * An export written from what it reads (docs/exporting.md): the same code for `finctl export`, which
 * reads through the service (src/jobs/export/run.ts), and for the service itself, which reads its
 * store when it checks an auditor's pack before signing it (closing/pack-check.ts). The same data
 * gives the same bytes either way.
 */
import type { CashFlowReport, SummaryReport } from '../reports/schemas.js'
import { AccountsMap, type AccountsMapFile, type BankAccountInfo } from './formats/accounts-map.js'
import { csvHeader, csvRow } from './formats/csv.js'
import { type ExportFormat, isJournal } from './formats/format.js'
import { JournalWriter } from './formats/journal.js'
import type { ExportTransaction, OpeningBalances } from './schemas.js'

/** A page of the period's transactions, in date order, and the period's count. */
export interface ExportPage {
  data: ExportTransaction[]
  total?: number
}

/** What an export reads: the service's answers, through a client or straight from the store. */
export interface ExportSource {
  company(): Promise<{ name: string; base_currency: string }>
  accounts(): Promise<BankAccountInfo[]>
  pages(q: { from: string; to: string; bank_account_id?: string; limit: number }): AsyncIterable<ExportPage>
  openingBalances(q: { from: string; bank_account_id?: string }): Promise<OpeningBalances>
  summary(q: { from: string; to: string; bank_account_id?: string }): Promise<SummaryReport>
  cashFlow(q: { from: string; to: string; bank_account_id?: string }): Promise<CashFlowReport>
}

export interface ExportSpec {
  format: ExportFormat
  /** The period, resolved (both ends given). */
  from: string
  to: string
  bankAccountId?: string
  accountsMap?: AccountsMapFile
  /** Rows a request (default 5,000, the route's most). */
  pageSize?: number
  onProgress?: (done: number, total: number) => void
  /** Called after each page is written, before the next is read. */
  afterPage?: () => Promise<void>
  /** Names to write instead of today's (the company's, accounts' by id): an export produced again as a close wrote it, before a rename. */
  names?: { company?: string; accounts?: Record<string, string> }
  /** A workbook's time of writing (its properties and its zip's entries): a fixed one makes its bytes the same each time. */
  writtenAt?: Date
}

export interface ExportResult {
  /** Transactions read. */
  rows: number
  /** Void transactions, left out of a journal (they moved nothing). */
  voidLeftOut: number
}

/**
 * Write the export: the text formats through `write`, a workbook into `sink` (exceljs streams its
 * zip there). The first page is read before a byte is written: what can be refused (an unknown
 * account, a bad period) is refused with nothing written.
 */
export async function writeExport(
  source: ExportSource,
  r: ExportSpec,
  write: (text: string) => Promise<void>,
  sink: () => import('node:stream').Writable,
): Promise<ExportResult> {
  const scope = { from: r.from, to: r.to, bank_account_id: r.bankAccountId }
  const [read, accountsRead] = await Promise.all([source.company(), source.accounts()])
  const company = { ...read, name: r.names?.company ?? read.name }
  const accountList = accountsRead.map((a) => ({ ...a, name: r.names?.accounts?.[a.id] ?? a.name }))
  const accounts = new Map<string, BankAccountInfo>(accountList.map((a) => [a.id, a]))
  const base = company.base_currency
  const ctx = { base, accountName: (id: string) => accounts.get(id)?.name ?? '' }
  const pages = source.pages({ ...scope, limit: r.pageSize ?? 5000 })[Symbol.asyncIterator]()
  const result: ExportResult = { rows: 0, voidLeftOut: 0 }

  const first = await pages.next()
  const each = async (fn: (page: ExportTransaction[]) => Promise<void> | void) => {
    for (let next = first; !next.done; next = await pages.next()) {
      const page = next.value
      await fn(page.data)
      await r.afterPage?.()
      result.rows += page.data.length
      r.onProgress?.(result.rows, page.total ?? result.rows)
    }
  }

  if (isJournal(r.format)) {
    const map = new AccountsMap(r.format, r.accountsMap, accountList)
    const read = await source.openingBalances({ from: r.from, bank_account_id: r.bankAccountId })
    const opening = { ...read, accounts: read.accounts.map((a) => ({ ...a, name: r.names?.accounts?.[a.id] ?? a.name })) }
    const journal = new JournalWriter(r.format, map, accounts, base, r.from)
    const only = r.bankAccountId ? accounts.get(r.bankAccountId)?.name : undefined
    await write(journal.header({ company: company.name, base, from: r.from, to: r.to, bankAccount: only }) + journal.opening(opening))
    await each(async (page) => {
      let chunk = ''
      for (const t of page) {
        if (t.status === 'void') result.voidLeftOut++
        chunk += journal.transaction(t)
      }
      await write(chunk)
    })
    // Opening dates after the last transaction, within the period.
    await write(journal.openedBy(r.to))
  } else if (r.format === 'csv') {
    await write(csvHeader())
    await each(async (page) => {
      let chunk = ''
      for (const t of page) chunk += csvRow(t, ctx)
      await write(chunk)
    })
  } else {
    const [summary, cashFlow] = await Promise.all([source.summary(scope), source.cashFlow(scope)])
    const { XlsxWriter } = await import('./formats/xlsx.js')
    const book = new XlsxWriter(sink(), ctx, undefined, r.writtenAt)
    await book.begin()
    await each((page) => book.rows(page))
    const label = `${company.name}${r.bankAccountId ? `, ${ctx.accountName(r.bankAccountId)}` : ''}`
    await book.end(summary, cashFlow, label)
  }
  return result
}

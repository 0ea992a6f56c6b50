/**
 * An export written from what it reads (docs/exporting.md): the same code for `finctl export`, which
 * reads through the service (src/jobs/export/run.ts), and for the service itself, which reads its
 * store when it checks an auditor's pack before signing it (closing/pack-check.ts). The same data
 * gives the same bytes either way.
 */
import { AccountsMap, type AccountsMapFile, type BankAccountInfo } from './formats/accounts-map.js'
import { csvHeader, csvRow } from './formats/csv.js'
import { type ExportFormat, isChart, isJournal } from './formats/format.js'
import { JournalWriter } from './formats/journal.js'
import type { ExportTransaction } from './schemas.js'
import type { EachPage, ExportSource, ExportWrite } from './source.js'

export type { EachPage, ExportPage, ExportSource, ExportWrite } from './source.js'

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
  /**
   * The time of writing a file holds (a workbook's properties and its zip's entries; DATEV's Erzeugt
   * am, SIE's #GEN, SAF-T's AuditFileDateCreated); default now. A fixed one makes its bytes the same each time.
   */
  writtenAt?: Date
  /** As the data stood at this moment (ISO 8601), rebuilt from the audit trail (docs/audit.md). */
  asOf?: string
  /** SIE: write #KSUMMA. */
  checksum?: boolean
  /** DATEV, SIE, SAF-T: each text the format cannot hold as it is, named with its line. */
  onWarning?: (message: string) => void
}

export interface ExportResult {
  /** Transactions read. */
  rows: number
  /** Void transactions, left out of a journal (they moved nothing). */
  voidLeftOut: number
  /** DATEV: transactions of 0 left out (it takes no booking of 0). */
  zeroLeftOut?: number
  /** Texts named by onWarning. */
  warnings?: number
  /** A filing format written with the company's stored accounts map: that map's SHA-256. */
  storedMapSha256?: string
}

/**
 * Write the export: the text formats through `write`, a workbook into `sink` (exceljs streams its
 * zip there). The first page is read before a byte is written: what can be refused (an unknown
 * account, a bad period) is refused with nothing written.
 */
export async function writeExport(
  source: ExportSource,
  r: ExportSpec,
  write: ExportWrite,
  sink: () => import('node:stream').Writable,
): Promise<ExportResult> {
  const scope = { from: r.from, to: r.to, bank_account_id: r.bankAccountId }
  const asOf = r.asOf === undefined ? {} : { as_of: r.asOf }
  const [read, accountsRead, then] = await Promise.all([
    source.company(),
    source.accounts(),
    r.asOf === undefined ? undefined : source.asOf({ ...scope, as_of: r.asOf }),
  ])
  const company = { ...read, name: r.names?.company ?? read.name }
  const accountList = accountsRead.map((a) => ({ ...a, name: r.names?.accounts?.[a.id] ?? a.name }))
  const accounts = new Map<string, BankAccountInfo>(accountList.map((a) => [a.id, a]))
  const base = company.base_currency
  const ctx = { base, accountName: (id: string) => accounts.get(id)?.name ?? '' }
  const pages = source.pages({ ...scope, limit: r.pageSize ?? 5000 })[Symbol.asyncIterator]()
  const result: ExportResult = { rows: 0, voidLeftOut: 0 }

  const first = await pages.next()
  // With --as-of: the rows that differ since are left out of the pages, and put in as they stood, each
  // before the first row of a later day (the pages are in date order).
  const skip = new Set(then?.ids ?? [])
  const earlier = then?.rows ?? []
  let at = 0
  const asItStood = (page: ExportTransaction[]) => {
    if (!then) return page
    const out: ExportTransaction[] = []
    for (const t of page) {
      while (at < earlier.length && earlier[at].transaction_date < t.transaction_date) out.push(earlier[at++])
      if (!skip.has(t.id)) out.push(t)
    }
    return out
  }
  const each: EachPage = async (fn) => {
    for (let next = first; !next.done; next = await pages.next()) {
      const page = asItStood(next.value.data)
      await fn(page)
      await r.afterPage?.()
      result.rows += page.length
      r.onProgress?.(result.rows, next.value.total ?? result.rows)
    }
    if (at < earlier.length) {
      const rest = earlier.slice(at)
      at = earlier.length
      await fn(rest)
      result.rows += rest.length
    }
  }

  if (isChart(r.format)) {
    const { writeChartExport } = await import('./write-chart.js')
    const c = await writeChartExport(
      source,
      { ...r, format: r.format, writtenAt: r.writtenAt ?? new Date() },
      company,
      accountList,
      (fn) =>
        each((page) => {
          for (const t of page) if (t.status === 'void') result.voidLeftOut++
          return fn(page)
        }),
      write,
    )
    Object.assign(result, c)
  } else if (isJournal(r.format)) {
    const map = new AccountsMap(r.format, r.accountsMap, accountList)
    const read = await source.openingBalances({ from: r.from, bank_account_id: r.bankAccountId, ...asOf })
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
    const [summary, cashFlow] = await Promise.all([source.summary({ ...scope, ...asOf }), source.cashFlow({ ...scope, ...asOf })])
    const { XlsxWriter } = await import('./formats/xlsx.js')
    const book = new XlsxWriter(sink(), ctx, undefined, r.writtenAt)
    await book.begin()
    await each((page) => book.rows(page))
    const label = `${company.name}${r.bankAccountId ? `, ${ctx.accountName(r.bankAccountId)}` : ''}`
    await book.end(summary, cashFlow, label)
  }
  return result
}

/**
 * `finctl export`: reads a period through the service (GET /exports/transactions, page by page in
 * date order, and what the format needs besides: the accounts, the balances before the period, the
 * reports) and writes the format to `sink` as it goes, waiting whenever the sink is full. Memory is
 * one page and the sets of account names, whatever the number of rows.
 */
import { once } from 'node:events'
import type { Writable } from 'node:stream'
import type { Client } from '../../client/client.js'
import type { ExportTransaction } from '../../domain/exports/schemas.js'
import { AccountsMap, type AccountsMapFile, type BankAccountInfo } from './accounts-map.js'
import { csvHeader, csvRow } from './csv.js'
import { type ExportFormat, isChart, isJournal } from './format.js'
import { JournalWriter } from './journal.js'

export interface ExportRequest {
  format: ExportFormat
  /** The period, resolved (both ends given). */
  from: string
  to: string
  bankAccountId?: string
  accountsMap?: AccountsMapFile
  /** Rows a request (default 5,000, the route's most). */
  pageSize?: number
  onProgress?: (done: number, total: number) => void
  /**
   * How text reaches the sink (default: write, then wait while it is full); the CLI's stdout writer
   * also stops the export, by throwing, when its reader has gone (`| head`).
   */
  write?: (text: string | Uint8Array) => Promise<void>
  /** Called after each page is written, before the next is read. */
  afterPage?: () => Promise<void>
  /** DATEV, SIE, SAF-T: when the file is made (default now). */
  now?: Date
  /** SIE: write #KSUMMA. */
  checksum?: boolean
  /** As the data stood at this moment (ISO 8601), rebuilt from the audit trail (docs/audit.md). */
  asOf?: string
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
}

/** Write, and wait while the sink is full; a sink that fails or closes meanwhile fails the export. */
async function drained(sink: Writable, chunk: string | Uint8Array): Promise<void> {
  if (sink.destroyed || sink.errored) throw sink.errored ?? new Error('the output was closed')
  if (!chunk || sink.write(chunk)) return
  const ac = new AbortController()
  await Promise.race([once(sink, 'drain', { signal: ac.signal }), once(sink, 'close', { signal: ac.signal })]).finally(() => ac.abort())
  if (sink.destroyed || sink.errored) throw sink.errored ?? new Error('the output was closed')
}

export async function runExport(client: Client, r: ExportRequest, sink: Writable): Promise<ExportResult> {
  const scope = { from: r.from, to: r.to, bank_account_id: r.bankAccountId }
  const [company, accountList, then] = await Promise.all([
    client.company(),
    client.accounts.list(),
    r.asOf === undefined ? undefined : client.exports.asOf({ ...scope, as_of: r.asOf }),
  ])
  const accounts = new Map<string, BankAccountInfo>(accountList.data.map((a) => [a.id, a]))
  const base = company.base_currency
  const ctx = { base, accountName: (id: string) => accounts.get(id)?.name ?? '' }
  const pages = client.exports.transactions({ ...scope, limit: r.pageSize ?? 5000 })[Symbol.asyncIterator]()
  const result: ExportResult = { rows: 0, voidLeftOut: 0 }
  const write = (text: string | Uint8Array) => (r.write ? r.write(text) : drained(sink, text))

  // The first page is read before a byte is written: what can be refused (an unknown account, a bad
  // period) is refused with nothing written.
  const first = await pages.next()
  // With --as-of: the rows that differ since are left out of the pages, and put in as they stood, each
  // before the first row of a later day (the pages are in date order).
  const skip = new Set(then?.ids ?? [])
  const earlier = then?.rows ?? []
  let at = 0
  const asOf = (page: ExportTransaction[]) => {
    if (!then) return page
    const out: ExportTransaction[] = []
    for (const t of page) {
      while (at < earlier.length && earlier[at].transaction_date < t.transaction_date) out.push(earlier[at++])
      if (!skip.has(t.id)) out.push(t)
    }
    return out
  }
  const each = async (fn: (page: ExportTransaction[]) => Promise<void> | void) => {
    for (let next = first; !next.done; next = await pages.next()) {
      const page = asOf(next.value.data)
      await fn(page)
      await r.afterPage?.()
      result.rows += page.length
      r.onProgress?.(result.rows, next.value.pagination?.total ?? result.rows)
    }
    if (at < earlier.length) {
      const rest = earlier.slice(at)
      at = earlier.length
      await fn(rest)
      result.rows += rest.length
    }
  }

  if (isChart(r.format)) {
    const { runChartExport } = await import('./chart-run.js')
    const c = await runChartExport(
      client,
      { ...r, format: r.format, now: r.now ?? new Date() },
      company,
      accountList.data,
      {
        each: (fn) =>
          each((page) => {
            for (const t of page) if (t.status === 'void') result.voidLeftOut++
            return fn(page)
          }),
      },
      write,
    )
    result.zeroLeftOut = c.zeroLeftOut
    result.warnings = c.warnings
  } else if (isJournal(r.format)) {
    const map = new AccountsMap(r.format, r.accountsMap, accountList.data)
    const opening = await client.exports.openingBalances({ from: r.from, bank_account_id: r.bankAccountId, as_of: r.asOf })
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
    const reportScope = { ...scope, ...(r.asOf === undefined ? {} : { as_of: r.asOf }) }
    const [summary, cashFlow] = await Promise.all([client.reports.summary(reportScope), client.reports.cashFlow(reportScope)])
    const { XlsxWriter } = await import('./xlsx.js')
    const book = new XlsxWriter(sink, ctx)
    await book.begin()
    await each((page) => book.rows(page))
    const label = `${company.name}${r.bankAccountId ? `, ${ctx.accountName(r.bankAccountId)}` : ''}`
    await book.end(summary, cashFlow, label)
  }
  return result
}

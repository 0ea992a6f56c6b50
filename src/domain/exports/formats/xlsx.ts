/**
 * The xlsx export, with exceljs's streaming WorkbookWriter: each row is committed (written into the
 * zip) as it comes, so a million rows take the memory of one page. Dates are real dates and amounts
 * numbers with their currency's decimals as the number format; one sheet of transactions (more past
 * a sheet's 1,048,576 rows), then one per report (summary, cash flow) of the same period.
 */
import type { Writable } from 'node:stream'
import type { Row, Worksheet } from 'exceljs'
import type { ExportTransaction } from '../schemas.js'
import type { CashFlowReport, SummaryReport } from '../../reports/schemas.js'
import { currencyExponent } from '../../../kernel/currencies.js'
import { decimal, minorOf } from './amounts.js'
import { COLUMNS, type Cell, type RowContext } from './columns.js'

type ExcelJs = typeof import('exceljs')

export const DATE_FORMAT = 'yyyy-mm-dd'

/** The number format of an amount in a currency: its decimals, with a thousands separator. */
export function amountFormat(currency: string): string {
  const exp = currencyExponent(currency)
  return exp === 0 ? '#,##0' : `#,##0.${'0'.repeat(exp)}`
}

/** A date of the calendar as Excel's date (exceljs counts a Date's UTC day). */
export function excelDate(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`)
}

/** An amount's number: its exact decimal text read once (a spreadsheet holds doubles; 15 digits are exact). */
function amountValue(minor: number, currency: string): number {
  return Number(decimal(minor, currency))
}

function setCell(row: Row, col: number, c: Cell): void {
  const cell = row.getCell(col)
  switch (c.kind) {
    case 'empty':
      return
    case 'date':
      cell.value = excelDate(c.value)
      cell.numFmt = DATE_FORMAT
      return
    case 'amount':
      cell.value = amountValue(c.minor, c.currency)
      cell.numFmt = amountFormat(c.currency)
      return
    case 'number':
    case 'bool':
    case 'text':
      cell.value = c.value
  }
}

/** What a sheet may have written ahead of the zip before the writer waits. */
const BACKLOG = 1 << 20

/** Rows of data a sheet takes: a spreadsheet's 1,048,576 rows, less the header. */
export const SHEET_ROWS = 1_048_575

export class XlsxWriter {
  private sheet!: Worksheet
  private sheets = 0
  private rowsInSheet = 0
  private workbook!: InstanceType<ExcelJs['stream']['xlsx']['WorkbookWriter']>

  constructor(
    private readonly sink: Writable,
    private readonly ctx: RowContext,
    private readonly sheetRows = SHEET_ROWS,
    /** The workbook's creation and modification time (its properties; its zip's entry times: `zipTimes`). */
    private readonly writtenAt?: Date,
  ) {}

  /** Transactions, then "Transactions 2", ... when a sheet is full. */
  private nextSheet(): void {
    if (this.sheets > 0) this.sheet.commit()
    this.sheets++
    this.sheet = this.workbook.addWorksheet(this.sheets === 1 ? 'Transactions' : `Transactions ${this.sheets}`, {
      views: [{ state: 'frozen', ySplit: 1 }],
    })
    this.sheet.columns = COLUMNS.map((c) => ({ header: c.header, width: c.width }))
    this.sheet.getRow(1).font = { bold: true }
    this.sheet.getRow(1).commit()
    this.rowsInSheet = 0
  }

  async begin(): Promise<void> {
    const mod = (await import('exceljs')) as ExcelJs & { default?: ExcelJs }
    const ExcelJS = mod.default ?? mod
    const at = this.writtenAt
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: this.sink,
      useStyles: true,
      useSharedStrings: false,
      ...(at ? { created: at, modified: at } : {}),
    })
    this.workbook.creator = 'finctl'
    this.nextSheet()
  }

  /**
   * Wait for the zip to take what the sheet wrote: exceljs writes a sheet's XML into the zip's entry
   * without waiting (the entry is a readable-stream PassThrough of archiver's, whose backlog is in
   * its `_writableState`), so rows made faster than they are compressed would pile up in memory.
   */
  private async drained(): Promise<void> {
    const s = (this.sheet as unknown as { stream: { pipes: Writable[]; buffers: unknown[] } }).stream
    const backlog = (w: Writable) =>
      w.writableLength ?? (w as unknown as { _writableState?: { length: number } })._writableState?.length ?? 0
    // One turn of the event loop at least: the zip compresses and writes in callbacks.
    await new Promise((resolve) => setImmediate(resolve))
    for (;;) {
      const busy = s.pipes.length === 0 ? s.buffers.length > 4 : s.pipes.some((p) => backlog(p) > BACKLOG)
      if (!busy) return
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }

  async rows(page: ExportTransaction[]): Promise<void> {
    for (const t of page) {
      if (this.rowsInSheet === this.sheetRows) this.nextSheet()
      this.rowsInSheet++
      const row = this.sheet.addRow([])
      for (let i = 0; i < COLUMNS.length; i++) setCell(row, i + 1, COLUMNS[i].cell(t, this.ctx))
      row.commit()
    }
    await this.drained()
  }

  async end(summary: SummaryReport, cashFlow: CashFlowReport, label: string): Promise<void> {
    this.sheet.commit()
    writeSummary(this.workbook.addWorksheet('Summary'), summary, label)
    writeCashFlow(this.workbook.addWorksheet('Cash flow'), cashFlow)
    await this.workbook.commit()
  }
}

type Value = string | number | { date: string } | { amount: number; currency: string } | null

function put(ws: Worksheet, values: Value[], bold = false): void {
  const row = ws.addRow([])
  values.forEach((v, i) => {
    if (v === null) return
    const cell = row.getCell(i + 1)
    if (typeof v === 'object' && 'date' in v) {
      cell.value = excelDate(v.date)
      cell.numFmt = DATE_FORMAT
    } else if (typeof v === 'object') {
      cell.value = amountValue(minorOf(v.amount, v.currency), v.currency)
      cell.numFmt = amountFormat(v.currency)
    } else cell.value = v
  })
  if (bold) row.font = { bold: true }
  row.commit()
}

function writeSummary(ws: Worksheet, s: SummaryReport, label: string): void {
  ws.columns = [{ width: 28 }, { width: 16 }, { width: 10 }]
  const m = (amount: number) => ({ amount, currency: s.currency })
  put(ws, ['Summary', label], true)
  put(ws, ['currency', s.currency])
  put(ws, ['from', { date: s.from }])
  put(ws, ['to', { date: s.to }])
  put(ws, ['income', m(s.income)])
  put(ws, ['expenses', m(s.expenses)])
  put(ws, ['net', m(s.net)])
  put(ws, ['transaction_count', s.transaction_count])
  put(ws, ['pending_count', s.pending_count])
  put(ws, ['unreconciled_count', s.unreconciled_count])
  put(ws, ['transfers_in', m(s.transfers.inflows)])
  put(ws, ['transfers_out', m(s.transfers.outflows)])
  put(ws, ['transfers_net', m(s.transfers.net)])
  put(ws, ['transfers_count', s.transfers.count])
  put(ws, [])
  put(ws, ['accounting_category', 'amount', 'count'], true)
  for (const r of s.by_accounting_category) put(ws, [r.accounting_category, m(r.amount), r.count])
  put(ws, [])
  put(ws, ['category', 'amount', 'count'], true)
  for (const r of s.by_category) put(ws, [r.category ?? '(none)', m(r.amount), r.count])
  put(ws, [])
  put(ws, ['merchant', 'amount', 'count'], true)
  for (const r of s.top_merchants) put(ws, [r.merchant_name, m(r.amount), r.count])
  put(ws, [])
  put(ws, ['account', 'balance', 'currency'], true)
  // Each balance is in its account's currency.
  for (const a of s.accounts) put(ws, [a.name, { amount: a.balance, currency: a.currency_code }, a.currency_code])
  ws.commit()
}

const FLOW_COLUMNS = ['operations', 'investing', 'financing', 'uncategorized'] as const

function writeCashFlow(ws: Worksheet, r: CashFlowReport): void {
  const heads = [
    'period',
    'start',
    'end',
    'opening_balance',
    'inflows',
    'outflows',
    'net',
    ...FLOW_COLUMNS.map((c) => `${c}_net`),
    'transfers_net',
    'opened',
    'closing_balance',
  ]
  ws.columns = heads.map((h, i) => ({ width: i === 0 ? 12 : Math.max(12, h.length + 2) }))
  const m = (amount: number) => ({ amount, currency: r.currency })
  put(ws, heads, true)
  for (const p of r.periods)
    put(ws, [
      p.label,
      { date: p.period_start },
      { date: p.period_end },
      m(p.opening_balance),
      m(p.inflows),
      m(p.outflows),
      m(p.net),
      ...FLOW_COLUMNS.map((c) => m(p.by_category[c].net)),
      m(p.transfers.net),
      m(p.opened),
      m(p.closing_balance),
    ])
  put(
    ws,
    [
      'total',
      { date: r.from },
      { date: r.to },
      m(r.opening_balance),
      m(r.totals.inflows),
      m(r.totals.outflows),
      m(r.totals.net),
      ...FLOW_COLUMNS.map((c) => m(r.by_category[c].net)),
      m(r.transfers.net),
      m(r.opened),
      m(r.closing_balance),
    ],
    true,
  )
  ws.commit()
}

/**
 * A zip (a workbook) with every entry's time set to `at`: archiver stamps entries with the time of
 * writing, some before a caller could say otherwise, so the same data would give other bytes each
 * second. The DOS time and date sit at fixed offsets of each local header and central directory entry.
 */
export function zipTimes(zip: Buffer, at: Date): Buffer {
  const out = Buffer.from(zip)
  const time = (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1)
  const date = ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate()
  const eocd = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (eocd < 0) return out
  for (let p = out.readUInt32LE(eocd + 16); p + 46 <= out.length && out.readUInt32LE(p) === 0x02014b50; ) {
    out.writeUInt16LE(time, p + 12)
    out.writeUInt16LE(date, p + 14)
    const local = out.readUInt32LE(p + 42)
    if (local + 30 <= out.length && out.readUInt32LE(local) === 0x04034b50) {
      out.writeUInt16LE(time, local + 10)
      out.writeUInt16LE(date, local + 12)
    }
    p += 46 + out.readUInt16LE(p + 28) + out.readUInt16LE(p + 30) + out.readUInt16LE(p + 32)
  }
  return out
}

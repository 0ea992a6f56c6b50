/**
 * The xlsx writer alone: rows past a sheet's size go on to a next sheet; dates are date cells and
 * amounts numbers in their currency's decimals (read back by exceljs for the formats, and by
 * read-excel-file, a second reader, for the values).
 */
import { Writable } from 'node:stream'
import ExcelJS from 'exceljs'
import readXlsxFile from 'read-excel-file/node'
import { describe, expect, it } from 'vitest'
import type { ExportTransaction } from '../../src/domain/exports/schemas.js'
import type { CashFlowReport, SummaryReport } from '../../src/domain/reports/schemas.js'
import { XlsxWriter } from '../../src/domain/exports/formats/xlsx.js'

class Bytes extends Writable {
  chunks: Buffer[] = []
  override _write(chunk: Buffer, _e: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk)
    done()
  }
}

const tx = (i: number, over: Partial<ExportTransaction> = {}): ExportTransaction => ({
  id: `id-${i}`,
  transaction_date: `2026-01-0${i}`,
  posted_date: `2026-01-0${i}`,
  description: `row ${i}`,
  original_description: `row ${i}`,
  amount: -1234.5,
  currency_code: 'USD',
  exchange_rate: 1,
  exchange_rate_exact: '1',
  exchange_rate_date: null,
  base_amount: -1234.5,
  category: null,
  accounting_category: null,
  cash_flow_category: null,
  merchant_name: null,
  status: 'posted',
  is_reconciled: false,
  ai_confidence_score: null,
  tags: [],
  bank_account_id: 'acc',
  bank_statement_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
})

const flows = { inflows: 0, outflows: 1234.5, net: -1234.5 }
const byCategory = { operations: flows, investing: flows, financing: flows, uncategorized: flows }
const summary = {
  currency: 'USD',
  from: '2026-01-01',
  to: '2026-01-31',
  income: 0,
  expenses: 8641.5,
  net: -8641.5,
  transaction_count: 7,
  pending_count: 0,
  unreconciled_count: 7,
  transfers: { ...flows, count: 0 },
  by_accounting_category: [],
  by_category: [{ category: null, amount: -8641.5, count: 7 }],
  top_merchants: [],
  accounts: [
    { id: 'acc', name: 'Operating', currency_code: 'USD', balance: 100 },
    { id: 'yen', name: 'Tokyo', currency_code: 'JPY', balance: 12000 },
  ],
} as unknown as SummaryReport
const cashFlow = {
  currency: 'USD',
  from: '2026-01-01',
  to: '2026-01-31',
  opening_balance: 0,
  opened: 25000,
  closing_balance: 16358.5,
  totals: flows,
  by_category: byCategory,
  transfers: flows,
  periods: [
    {
      label: '2026-01',
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      opening_balance: 0,
      opened: 25000,
      closing_balance: 16358.5,
      ...flows,
      by_category: byCategory,
      transfers: flows,
    },
  ],
} as unknown as CashFlowReport

describe('the xlsx writer', () => {
  it('goes on to a next sheet when one is full; dates and amounts are typed cells', async () => {
    const sink = new Bytes()
    const book = new XlsxWriter(sink, { base: 'USD', accountName: () => 'Operating' }, 3)
    await book.begin()
    await book.rows([1, 2, 3, 4, 5].map((i) => tx(i)))
    await book.rows([tx(6, { amount: -1200, currency_code: 'JPY', exchange_rate_exact: '0.0067', base_amount: -8.04 }), tx(7)])
    await book.end(summary, cashFlow, 'Acme')
    const file = Buffer.concat(sink.chunks)

    const sheets = await readXlsxFile(file)
    expect(sheets.map((s) => [s.sheet, s.data.length])).toEqual([
      ['Transactions', 4],
      ['Transactions 2', 4],
      ['Transactions 3', 2],
      ['Summary', expect.any(Number)],
      ['Cash flow', 3],
    ])
    expect(sheets[2].data[1].slice(0, 5)).toEqual(['id-7', new Date('2026-01-07T00:00:00Z'), 'row 7', -1234.5, 'USD'])

    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(file as unknown as ArrayBuffer)
    const row = wb.getWorksheet('Transactions 2')!.getRow(4)
    expect(row.getCell(2).numFmt).toBe('yyyy-mm-dd')
    expect(row.getCell(2).type).toBe(ExcelJS.ValueType.Date)
    expect([row.getCell(4).value, row.getCell(4).numFmt]).toEqual([-1200, '#,##0'])
    expect(row.getCell(14).numFmt).toBe('#,##0.00')
    const expenses = wb.getWorksheet('Summary')!.getRow(6)
    expect([expenses.getCell(1).value, expenses.getCell(2).value, expenses.getCell(2).numFmt]).toEqual(['expenses', 8641.5, '#,##0.00'])
    // Each account's balance in its own currency, not the base's.
    const summarySheet = sheets.find((s) => s.sheet === 'Summary')!.data
    expect(summarySheet.find((r) => r[0] === 'Tokyo')).toEqual(['Tokyo', 12000, 'JPY'])
    // An opening balance that counts from a day inside the period: its own column, closing = opening + net + transfers + opened.
    const flowSheet = sheets.find((s) => s.sheet === 'Cash flow')!.data
    const heads = flowSheet[0] as string[]
    expect(flowSheet[1][heads.indexOf('opened')]).toBe(25000)
    expect(flowSheet[1][heads.indexOf('closing_balance')]).toBe(16358.5)
  })
})

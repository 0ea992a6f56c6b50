// Tables on a terminal fit its width (src/cli/table-fit.ts, renderTable): text columns are narrowed,
// a long value wrapping inside its cell, or left out; ids, dates and amounts stay whole, and no line
// is wider than the terminal.
import { describe, expect, it } from 'vitest'
import { renderTable, type Column } from '../../src/cli/output.js'
import stringWidth from 'string-width'
import { fitColumns, wrapCell } from '../../src/cli/table-fit.js'

interface Row {
  id: string
  date: string
  description: string
  amount: string
  category: string
  status: string
}

const columns: Column<Row>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'date', value: (r) => r.date },
  { header: 'description', value: (r) => r.description },
  { header: 'amount', value: (r) => r.amount, align: 'right' },
  { header: 'category', value: (r) => r.category },
  { header: 'status', value: (r) => r.status },
]

const rows: Row[] = [
  {
    id: '01a207d1-b1b5-77c3-a5c4-19f13c5f0a11',
    date: '2026-11-09',
    description: 'Invoice 2026-042 paid by Contoso Ltd for consulting in October',
    amount: '4780.50 USD',
    category: 'Sales',
    status: 'pending',
  },
  {
    id: '01a207d1-b1b5-77c3-a5c4-19f13c5f0a12',
    date: '2026-11-14',
    description: 'Laptops for new hires',
    amount: '-2899.98 USD',
    category: 'Equipment',
    status: 'posted',
  },
]

async function render(width: number | undefined): Promise<string> {
  let out = ''
  const stdout = { write: (s: string) => ((out += s), true), columns: width }
  const io = { stdout, stderr: { write: () => true }, isStdoutTTY: true, isStderrTTY: true } as never
  await renderTable(io, { format: 'table', color: false, quiet: false }, rows, columns, ['', '', 'total', '1880.52 USD', '', ''])
  return out
}

describe('a table on a terminal', () => {
  it('at 80 columns: no line is wider, ids, dates and amounts stay whole, the description wraps in its cell', async () => {
    const out = await render(80)
    const lines = out.trimEnd().split('\n')
    for (const l of lines) expect(stringWidth(l), l).toBeLessThanOrEqual(80)
    expect(lines.length).toBeGreaterThan(2 + rows.length + 2) // a row of several lines
    for (const r of rows) {
      expect(out).toContain(r.id)
      expect(out).toContain(r.date)
      expect(out).toContain(r.amount)
    }
    // A header may be cut ("DESCRIPT…"); a value never is.
    expect(lines.slice(2).join('\n')).not.toContain('…')
    // The description read down its column, whole.
    const col = lines.slice(2, -1).map((l) => l.split('│')[3].trim())
    expect(col.join('').replace(/ /g, '')).toContain(rows[0].description.replace(/ /g, ''))
  })

  it('wide enough: the table as it is, nothing cut', async () => {
    const out = await render(200)
    expect(out).toContain(rows[0].description)
    expect(out).not.toContain('…')
  })

  it('very narrow: text columns are left out from the right before anything whole is cut', async () => {
    const out = await render(72)
    for (const l of out.trimEnd().split('\n')) expect(stringWidth(l)).toBeLessThanOrEqual(72)
    expect(out).toContain(rows[0].id)
    expect(out).toContain(rows[0].amount)
    expect(out).not.toContain('STATUS')
  })
})

describe('wrapCell', () => {
  it('breaks at spaces, a word longer than a line where it reaches the edge, and nothing is lost', () => {
    expect(wrapCell('Laptops for new hires', 10)).toBe('Laptops\nfor new\nhires')
    expect(wrapCell('short', 10)).toBe('short')
    expect(wrapCell('X'.repeat(25), 10)).toBe(`${'X'.repeat(10)}\n${'X'.repeat(10)}\n${'X'.repeat(5)}`)
  })

  it('counts a CJK character or an emoji as two columns and never splits one', () => {
    const text = '東京の事務所の家賃 ☕🍰 Café'
    const lines = wrapCell(text, 7).split('\n')
    for (const l of lines) expect(stringWidth(l), l).toBeLessThanOrEqual(7)
    expect(lines.join('')).toBe(text.replace(/ /g, ''))
    expect(lines).toContain('☕🍰')
  })
})

describe('fitColumns', () => {
  it('narrows the widest text column first, never below the floor, never a whole one', () => {
    const fit = fitColumns(
      [
        ['id', 'x'.repeat(36)],
        ['text', 'y'.repeat(60)],
        ['note', 'z'.repeat(20)],
      ],
      [true, false, false],
      80,
    )!
    expect(fit.kept).toEqual([0, 1, 2])
    expect(fit.widths[0]).toBe(38)
    expect(fit.widths.reduce((a, b) => a + b, 0) + 4).toBe(80)
    expect(fit.widths[1]).toBeGreaterThanOrEqual(fit.widths[2])
  })

  it('narrows a text column no further than its longest word while the table can fit so: values wrap at spaces', () => {
    const fit = fitColumns(
      [
        ['id', 'x'.repeat(10)],
        ['account', 'Operating account'],
        ['note', 'a b c d e f g h i j k l m n o p'],
      ],
      [true, false, false],
      40,
      // The note takes the widest share: without the word's floor the account would go down to 8.
      [{}, {}, { wide: true }],
    )!
    expect(fit.kept).toEqual([0, 1, 2])
    expect(fit.widths.reduce((a, b) => a + b, 0) + 4).toBeLessThanOrEqual(40)
    expect(wrapCell('Operating account', fit.widths[1] - 2)).toBe('Operating\naccount')
  })

  it('a table that fits is left alone', () => {
    expect(fitColumns([['a', 'b']], [false], 80)).toBeUndefined()
  })
})

describe('fitColumns on a table of numbers', () => {
  it('never leaves out the first column, which names the row', () => {
    const numbers = Array.from({ length: 10 }, (_, i) => [`COL ${i}`, '-1,234,567.89'])
    const fit = fitColumns([['PERIOD', '2026-02'], ...numbers], [false, ...numbers.map(() => true)], 80)
    expect(fit === undefined || fit.kept.includes(0)).toBe(true)
  })
})

describe('one record on a terminal', () => {
  it('keeps every value whole, a long one wrapped inside its cell: a record is not a list to fit', async () => {
    const { printRecord } = await import('../../src/cli/output.js')
    let out = ''
    const io = {
      stdout: { write: (s: string) => ((out += s), true), columns: 60 },
      stderr: { write: () => true },
      isStdoutTTY: true,
      isStderrTTY: true,
    } as never
    await printRecord(io, { format: 'table', color: false, quiet: false }, { id: rows[0].id, description: rows[0].description })
    expect(out).not.toContain('…')
    for (const l of out.trimEnd().split('\n')) expect(stringWidth(l), l).toBeLessThanOrEqual(60)
    const text = out
      .replace(/[│┌┐└┘─┬┴]/g, ' ')
      .split(/\s+/)
      .join(' ')
    expect(text).toContain(rows[0].description)
  })
})

describe('wide characters', () => {
  describe('widths are counted as cli-table3 counts them (string-width)', () => {
    const draw = async (texts: string[], width: number): Promise<string> => {
      let out = ''
      const io = {
        stdout: { write: (s: string) => ((out += s), true), columns: width },
        stderr: { write: () => true },
        isStdoutTTY: true,
        isStderrTTY: true,
      } as never
      const cols: Column<string>[] = [
        { header: 'id', value: () => 'tx_1' },
        { header: 'description', value: (t) => t },
      ]
      await renderTable(io, { format: 'table', color: false, quiet: false }, texts, cols)
      return out
    }

    it('so a table it would draw wider than the terminal is fitted (Devanagari, Thai signs)', async () => {
      // 43 columns as cli-table3 draws it; a count that takes the signs for marks of no width said 40.
      for (const width of [40, 41, 42]) {
        const out = await draw(['किराया और बिजली का भुगतान नमस्ते', 'สวัสดี ค่าเช่า'], width)
        for (const l of out.trimEnd().split('\n')) expect(stringWidth(l), `${width}: ${l}`).toBeLessThanOrEqual(width)
      }
    })
  })

  it('a table of CJK descriptions fits the terminal: the border and every row as wide as each other, no wider', async () => {
    const wide = [
      { id: 'a1', d: '東京の事務所の家賃と光熱費の支払い（十一月分）', amt: '-120000 JPY' },
      { id: 'a2', d: 'Café ☕ 🍰 et croissants', amt: '-5.00 EUR' },
    ]
    const cols: Column<(typeof wide)[number]>[] = [
      { header: 'id', value: (r) => r.id },
      { header: 'description', value: (r) => r.d },
      { header: 'amount', value: (r) => r.amt, align: 'right' },
    ]
    let out = ''
    const io = {
      stdout: { write: (s: string) => ((out += s), true), columns: 60 },
      stderr: { write: () => true },
      isStdoutTTY: true,
      isStderrTTY: true,
    } as never
    await renderTable(io, { format: 'table', color: false, quiet: false }, wide, cols)
    const lines = out.trimEnd().split('\n')
    // The border is box-drawing characters, one column each: its length is the table's width.
    const border = [...lines[0]].length
    expect(border).toBeLessThanOrEqual(60)
    // Counted here independently of string-width: the CJK and full-width characters and the two emoji take two.
    const columnsOf = (l: string) => [...l].reduce((w, ch) => w + (/[\u3000-\u30FF\u4E00-\u9FFF\uFF00-\uFF60☕🍰]/u.test(ch) ? 2 : 1), 0)
    for (const l of lines) expect(columnsOf(l), l).toBe(border)
    expect(out).toContain('-120000 JPY')
    expect(out).not.toContain('…')
  })
})

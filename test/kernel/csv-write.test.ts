/**
 * finctl's one CSV writer (src/kernel/csv-write.ts): RFC 4180 quoting, CRLF line ends, and the
 * formula guard, which leaves numbers as finctl and banks write them alone.
 */
import { parse } from 'csv-parse/sync'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { csvField, csvLine } from '../../src/kernel/csv-write.js'

describe('csvField', () => {
  it('keeps a cell that starts like a formula as text', () => {
    for (const s of ['=1+1', '=HYPERLINK("http://x","y")', '@SUM(A1)', '-2+3+cmd|x', '+A1', '-', '\t=1', '\r=1', '=cmd|" /C calc"!A0'])
      expect(csvField(s).replace(/^"|"$/g, '').replace(/""/g, '"'), s).toBe(`'${s}`)
  })

  it('leaves a number alone, as finctl or a bank writes it', () => {
    for (const s of ['-12.50', '-12.50 USD', '-1234,56', '-1.234,56', "-1'234.50", '+5', '+12,50 EUR', '-1 234,56', '42', '0'])
      expect(csvField(s, ';').replace(/^"|"$/g, ''), s).toBe(s)
  })

  it('quotes per RFC 4180: the delimiter, a quote or a line break', () => {
    expect(csvField('Coffee, large')).toBe('"Coffee, large"')
    expect(csvField('Coffee, large', ';')).toBe('Coffee, large')
    expect(csvField('Kava; didelė', ';')).toBe('"Kava; didelė"')
    expect(csvField('He said "hi"')).toBe('"He said ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField('plain')).toBe('plain')
  })
})

describe('csvLine', () => {
  it('joins by the delimiter and ends in CRLF', () => {
    expect(csvLine(['a', 'b c', ''])).toBe('a,b c,\r\n')
    expect(csvLine(['01.10.2026', 'Bad; amount', 'abc'], ';')).toBe('01.10.2026;"Bad; amount";abc\r\n')
  })

  it('reads back (csv-parse) as the fields written; only a field that starts like a formula gains a leading quote', () => {
    const trigger = /^[=+\-@\t\r]/
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string(), { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(',', ';', '\t'),
        (rows, delimiter) => {
          const back = parse(rows.map((r) => csvLine(r, delimiter)).join(''), { delimiter }) as string[][]
          expect(back).toHaveLength(rows.length)
          for (const [i, r] of rows.entries())
            for (const [j, f] of r.entries()) {
              const got = back[i][j]
              expect(got === f || (trigger.test(f) && got === `'${f}`), JSON.stringify([f, got])).toBe(true)
              if (trigger.test(got)) expect(got).toMatch(/^[+-]?\d/)
            }
        },
      ),
    )
  })
})

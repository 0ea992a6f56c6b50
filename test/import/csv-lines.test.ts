/**
 * Line numbers of CSV records (shown in rejects, dry runs and the plan's notes) are the lines where
 * records start, as an editor numbers them: line breaks inside quoted fields (LF, CRLF or CR) and
 * blank lines count, whatever the file's line endings.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readRecordsBytes } from '../../src/import/read-rows.js'
import { lineBreaks, readRecords, type CsvLayout } from '../../src/import/read-rows.js'

const layout: CsvLayout = { encoding: { encoding: 'utf-8', bomLength: 0, how: 'given' }, delimiter: ',' }
let dir = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'finctl-lines-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function lines(text: string): Promise<Array<[number, string[]]>> {
  const out: Array<[number, string[]]> = []
  for await (const r of readRecordsBytes(new TextEncoder().encode(text), layout)) out.push([r.line, r.fields])
  return out
}

describe('record line numbers', () => {
  it('a multi-line record is numbered by its first line, and the records after it by theirs', async () => {
    expect(await lines('a,b\n"x\ny",z\nc,d\n')).toEqual([
      [1, ['a', 'b']],
      [2, ['x\ny', 'z']],
      [4, ['c', 'd']],
    ])
    expect(await lines('a,b\r\n"x\r\ny\r\nw",z\r\n\r\nc,d')).toEqual([
      [1, ['a', 'b']],
      [2, ['x\r\ny\r\nw', 'z']],
      [6, ['c', 'd']],
    ])
    expect(await lines('a,b\r"x\ry",z\r\rc,d\r')).toEqual([
      [1, ['a', 'b']],
      [2, ['x\ry', 'z']],
      [5, ['c', 'd']],
    ])
  })

  it('blank and whitespace-only lines are counted but yield no record', async () => {
    expect(await lines('a,b\n\n  \n,,\nc,d\n')).toEqual([
      [1, ['a', 'b']],
      [5, ['c', 'd']],
    ])
  })

  it("a quoted field after a space is quoted still, not split at its comma (PayPal's older export)", async () => {
    expect(await lines('Date, Gross, Fee, Net\n"02/02/2010", "85,00", "-2,74","82,26",\n')).toEqual([
      [1, ['Date', 'Gross', 'Fee', 'Net']],
      [2, ['02/02/2010', '85,00', '-2,74', '82,26', '']],
    ])
  })

  it('counts CRLF inside a field once, a lone CR or LF once each', () => {
    expect(lineBreaks(['a\r\nb', 'c\rd\ne', 'none'])).toBe(3)
    expect(lineBreaks(['\r\n\r\n', '\n\r'])).toBe(4)
  })

  it('matches the physical line of every record, for any file (fast-check)', async () => {
    const field = fc.oneof(
      fc.stringMatching(/^[a-z0-9 ]{0,6}$/),
      fc
        .tuple(fc.stringMatching(/^[a-z]{0,3}$/), fc.constantFrom('\n', '\r\n', '\r'), fc.stringMatching(/^[a-z]{0,3}$/))
        .map(([a, br, b]) => `"${a}${br}${b}"`),
    )
    const row = fc.array(field, { minLength: 2, maxLength: 4 }).filter((f) => f.some((x) => /[a-z0-9]/.test(x)))
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(row, fc.boolean()), { minLength: 1, maxLength: 12 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
        async (rows, eol, finalEol) => {
          // Quoted breaks use the file's own line ending, as a bank's export would.
          const norm = (f: string) => f.replace(/\r\n|\r|\n/g, eol)
          let text = ''
          let line = 1
          const expected: number[] = []
          rows.forEach(([fields, blankBefore], i) => {
            if (blankBefore) {
              text += eol
              line++
            }
            expected.push(line)
            const body = fields.map(norm).join(',')
            text += body
            line += body.split(eol).length - 1
            if (i < rows.length - 1 || finalEol) {
              text += eol
              line++
            }
          })
          const got = await lines(text)
          expect(got.map(([l]) => l)).toEqual(expected)
          const path = join(dir, 'f.csv')
          writeFileSync(path, text)
          const fromFile: number[] = []
          for await (const r of readRecords(path, layout)) fromFile.push(r.line)
          expect(fromFile).toEqual(expected)
        },
      ),
      { numRuns: 200 },
    )
  })
})

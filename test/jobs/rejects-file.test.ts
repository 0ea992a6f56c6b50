/**
 * The rejects file of `tx import` (src/jobs/import/rejects-file.ts) is written by finctl's one CSV
 * writer: the bank's delimiter, CRLF line ends, and the formula guard, which leaves the bank's
 * amounts as they were so the fixed file imports again.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RejectsWriter } from '../../src/jobs/import/rejects-file.js'

describe('the rejects file', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-rejects-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('keeps a formula as text and a bank amount as it was, in the file delimiter, lines ending in CRLF', async () => {
    const path = join(dir, 'rejects.csv')
    const w = new RejectsWriter(path, ['Data', 'Aprašymas', 'Suma'], ';')
    w.write(['01.10.2026', '=HYPERLINK("http://x.test";"pay")', '-1.234,56'], 3, 'amount must be a number')
    w.write(['02.10.2026', 'Kava; didelė', '+12,50'], 4, 'date: check it')
    await w.close()
    const text = readFileSync(path, 'utf8')
    expect(text).toBe(
      'Data;Aprašymas;Suma;line;reason\r\n' +
        `01.10.2026;"'=HYPERLINK(""http://x.test"";""pay"")";-1.234,56;3;amount must be a number\r\n` +
        '02.10.2026;"Kava; didelė";+12,50;4;date: check it\r\n',
    )
    expect((parse(text, { delimiter: ';', columns: true }) as Array<Record<string, string>>).map((r) => r.Suma)).toEqual([
      '-1.234,56',
      '+12,50',
    ])
  })

  it("finctl's own reason is never marked with the guard's ': one starting with a flag reads as an error line", async () => {
    const path = join(dir, 'reasons.csv')
    const w = new RejectsWriter(path, ['Date', 'Description', 'Amount'], ',')
    w.write(['2026-10-01', '-Refund', '5'], 2, '--set exchange_rate must be a positive decimal')
    w.write(['2026-10-02', 'Paper', 'x'], 3, 'amount "x" is not an amount')
    await w.close()
    const rows = parse(readFileSync(path, 'utf8'), { columns: true }) as Array<Record<string, string>>
    expect(rows.map((r) => r.reason)).toEqual(['error: --set exchange_rate must be a positive decimal', 'amount "x" is not an amount'])
    // The bank's own text keeps the guard.
    expect(rows[0].Description).toBe("'-Refund")
  })
})

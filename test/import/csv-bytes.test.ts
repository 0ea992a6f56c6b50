/**
 * CSV from bytes (uploaded statements) reads and plans every real bank CSV (csv/ of the bank-file
 * corpus, test/helpers/bank-files.ts) exactly as `tx import` does from the file: same records, same
 * plan (header row, column map, date format, decimal mark).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { planImportBytes } from '../../src/import/plan.js'
import { readRecordsBytes } from '../../src/import/read-rows.js'
import { ImportError, planImport, type CsvMapping } from '../../src/import/plan.js'
import { readRecords } from '../../src/import/read-rows.js'
import { bankFile, HAS_BANK_FILES, listBankFiles } from '../helpers/bank-files.js'

const DIR = bankFile('csv')

/** Options some files need (as in csv-fixtures.test.ts); the others plan with none. */
const OPTIONS: Record<string, CsvMapping> = {
  'ch-ubs-fr-semicolon-debit-credit-apostrophe-thousands.csv': { map: [['description', 'Description 1']] },
  'fr-style-metadata-header-footer-debit-credit-decimal-comma.csv': { dateFormat: 'DD/MM/YY' },
  'lt-danske-cp1257-crlf-multiline-quoted.csv': {
    encoding: 'windows-1257',
    map: [
      ['amount', '-2'],
      ['description', '-6'],
      ['description', '-5'],
    ],
  },
  'lt-swedbank-dk-indicator-unescaped-quotes.csv': { where: [['2', '20']], map: [['description', 'Paaiškinimai']] },
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}

describe('CSV from bytes = CSV from the file', () => {
  const files = listBankFiles('csv').filter((f) => f.endsWith('.csv'))
  it.skipIf(!HAS_BANK_FILES).each(files)('%s', async (file) => {
    const path = resolve(DIR, file)
    const bytes = new Uint8Array(readFileSync(path))
    const o = OPTIONS[file] ?? {}
    const [fromFile, fromBytes] = [await planImport(path, o), await planImportBytes(bytes, o)]
    expect(fromBytes).toEqual(fromFile)
    expect(fromBytes.dataRows).toBeGreaterThan(0)
    expect(await all(readRecordsBytes(bytes, fromBytes.layout))).toEqual(await all(readRecords(path, fromFile.layout)))
  })

  it.skipIf(!HAS_BANK_FILES)('refuses what the file path refuses, with the same message', async () => {
    const file = resolve(DIR, 'fr-style-metadata-header-footer-debit-credit-decimal-comma.csv')
    const fromFile = await planImport(file).then(
      () => 'planned',
      (e: Error) => e,
    )
    const fromBytes = await planImportBytes(new Uint8Array(readFileSync(file))).then(
      () => 'planned',
      (e: Error) => e,
    )
    expect(fromBytes).toBeInstanceOf(ImportError)
    expect((fromBytes as Error).message).toBe((fromFile as Error).message)
    await expect(planImportBytes(new TextEncoder().encode('x\n'), { encoding: 'klingon' })).rejects.toBeInstanceOf(ImportError)
  })

  it('reads a record whose quoted field spans the boundary of two decoding chunks', async () => {
    const pad = 'x'.repeat(256 * 1024 - 40)
    const text = `Date,Description,Amount\n2024-01-01,"${pad}\nstill the same field, é",-1.00\n2024-01-02,Tea,-2.00\n`
    const bytes = new TextEncoder().encode(text)
    const plan = await planImportBytes(bytes)
    const recs = await all(readRecordsBytes(bytes, plan.layout))
    expect(recs.map((r) => r.fields.length)).toEqual([3, 3, 3])
    expect(recs[1].fields[1]).toBe(`${pad}\nstill the same field, é`)
    expect(recs[2]).toEqual({ line: 4, fields: ['2024-01-02', 'Tea', '-2.00'] })
  })

  it('says what to check when no header row is found: an empty file, or the delimiter it was read with', async () => {
    await expect(planImportBytes(new Uint8Array(0))).rejects.toThrow(/^the file holds no data$/)
    const commas = new TextEncoder().encode('Date,Description,Amount\n2024-01-01,Tea,-2.00\n')
    await expect(planImportBytes(commas, { delimiter: ';' })).rejects.toThrow(
      'found no header row in the file\'s 2 lines (read with the delimiter ";"): check --delimiter, or give --skip-lines N (the lines before the header), --no-header (the file has none: name columns by number, --map date=1) or --map field=Column',
    )
    const preamble = new TextEncoder().encode(`${'note\n'.repeat(60)}Date,Description,Amount\n`)
    await expect(planImportBytes(preamble)).rejects.toThrow(
      /^found no header row in the first 50 lines \(read with the delimiter ","\): check --delimiter/,
    )
  })
})

/**
 * Format detection (content first, the extension as tie-breaker) and the one entry point, over
 * every file of the bank-file corpus (test/helpers/bank-files.ts).
 */
import { describe, expect, it } from 'vitest'
import { detectFormat, PARSERS, parseStatement, StatementParseError } from '../../../src/import/statements/index.js'
import { bytes, fixture, HAS_BANK_FILES, listBankFiles } from './fixtures.js'

const folders = [
  ['ofx', 'ofx'],
  ['qif', 'qif'],
  ['camt053', 'camt053'],
  ['mt940', 'mt940'],
] as const

describe('detectFormat on the real files', () => {
  for (const [folder, format] of folders) {
    const files = listBankFiles(folder)
    it.skipIf(!HAS_BANK_FILES)(`${folder}/: all ${files.length} files are ${format}, by name and by content alone`, () => {
      expect(files.length).toBeGreaterThan(0)
      for (const f of files) {
        expect([f, detectFormat(fixture(`${folder}/${f}`), f)]).toEqual([f, format])
        expect([f, detectFormat(fixture(`${folder}/${f}`), 'download.txt')]).toEqual([f, format])
        expect([f, detectFormat(fixture(`${folder}/${f}`), 'wrong.csv')]).toEqual([f, format])
      }
    })
  }

  it.skipIf(!HAS_BANK_FILES)('tells QFX from OFX by the extension only', () => {
    const amex = fixture('ofx/us-amex-creditcard-sgml-v102-single-line.ofx')
    expect(detectFormat(amex, 'amex.QFX')).toBe('qfx')
    expect(detectFormat(amex, 'amex.ofx')).toBe('ofx')
  })

  it('falls back to the extension when the content says nothing', () => {
    expect(detectFormat(bytes('Date,Amount\n2024-01-01,1.00\n'), 'bank.csv')).toBe('csv')
    expect(detectFormat(bytes('Date,Amount\n'), 'notes.txt')).toBeUndefined()
  })

  it.skipIf(!HAS_BANK_FILES)('every parser sniffs its own fixtures', () => {
    for (const [folder, format] of folders) {
      const parser = PARSERS.find((p) => p.format === format)
      for (const f of listBankFiles(folder)) expect([f, parser?.sniff(fixture(`${folder}/${f}`), 'x.bin')]).toEqual([f, true])
    }
  })
})

describe('parseStatement', () => {
  it.skipIf(!HAS_BANK_FILES)('detects and parses, or takes the format given', () => {
    const sta = fixture('mt940/pl-mbank-soh-etx-control-chars.sta')
    expect(parseStatement(sta, { fileName: 'export.txt' }).format).toBe('mt940')
    expect(parseStatement(sta, { format: 'mt940' }).statements).toHaveLength(1)
    expect(() => parseStatement(sta, { format: 'ofx' })).toThrow(StatementParseError)
  })

  it('sends CSV to the CSV mapping', () => {
    expect(() => parseStatement(bytes('a,b\n1,2\n'), { fileName: 'x.csv' })).toThrow(/CSV statements go through the CSV mapping/)
    expect(() => parseStatement(bytes('a,b\n1,2\n'), { format: 'csv' })).toThrow(StatementParseError)
  })

  it('says so when it cannot tell the format', () => {
    expect(() => parseStatement(bytes('hello'), { fileName: 'x.bin' })).toThrow(/cannot tell the format.*--format/)
  })
})

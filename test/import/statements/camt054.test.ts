/**
 * CAMT.054 (debit/credit notification), on a file built from the ISO 20022 message definition
 * (test/fixtures/bank-files/camt054-credit-and-debit-notification.xml): the same entries as a
 * CAMT.053 statement under another root, one statement per <Ntfctn>, usually without balances.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { detectFormat, parseStatement } from '../../../src/import/statements/index.js'
import { StatementParseError } from '../../../src/import/statements/types.js'
import { bytes, sum } from './fixtures.js'

const FILE = 'camt054-credit-and-debit-notification.xml'
const file = new Uint8Array(readFileSync(join(import.meta.dirname, '../../fixtures/bank-files', FILE)))

describe('CAMT.054', () => {
  it('is told from CAMT.053 by its content, whatever its name', () => {
    expect(detectFormat(file, 'notification.xml')).toBe('camt054')
    expect(detectFormat(file, 'export.camt')).toBe('camt054')
    expect(detectFormat(new Uint8Array(), 'n.camt054')).toBe('camt054')
  })

  it('reads each entry, a batch split into its transfers, with payees, references and dates', () => {
    const r = parseStatement(file, { fileName: FILE })
    expect(r.format).toBe('camt054')
    expect(r.statements).toHaveLength(1)
    const [s] = r.statements
    expect(s.accountHint).toBe('DE02120300000000202051')
    expect(s.currency).toBe('EUR')
    expect(s.openingBalance).toBeUndefined()
    expect(s.closingBalance).toBeUndefined()
    expect(s.transactions.map((t) => [t.date, t.valueDate, t.amountMinor, t.payee])).toEqual([
      ['2026-11-20', undefined, 131840, 'Müller & Söhne GmbH'], // a value date the same as the booking date is not kept
      ['2026-11-20', '2026-11-21', -125000, 'Hausverwaltung Nord'],
      ['2026-11-20', '2026-11-21', -120000, 'Stadtwerke Kiel'],
    ])
    expect(sum(s.transactions)).toBe(131840 - 245000)
    expect(s.transactions[1].memo).toContain('Miete Dezember')
    expect([s.periodStart, s.periodEnd]).toEqual(['2026-11-20', '2026-11-20'])
  })

  it('refuses a statement given as a notification, and the other way round, naming both', () => {
    const asStatement = new TextDecoder().decode(file).replaceAll('camt.054.001.08', 'camt.053.001.08')
    expect(() => parseStatement(bytes(asStatement), { format: 'camt054' })).toThrow(
      new StatementParseError('this is a camt.053 message, not a camt.054 debit/credit notification'),
    )
    expect(() => parseStatement(file, { format: 'camt053' })).toThrow(
      new StatementParseError('this is a camt.054 message, not a camt.053 bank statement'),
    )
  })
})

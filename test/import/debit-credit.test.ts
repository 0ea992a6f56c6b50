/**
 * Debit and credit columns (src/import/debit-credit.ts): a column whose values carry one sign is a
 * magnitude column (debit money out, credit money in); a value with the other sign is a reversal
 * and counts the other way; both columns filled on one row make credit - debit. Hand-made files
 * of test/fixtures/bank-files/ read as `tx import` reads them, and the real debit/credit files of
 * the bank-file corpus keep their sums.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { amountSign, parseLocaleAmount } from '../../src/import/amount.js'
import { planImport, type CsvMapping } from '../../src/import/plan.js'
import { RowMapper } from '../../src/import/map-rows.js'
import { readRecords } from '../../src/import/read-rows.js'
import { columnAmount, debitCreditAmount, SignCounter } from '../../src/import/debit-credit.js'
import { formatMinor } from '../../src/kernel/money.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'

const HAND_MADE = join(import.meta.dirname, '..', 'fixtures', 'bank-files')

async function read(path: string, o: CsvMapping = {}) {
  const plan = await planImport(path, o)
  const conv = new RowMapper(plan, { accountId: 'acct', currency: 'EUR' })
  const rows = []
  for await (const rec of readRecords(path, plan.layout)) {
    const r = conv.map(rec)
    if (r?.ok) rows.push(r)
    else if (r) throw new Error(`line ${r.line}: ${r.reason}`)
  }
  return {
    plan,
    amounts: rows.map((r) => r.request.amount),
    reversals: rows.filter((r) => r.reversal).map((r) => r.line),
    sum: formatMinor(
      rows.reduce((s, r) => s + r.minor, 0),
      2,
    ),
  }
}

describe('the sign of an amount text', () => {
  it('reads a minus before or after, parentheses and Unicode minus; a zero or no amount has none', () => {
    expect(
      ['5,00-', '-5.00', '(5.00)', '\u22125.00', 'EUR -5,00', '5.00', '+5.00', '$1,036.47', '0,00', '-0.00', '', 'see image'].map(
        amountSign,
      ),
    ).toEqual([-1, -1, -1, -1, -1, 1, 1, 1, 0, 0, 0, 0])
  })
})

describe('debit and credit values', () => {
  it('a value with its column’s sign is a magnitude: debit money out, credit money in', () => {
    expect(columnAmount(500, 'debit', 1)).toEqual({ minor: -500, reversal: false })
    expect(columnAmount(500, 'credit', 1)).toEqual({ minor: 500, reversal: false })
    expect(columnAmount(-500, 'debit', -1)).toEqual({ minor: -500, reversal: false })
  })

  it('a value with the other sign is a reversal and flips', () => {
    expect(columnAmount(-500, 'credit', 1)).toEqual({ minor: -500, reversal: true })
    expect(columnAmount(-500, 'debit', 1)).toEqual({ minor: 500, reversal: true })
    expect(columnAmount(500, 'debit', -1)).toEqual({ minor: 500, reversal: true })
  })

  it('both columns filled: credit - debit, each value read by its column', () => {
    const comma = (t: string) => parseLocaleAmount(t, ',', 2)
    expect(debitCreditAmount({ debit: '15,00', credit: '2.000,00' }, { debit: 1, credit: 1 }, comma)).toEqual({
      ok: true,
      minor: 198500,
      reversal: false,
    })
    expect(debitCreditAmount({ debit: '15,00', credit: '5,00-' }, { debit: 1, credit: 1 }, comma)).toEqual({
      ok: true,
      minor: -2000,
      reversal: true,
    })
    expect(debitCreditAmount({ debit: '', credit: '' }, { debit: 1, credit: 1 }, comma)).toEqual({
      ok: false,
      reason: 'no amount: both the debit and the credit column are empty',
    })
    expect(debitCreditAmount({ debit: 'x', credit: '' }, { debit: 1, credit: 1 }, comma)).toEqual({
      ok: false,
      reason: 'debit "x" is not an amount',
    })
  })

  it('a column’s sign is the one most of its values carry (unsigned on a tie); zeros and non-amounts do not count', () => {
    const col = (...texts: string[]) => {
      const c = new SignCounter()
      for (const t of texts) c.add(t)
      return c.usual
    }
    expect(col('5,00', '7,00', '5,00-')).toBe(1)
    expect(col('-50,00', '-100,00', '80,68')).toBe(-1)
    expect(col('-5.00', '5.00')).toBe(1)
    expect(col('0,00', '-0,00', 'n/a', '-1,00')).toBe(-1)
    expect(col()).toBe(1)
  })
})

describe('hand-made bank files with reversals', () => {
  it('a reversed credit written 5,00- in the Haben column (decimal comma) is money out', async () => {
    const r = await read(join(HAND_MADE, 'debit-credit-reversal-trailing-minus.csv'))
    expect(r.amounts).toEqual(['-39.95', '1318.40', '5.00', '-5.00', '-1250.00', '-42.17'])
    expect(r.sum).toBe('-13.72')
    expect(r.reversals).toEqual([5])
    expect(r.plan.notes).toContain(
      'debit "Soll" is money out written unsigned, credit "Haben" money in written unsigned; a value with the other sign is a reversal and counts the other way',
    )
  })

  it('-250.00 in the credit column and -60.00 in the debit column are reversals; both columns filled make credit - debit', async () => {
    const r = await read(join(HAND_MADE, 'debit-credit-reversals-leading-minus-both-filled.csv'))
    expect(r.amounts).toEqual(['-23.99', '1500.00', '250.00', '-250.00', '-60.00', '60.00', '1985.00'])
    // The file's Balance column runs from 5,000.00 (before its first row) to 8,461.01.
    expect(r.sum).toBe('3461.01')
    expect(r.reversals).toEqual([5, 7])
  })
})

describe.skipIf(!HAS_BANK_FILES)('real debit/credit files keep their sums (SOURCES.md)', () => {
  it.each<[string, CsvMapping, string, 1 | -1]>([
    ['ch-ubs-fr-semicolon-debit-credit-apostrophe-thousands.csv', { map: [['description', 'Description 1']] }, '30.00', 1],
    ['us-schwab-checking-quoted-dollar-withdrawal-deposit.csv', {}, '-215.27', 1],
    ['us-capitalone-card-debit-credit-columns.csv', {}, '0.00', 1],
    // Its debit column is written with a minus ("-50,00"): a magnitude column, not four reversals.
    ['fr-style-metadata-header-footer-debit-credit-decimal-comma.csv', { dateFormat: 'DD/MM/YY' }, '1069.32', -1],
  ])('%s', async (file, o, sum, debitSign) => {
    const r = await read(bankFile('csv', file), o)
    expect({ sum: r.sum, reversals: r.reversals, debit: r.plan.signs?.debit }).toEqual({ sum, reversals: [], debit: debitSign })
  })
})

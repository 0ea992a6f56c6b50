import { describe, expect, it } from 'vitest'
import { CATEGORIES, generateDataset } from '../../src/domain/categorization/dataset.js'
import { evaluate, labelOf, splitRows, type EvaluationReport } from '../../src/domain/categorization/evaluate.js'
import { formatMinor } from '../../src/kernel/money.js'
import { ACCOUNTING_CATEGORIES, CASH_FLOW_CATEGORIES } from '../../src/domain/schemas.js'

describe('generateDataset', () => {
  const rows = generateDataset({ size: 5000, seed: 11 })

  it('is deterministic by seed', () => {
    expect(generateDataset({ size: 5000, seed: 11 })).toEqual(rows)
    const other = generateDataset({ size: 5000, seed: 12 })
    expect(other).not.toEqual(rows)
    expect(other.length).toBe(5000)
    expect(generateDataset({ size: 0, seed: 1 })).toEqual([])
  })

  it('maps 20-30 categories onto the enums of docs/api.md section 4, and every row onto one of them', () => {
    expect(CATEGORIES.length).toBeGreaterThanOrEqual(20)
    expect(CATEGORIES.length).toBeLessThanOrEqual(30)
    expect(new Set(CATEGORIES.map((c) => c.category)).size).toBe(CATEGORIES.length)
    for (const c of CATEGORIES) {
      expect(ACCOUNTING_CATEGORIES).toContain(c.accounting_category)
      expect(CASH_FLOW_CATEGORIES).toContain(c.cash_flow_category)
    }
    const triples = new Set(CATEGORIES.map(labelOf))
    for (const r of rows) expect(triples.has(labelOf(r))).toBe(true)
    // Every category shows up in a data set of this size.
    expect(new Set(rows.map((r) => r.category)).size).toBe(CATEGORIES.length)
  })

  it('writes exact amounts with the right sign, dates in the year from start, and bank-like text', () => {
    const start = '2024-03-01'
    const dated = generateDataset({ size: 2000, seed: 3, start })
    for (const r of dated) {
      expect(r.transaction_date >= start && r.transaction_date <= '2025-02-28').toBe(true)
      expect(r.transaction_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    }
    expect(dated.map((r) => r.transaction_date)).toEqual(dated.map((r) => r.transaction_date).sort())
    for (const r of rows) {
      expect(Number.isSafeInteger(r.amount_minor)).toBe(true)
      expect(r.amount).toBe(formatMinor(r.amount_minor, 2))
      expect(r.amount).toMatch(/^-?\d+\.\d{2}$/)
      expect(r.description.trim().length).toBeGreaterThan(0)
      if (['Customer payments', 'Card processor payouts', 'Interest income', 'Owner contribution'].includes(r.category))
        expect(r.amount_minor).toBeGreaterThan(0)
      if (['Rent', 'Payroll', 'Bank fees', 'Fuel', 'Equipment purchase'].includes(r.category)) expect(r.amount_minor).toBeLessThan(0)
    }
    const named = rows.filter((r) => r.merchant_name !== null).length / rows.length
    expect(named).toBeGreaterThan(0.5)
    expect(named).toBeLessThan(0.7)
    expect(new Set(rows.map((r) => r.merchant_name).filter(Boolean)).size).toBeGreaterThan(300)
    const text = rows.map((r) => r.description.toUpperCase()).join('\n')
    for (const noise of [
      'CARD PAYMENT',
      'POS',
      'VISA DEBIT',
      'SEPA-LASTSCHRIFT',
      'ACH DEBIT',
      'DD ',
      'PRLV SEPA',
      'GUTSCHRIFT',
      'VIREMENT',
      'TRANSFERENCIA',
      'OVERBOEKING',
    ])
      expect(text).toContain(noise)
  })

  it('has merchants that genuinely split across categories', () => {
    const amazon = new Set(rows.filter((r) => r.merchant_name === 'Amazon').map((r) => r.category))
    expect(amazon).toEqual(new Set(['Office supplies', 'Equipment purchase']))
    const generic = rows.filter((r) => ['PAYMENT', 'TRANSFER'].includes(r.description.toUpperCase()))
    expect(new Set(generic.map((r) => r.category)).size).toBeGreaterThan(2)
  })
})

describe('splitRows', () => {
  it('holds out a seeded share; test rows are never training rows', () => {
    const rows = generateDataset({ size: 1000, seed: 5 }).map((r, i) => ({ ...r, i }))
    const { train, test } = splitRows(rows, 5, 0.2)
    expect(test.length).toBe(200)
    expect(train.length).toBe(800)
    const inTrain = new Set(train.map((r) => r.i))
    expect(test.some((r) => inTrain.has(r.i))).toBe(false)
    expect(splitRows(rows, 5, 0.2)).toEqual({ train, test })
    expect(splitRows(rows, 6, 0.2).test).not.toEqual(test)
  })
})

describe('evaluate: the calibration contract', () => {
  const THRESHOLD = 0.9

  function expectContract(r: EvaluationReport): void {
    // Of the predictions scored >= 0.9 on held-out rows, at least 90% are right.
    if (r.coverage > 0) expect(r.precision_at_threshold, JSON.stringify({ ...r, calibration: undefined })).toBeGreaterThanOrEqual(THRESHOLD)
    expect(r.train + r.test).toBe(r.size)
    expect(r.calibration.reduce((s, b) => s + b.count, 0)).toBe(r.test)
    for (const b of r.calibration) expect(b.mean_score).toBeGreaterThanOrEqual(b.from)
  }

  const reports = new Map<number, EvaluationReport>()
  const large = (seed: number) => reports.get(seed) ?? reports.set(seed, evaluate({ size: 20_000, seed })).get(seed)!

  it.each([1, 2, 3])('holds at 20000 rows, seed %i, with high accuracy and coverage', (seed) => {
    const r = large(seed)
    expectContract(r)
    expect(r.test).toBe(4000)
    // Measured 0.938-0.942 accuracy and 0.85-0.88 coverage (precision 0.993) on seeds 1..3.
    expect(r.accuracy).toBeGreaterThanOrEqual(0.9)
    expect(r.coverage).toBeGreaterThanOrEqual(0.7)
    expect(r.precision_at_threshold).toBeGreaterThan(r.accuracy)
    // Scores are conservative, yet not uselessly so.
    expect(r.expected_calibration_error).toBeLessThan(0.06)
  })

  it.each([4, 5, 6])('holds with 4000 training rows, seed %i', (seed) => {
    const r = evaluate({ size: 5000, seed })
    expectContract(r)
    expect(r.accuracy).toBeGreaterThanOrEqual(0.85)
    expect(r.coverage).toBeGreaterThan(0.5)
  })

  it.each([7, 8, 9])('holds with 1000 training rows (4000 held out), seed %i', (seed) => {
    const r = evaluate({ size: 5000, seed, testFraction: 0.8 })
    expect(r.train).toBe(1000)
    expectContract(r)
    expect(r.coverage).toBeGreaterThan(0.1)
  })

  it.each([1, 2, 3, 4, 5, 6])('with only 300 training rows (seed %i) few or no predictions reach 0.9, and those are right', (seed) => {
    const r = evaluate({ size: 1500, seed, testFraction: 0.8 })
    expect(r.train).toBe(300)
    expectContract(r)
    expect(r.accuracy).toBeLessThan(0.8) // thin evidence: the model really is unsure
    expect(r.coverage).toBeLessThanOrEqual(0.05)
  })

  it('reports a reliability table of the held-out scores', () => {
    const r = large(1)
    expect(r.threshold).toBe(THRESHOLD)
    expect(r.train_ms).toBeGreaterThan(0)
    expect(r.predict_us_per_row).toBeGreaterThan(0)
    for (const b of r.calibration) {
      expect(b.to - b.from).toBeCloseTo(0.1, 10)
      expect(b.mean_score).toBeLessThanOrEqual(b.to)
      expect(b.accuracy).toBeGreaterThanOrEqual(0)
      expect(b.accuracy).toBeLessThanOrEqual(1)
    }
    // Conservative: in the well-populated top bin, accuracy is at least the mean score claimed.
    const top = r.calibration[r.calibration.length - 1]
    expect(top.from).toBe(0.9)
    expect(top.accuracy).toBeGreaterThanOrEqual(top.mean_score)
    expect(evaluate({ size: 2000, seed: 1 })).toMatchObject({ size: 2000, seed: 1, train: 1600, test: 400 })
  })
})

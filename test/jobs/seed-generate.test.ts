import { describe, expect, it } from 'vitest'
import { generateRows, randomStream, type GenerateSpec } from '../../src/jobs/seed/generate.js'

const spec: GenerateSpec = {
  count: 50,
  seed: 42,
  from: '2026-01-01',
  to: '2026-01-31',
  amount: { min: '-120.00', max: '-3.50' },
  merchants: ['Blue Bottle', 'AWS', 'Uber'],
}

describe('generated transactions', () => {
  it('the same seed gives the same rows; another seed other rows', () => {
    const a = generateRows(spec, 2)
    expect(generateRows({ ...spec }, 2)).toEqual(a)
    expect(generateRows({ ...spec, seed: 43 }, 2)).not.toEqual(a)
    expect(generateRows({ ...spec, seed: '42' }, 2)).not.toEqual(a)
    // Pinned: a change of the generator would change every seeded target.
    expect(a.slice(0, 2)).toMatchSnapshot()
  })

  it('raising count keeps the earlier rows', () => {
    expect(generateRows({ ...spec, count: 80 }, 2).slice(0, 50)).toEqual(generateRows(spec, 2))
  })

  it('stays within the dates and the amount bounds, in whole minor units of the currency', () => {
    const rows = generateRows({ ...spec, count: 2000 }, 2)
    for (const r of rows) {
      expect(r.transaction_date >= '2026-01-01' && r.transaction_date <= '2026-01-31').toBe(true)
      expect(r.amount).toMatch(/^-\d+\.\d{2}$/)
      const cents = Number(r.amount.replace('.', ''))
      expect(cents).toBeGreaterThanOrEqual(-12000)
      expect(cents).toBeLessThanOrEqual(-350)
      expect(spec.merchants).toContain(r.merchant_name)
      expect(r.description).toBe(r.merchant_name)
    }
    // Both ends of the ranges are reachable.
    expect(new Set(rows.map((r) => r.transaction_date)).size).toBe(31)
    expect(new Set(rows.map((r) => r.merchant_name)).size).toBe(3)
    const jpy = generateRows({ ...spec, amount: { min: 1, max: 3 }, count: 200 }, 0)
    expect(new Set(jpy.map((r) => r.amount))).toEqual(new Set(['1', '2', '3']))
  })

  it('fills in {merchant} and {n}, and refuses amounts the currency cannot hold', () => {
    const [r] = generateRows({ ...spec, count: 1, description: 'Card {n}: {merchant}', tags: ['card'] }, 2)
    expect(r.description).toBe(`Card 1: ${r.merchant_name}`)
    expect(r.tags).toEqual(['card'])
    expect(() => generateRows({ ...spec, amount: { min: '1.5', max: '2' } }, 0)).toThrow(/generate.amount.min/)
    expect(() => generateRows({ ...spec, amount: { min: '5', max: '2' } }, 2)).toThrow(/more than max/)
  })

  it('never makes a 0 row: a draw of 0 becomes the nearest amount in range; only such rows change', () => {
    const wide = { ...spec, count: 5000, seed: 7, amount: { min: '-500.00', max: '500.00' } }
    const rows = generateRows(wide, 2)
    // Row 4190 drew 0.00 before: the service refused it, so no seeded target holds it.
    expect(rows[4189].amount).toBe('0.01')
    expect(rows.filter((r) => Number(r.amount) === 0)).toEqual([])
    for (const [min, max, only] of [
      ['0', '0.02', /^0\.0[12]$/],
      ['-0.02', '0', /^-0\.0[12]$/],
    ] as const) {
      const edge = generateRows({ ...spec, count: 300, amount: { min, max } }, 2)
      for (const r of edge) expect(r.amount).toMatch(only)
    }
    const both = new Set(generateRows({ ...spec, count: 300, amount: { min: '-0.01', max: '0.01' } }, 2).map((r) => r.amount))
    expect(both).toEqual(new Set(['-0.01', '0.01']))
    expect(() => generateRows({ ...spec, amount: { min: '0', max: '0.00' } }, 2)).toThrow(/both 0/)
  })

  it('the random stream is a pure function of its seed', () => {
    const a = randomStream('x')
    const b = randomStream('x')
    const xs = Array.from({ length: 5 }, () => a())
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs)
    for (const x of xs) expect(Number.isInteger(x) && x >= 0 && x < 2 ** 32).toBe(true)
  })
})

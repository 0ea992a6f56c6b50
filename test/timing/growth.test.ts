/** The growth measure tells a linear cost from a quadratic one (test/helpers/growth.ts). */
import { describe, expect, it } from 'vitest'
import { growth } from '../helpers/growth.js'

/** Work in proportion to n (linear) or to n squared (quadratic), that the compiler cannot drop. */
function linear(n: number): number {
  let x = 0
  for (let i = 0; i < n; i++) x = (x * 31 + i) | 0
  return x
}
function quadratic(n: number): number {
  let x = 0
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) x = (x * 31 + j) | 0
  return x
}

describe('growth', () => {
  it('measures about 4x for a linear cost at 4x the input, and over 8x for a quadratic one', async () => {
    const lin = await growth(
      () => linear(5_000_000),
      () => linear(20_000_000),
      { bound: 8 },
    )
    expect(lin.growth, lin.text).toBeGreaterThan(2.5)
    expect(lin.growth, lin.text).toBeLessThan(6)
    const quad = await growth(
      () => quadratic(2_000),
      () => quadratic(8_000),
      { bound: 8, runs: 3, rounds: 1 },
    )
    expect(quad.growth, quad.text).toBeGreaterThan(8)
  })
})

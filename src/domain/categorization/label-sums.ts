/** The model's log joint of each label for a row: the inner loop of every prediction (./model.ts). */

/**
 * `out[l]` = `logPrior[l] - k * logDenominator[l]` plus, in the row's order, `logCounts[bases[i] + l]`
 * for each of the row's `k` tokens (`bases[i]`: the offset of its row of the token x label table),
 * for the labels 0 to n - 1. Each label's sum is that chain of additions in that order, so bit for
 * bit the plain sum; four labels at a time, each in a register of its own, since one label's
 * additions wait on each other and four chains side by side do not.
 */
export function labelSums(
  out: Float64Array,
  n: number,
  logPrior: Float64Array,
  logDenominator: Float64Array,
  logCounts: Float64Array,
  bases: Int32Array,
  k: number,
): void {
  let l = 0
  for (; l + 4 <= n; l += 4) {
    let x0 = logPrior[l] - k * logDenominator[l]
    let x1 = logPrior[l + 1] - k * logDenominator[l + 1]
    let x2 = logPrior[l + 2] - k * logDenominator[l + 2]
    let x3 = logPrior[l + 3] - k * logDenominator[l + 3]
    for (let i = 0; i < k; i++) {
      const at = bases[i] + l
      x0 += logCounts[at]
      x1 += logCounts[at + 1]
      x2 += logCounts[at + 2]
      x3 += logCounts[at + 3]
    }
    out[l] = x0
    out[l + 1] = x1
    out[l + 2] = x2
    out[l + 3] = x3
  }
  for (; l < n; l++) {
    let x = logPrior[l] - k * logDenominator[l]
    for (let i = 0; i < k; i++) x += logCounts[bases[i] + l]
    out[l] = x
  }
}

/**
 * Generated transactions: `count` rows between two dates, amounts between two bounds, merchants
 * from a list, from a seeded random stream. The same seed and inputs give the same rows on every
 * machine (integer arithmetic only), and every row draws the same number of values, so raising
 * `count` adds rows and keeps the earlier ones as they were. No row is 0 (the service refuses a
 * transaction that moves nothing): a draw of 0 becomes the nearest amount in range, 0.01 or -0.01.
 */
import { formatMinor, parseAmount } from '../../kernel/money.js'

/** sfc32 seeded by a 128-bit hash of the seed text: small, fast and the same everywhere. */
export function randomStream(seed: string | number): () => number {
  let h1 = 1779033703
  let h2 = 3144134277
  let h3 = 1013904242
  let h4 = 2773480762
  const text = `${typeof seed}:${seed}`
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  let a = (h1 ^ h2 ^ h3 ^ h4) >>> 0
  let b = (h2 ^ h1) >>> 0
  let c = (h3 ^ h1) >>> 0
  let d = (h4 ^ h1) >>> 0
  const next = () => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  for (let i = 0; i < 15; i++) next()
  return next
}

/** An integer in [0, n) from one 32-bit draw (exact: n < 2^21 keeps the product under 2^53). */
function below(r: number, n: number): number {
  return Math.floor((r * n) / 2 ** 32)
}

export interface GenerateSpec {
  count: number
  seed: string | number
  from: string
  to: string
  amount: { min: string | number; max: string | number }
  merchants: string[]
  /** `{merchant}` and `{n}` are filled in; the merchant name when not given. */
  description?: string
  category?: string
  accounting_category?: string
  cash_flow_category?: string
  tags?: string[]
}

export interface GeneratedRow {
  transaction_date: string
  description: string
  amount: string
  merchant_name: string
  category?: string
  accounting_category?: string
  cash_flow_category?: string
  tags?: string[]
}

const DAY_MS = 86_400_000

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}

/** Bounds of the amount range in minor units; a message when they do not fit the currency. */
export function amountBounds(
  spec: GenerateSpec['amount'],
  exponent: number,
): { min: number; max: number } | { error: string; path: string } {
  const min = parseAmount(spec.min, exponent)
  if (!min.ok) return { path: 'generate.amount.min', error: min.message }
  const max = parseAmount(spec.max, exponent)
  if (!max.ok) return { path: 'generate.amount.max', error: max.message }
  if (min.minor > max.minor) return { path: 'generate.amount', error: `min (${spec.min}) is more than max (${spec.max})` }
  if (min.minor === 0 && max.minor === 0)
    return { path: 'generate.amount', error: 'min and max are both 0: a transaction must move money, give a range around other amounts' }
  return { min: min.minor, max: max.minor }
}

/** The rows of a `generate` block, for a currency with `exponent` decimals. */
export function generateRows(spec: GenerateSpec, exponent: number): GeneratedRow[] {
  const bounds = amountBounds(spec.amount, exponent)
  if ('error' in bounds) throw new Error(`${bounds.path}: ${bounds.error}`)
  const days = daysBetween(spec.from, spec.to) + 1
  if (days < 1) throw new Error(`generate.from (${spec.from}) is after generate.to (${spec.to})`)
  const span = BigInt(bounds.max - bounds.min + 1)
  const start = Date.parse(`${spec.from}T00:00:00Z`)
  const next = randomStream(spec.seed)
  const rows: GeneratedRow[] = []
  for (let i = 0; i < spec.count; i++) {
    // Four draws per row, always: date, amount (two), merchant.
    const dayDraw = next()
    const hi = next()
    const lo = next()
    const merchantDraw = next()
    const date = new Date(start + below(dayDraw, days) * DAY_MS).toISOString().slice(0, 10)
    const drawn = bounds.min + Number(((BigInt(hi) << 32n) | BigInt(lo)) % span)
    // Only a row that was 0 changes, so the rows a seed created before stay the same.
    const minor = drawn !== 0 ? drawn : bounds.max >= 1 && (bounds.min > -1 || (lo & 1) === 0) ? 1 : -1
    const merchant = spec.merchants[below(merchantDraw, spec.merchants.length)]
    const row: GeneratedRow = {
      transaction_date: date,
      description: spec.description ? spec.description.replaceAll('{merchant}', merchant).replaceAll('{n}', String(i + 1)) : merchant,
      amount: formatMinor(minor, exponent),
      merchant_name: merchant,
    }
    if (spec.category !== undefined) row.category = spec.category
    if (spec.accounting_category !== undefined) row.accounting_category = spec.accounting_category
    if (spec.cash_flow_category !== undefined) row.cash_flow_category = spec.cash_flow_category
    if (spec.tags !== undefined) row.tags = spec.tags
    rows.push(row)
  }
  return rows
}

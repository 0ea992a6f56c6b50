/**
 * A review batch's pending rows as they stand, summed for a person who decides whether they land
 * (an agent's proposal of them, docs/agents.md): their count, sums per currency, dates, the first few,
 * and their versions, which the approval reads again.
 */
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { currencyExponent } from '../../kernel/currencies.js'
import { minorToNumber, parseAmount } from '../../kernel/money.js'
import type { Db } from '../../store/schema.js'
import { RowVersions } from '../row-versions.js'

/** Rows the summary lists; the versions hold them all. */
const LISTED = 50

/** `currency`: the account's, for a row that names none (the batch is the company's: the caller found it). */
export async function pendingRowsOf(db: Kysely<Db>, batchId: string, currency: string) {
  const versions = new RowVersions()
  const sums = new Map<string, { rows: number; minor: bigint }>()
  const listed: Array<{ line: number; transaction_date: string; amount: string | number; currency_code: string; description: string }> = []
  let first: string | null = null
  let last: string | null = null
  let after = 0
  for (;;) {
    const page = await db
      .selectFrom('import_pending_rows')
      .select(['line', 'body'])
      .where('batch_id', '=', batchId)
      .where('line', '>', after)
      .orderBy('line')
      .limit(1000)
      .execute()
    for (const r of page) {
      const line = Number(r.line)
      versions.add('import', String(line), createHash('sha256').update(r.body).digest('hex'))
      const row = JSON.parse(r.body) as { transaction_date: string; amount: string | number; currency_code?: string; description: string }
      const code = row.currency_code ?? currency
      const amount = parseAmount(row.amount, currencyExponent(code))
      const s = sums.get(code) ?? { rows: 0, minor: 0n }
      s.rows++
      if (amount.ok) s.minor += BigInt(amount.minor)
      sums.set(code, s)
      if (first === null || row.transaction_date < first) first = row.transaction_date
      if (last === null || row.transaction_date > last) last = row.transaction_date
      if (listed.length < LISTED)
        listed.push({ line, transaction_date: row.transaction_date, amount: row.amount, currency_code: code, description: row.description })
    }
    if (page.length < 1000) break
    after = Number(page[page.length - 1].line)
  }
  const totals = [...sums]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency_code, s]) => ({ currency_code, rows: s.rows, amount: minorToNumber(s.minor, currency_code) }))
  return { versions: versions.done(), totals, first_date: first, last_date: last, transactions: listed }
}

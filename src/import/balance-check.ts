/**
 * The running balance checked on every row before anything is written: a pass over the file
 * through the map stage alone (map-rows.ts), which follows the plan's balance column row by row.
 * A row where the balance is not the one before it plus the amounts since refuses the file,
 * naming that line and the reading that was tried; the plan chose that reading because the
 * balance chained with it over the rows it read (money-readings.ts).
 */
import { columnName } from './column-evidence.js'
import { type BalanceBreak, RowMapper } from './map-rows.js'
import type { ImportPlan } from './plan-shape.js'
import type { CsvRecord } from './read-rows.js'

export interface BalanceOutcome {
  /** Rows read, and those with a balance, each checked. */
  rows: number
  balanced: number
  firstBreak?: BalanceBreak
  ends?: { opening: number; closing: number }
}

/** The map stage over every record, for its running balance alone. */
export async function checkBalance(
  chunks: AsyncIterable<CsvRecord[]>,
  plan: ImportPlan,
  o: ConstructorParameters<typeof RowMapper>[1],
): Promise<BalanceOutcome | undefined> {
  if (!plan.balance) return undefined
  const mapper = new RowMapper(plan, o)
  for await (const records of chunks) for (const rec of records) mapper.map(rec)
  mapper.close()
  return mapper.balanceResult()
}

/** How the plan reads a row's amount, in its own words. */
export function readingOf(plan: ImportPlan): string {
  const { map, header } = plan
  const name = (i: number) => columnName(header, i)
  if (map.amount === undefined) return `money out <- ${name(map.debit!)}, money in <- ${name(map.credit!)}`
  const sign =
    map.indicator !== undefined ? ` with its sign from ${name(map.indicator)}` : plan.invertSign ? ' with every sign flipped' : ''
  return `amount <- ${name(map.amount)}${sign}`
}

/** Why the file is refused: where its balance and its amounts part; undefined when they never do (or --no-balance-check). */
export function balanceRefusal(plan: ImportPlan, outcome: BalanceOutcome | undefined): string | undefined {
  const b = outcome?.firstBreak
  if (!plan.balance?.check || !b) return undefined
  const column = columnName(plan.header, plan.balance.column)
  return `line ${b.line}: the balance ${JSON.stringify(b.balance)} in ${column} is not the balance before it plus the amounts since (they lead to ${b.expected}): the rows read as ${readingOf(plan)} do not chain with ${column} there; nothing was imported. Check that line, read the amounts otherwise with --map, or give --no-balance-check to import the rows as read, unchecked`
}

/** The summary's words on the balance: "balance checked on 12 of 12 rows". */
export function balanceNote(plan: ImportPlan, outcome: BalanceOutcome | undefined): string | undefined {
  if (!plan.balance || !outcome) return undefined
  const column = columnName(plan.header, plan.balance.column)
  if (!plan.balance.check) return `balance ${column} not checked (--no-balance-check)`
  return `balance checked on ${outcome.balanced.toLocaleString('en-US')} of ${outcome.rows.toLocaleString('en-US')} rows (${column})`
}

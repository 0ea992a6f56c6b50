/**
 * The SQL expressions the domain puts into its kysely queries, the same on both dialects (what
 * differs by dialect is `store.sql`, DialectSql). The domain writes no raw SQL (scripts/check-layers.mjs):
 * it names what it computes here. The text is what the domain wrote before, so plans are unchanged
 * (test/store/query-plans.test.ts reads some of it).
 *
 * Column names are written into the SQL as given, so they are typed as literals: a `string` that
 * could come from a request does not compile (`Named`).
 */
import { type RawBuilder, sql } from 'kysely'

/** A name written in the code (a column, `table.column`), never a string computed at run time. */
export type Named<C extends string> = string extends C ? never : C

const name = <C extends string>(c: Named<C>) => sql.raw(c)

/** The rows counted: `count(*)`. */
export const countAll = (): RawBuilder<number> => sql<number>`count(*)`

/** The greatest value of a column (null over no rows); ids and seqs come back as number or text. */
export const maxOf = <C extends string>(column: Named<C>): RawBuilder<number | string | null> =>
  sql<number | string | null>`max(${name(column)})`

/** The least value of a text column (null over no rows). */
export const minOf = <C extends string>(column: Named<C>): RawBuilder<string | null> => sql<string | null>`min(${name(column)})`

/**
 * Exact sums of minor units, read back as text (parsed by the domain's `exact`): PostgreSQL answers
 * SUM(bigint) as numeric, SQLite as a 64-bit integer; text is exact on both. Zero over no rows.
 */
const sumText = (e: RawBuilder<unknown>): RawBuilder<string> => sql<string>`CAST(COALESCE(SUM(${e}), 0) AS TEXT)`

/** The exact sum of a column (or of a kept total: `g.n`), as text; '0' over no rows. */
export const exactSum = <C extends string>(column: Named<C>): RawBuilder<string> => sumText(name(column))

/** The rows counted exactly, as text, for the figures read as sums (a count of a group: `SUM(1)`). */
export const exactCount = (): RawBuilder<string> => sumText(sql`1`)

/** The exact sum of a group's column, as text (a group has rows: no COALESCE). */
export const groupSum = <C extends string>(column: Named<C>): RawBuilder<string> => sql<string>`CAST(SUM(${name(column)}) AS TEXT)`

/** The exact sums of a group's positive and of its negative values of a column, as text. */
export const groupSumOfSign = <C extends string>(column: Named<C>, sign: 1 | -1): RawBuilder<string> =>
  sign > 0
    ? sql<string>`CAST(SUM(CASE WHEN ${name(column)} > 0 THEN ${name(column)} ELSE 0 END) AS TEXT)`
    : sql<string>`CAST(SUM(CASE WHEN ${name(column)} < 0 THEN ${name(column)} ELSE 0 END) AS TEXT)`

/** Net of the kept day totals (report_day_flows): money in less money out, exactly, as text. */
export const exactNetOfFlows = (): RawBuilder<string> => sumText(sql`inflows - outflows`)

/**
 * What the accounts read per group of the kept day totals (report_day_flows): its rows (`n`), the sum
 * of `amount` in the rows' own currency, and the net in the base currency (`base`), exact, as text.
 */
export const dayTotals = () => [exactSum('n').as('n'), exactSum('amount').as('amount'), exactNetOfFlows().as('base')] as const

/** A text '0', for a figure a query shape has no sum for. */
export const zeroText = (): RawBuilder<string> => sql<string>`'0'`

const ownCurrency = (currency: string) => sql<boolean>`currency_code = ${currency}`

/** Sums over transaction rows of one account currency (accounts' balances). */
export const inCurrency = {
  /** The exact sum of the amounts in `currency`, as text. */
  amount: (currency: string): RawBuilder<string> => sumText(sql`CASE WHEN ${ownCurrency(currency)} THEN amount ELSE 0 END`),
  /** How many rows are in another currency than `currency`, as text. */
  others: (currency: string): RawBuilder<string> => sumText(sql`CASE WHEN ${ownCurrency(currency)} THEN 0 ELSE 1 END`),
}

/**
 * The summary report's sums over transaction rows (one group per day and category, merged by an outer
 * sum): plain SUMs, as numbers, that the outer query sums exactly.
 */
export const rowSums = {
  /** `SUM(base_amount)`: the net. */
  net: (): RawBuilder<number> => sql<number>`SUM(base_amount)`,
  /** Money in: the positive base amounts. */
  inflows: (): RawBuilder<number> => sql<number>`SUM(CASE WHEN base_amount > 0 THEN base_amount ELSE 0 END)`,
  /** Rows whose status is pending. */
  pending: (): RawBuilder<number> => sql<number>`SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END)`,
  /** Rows not reconciled. */
  unreconciled: (): RawBuilder<number> => sql<number>`SUM(CASE WHEN is_reconciled = 0 THEN 1 ELSE 0 END)`,
}

/**
 * The month-end status's counts over `transactions` joined to `bank_accounts` (closing/status.ts), exact,
 * as text: the open points of a month.
 */
export const openPoints = {
  notReconciled: (): RawBuilder<string> => sumText(sql`CASE WHEN transactions.is_reconciled = 0 THEN 1 ELSE 0 END`),
  uncategorized: (): RawBuilder<string> => sumText(sql`CASE WHEN transactions.category IS NULL THEN 1 ELSE 0 END`),
  pending: (): RawBuilder<string> => sumText(sql`CASE WHEN transactions.status = 'pending' THEN 1 ELSE 0 END`),
  /** Rows in another currency than their account's, on an account not in the company's `base` currency. */
  unconverted: (base: string): RawBuilder<string> =>
    sumText(
      sql`CASE WHEN transactions.currency_code <> bank_accounts.currency_code AND bank_accounts.currency_code <> ${base} THEN 1 ELSE 0 END`,
    ),
}

/** A condition no row meets: an empty answer from the same query. */
export const noRows = (): RawBuilder<boolean> => sql<boolean>`1 = 0`

/**
 * `column = value`, written `column + 0 = value` so that neither planner reads it through an index on
 * the column: for when another condition's index narrows more.
 */
export const equalsBesideIndex = <C extends string>(column: Named<C>, value: number): RawBuilder<boolean> =>
  sql<boolean>`${sql.ref(column)} + 0 = ${value}`

/** `column LIKE pattern` (escaped with a backslash), as each dialect compares case. */
export const like = <C extends string>(column: Named<C>, pattern: string): RawBuilder<boolean> =>
  sql<boolean>`${name(column)} LIKE ${pattern} ESCAPE '\\'`

/** A text column, as DialectSql's text helpers take it. */
export const text = <C extends string>(column: Named<C>): RawBuilder<string> => sql<string>`${name(column)}`

/** A nullable text column, NULL read as ''. */
export const textOrEmpty = <C extends string>(column: Named<C>): RawBuilder<string> => sql<string>`coalesce(${name(column)}, '')`

/** The first `length` characters of the first column, or of the second where the first is NULL. */
export const leadingText = <A extends string, B extends string>(column: Named<A>, orElse: Named<B>, length: number): RawBuilder<string> =>
  sql<string>`substr(coalesce(${name(column)}, ${name(orElse)}), 1, ${length})`

/** A name as compared: trimmed, lower case. */
export const foldedName = <C extends string>(column: Named<C>): RawBuilder<string> => sql<string>`lower(trim(${name(column)}))`

/** An update of a counter: the column plus `by` (a parameter), or plus 1. */
export const incremented = <C extends string>(column: Named<C>, by?: number): RawBuilder<number> =>
  by === undefined ? sql<number>`${name(column)} + 1` : sql<number>`${name(column)} + ${by}`

/** A number less the sum of counter columns: `n - a - b`, what is left of a count after the others. */
export const lessColumns = <C extends string>(n: number, ...columns: Named<C>[]): RawBuilder<number> =>
  sql<number>`${n} - ${sql.join(columns.map(name), sql` - `)}`

/** An update of a counter: the column less 1. */
export const decremented = <C extends string>(column: Named<C>): RawBuilder<number> => sql<number>`${name(column)} - 1`

/**
 * An upsert's update of a per-minute counter (`count`, `minute_window` of `table`) for an attempt in
 * `window`: a new window starts again at 1, the same window counts one more.
 */
export const minuteCounter = <T extends string>(table: Named<T>, window: number) => ({
  count: sql<number>`CASE WHEN ${name(table)}.minute_window < ${window} THEN 1 ELSE ${name(table)}.count + 1 END`,
  minute_window: sql<number>`CASE WHEN ${name(table)}.minute_window < ${window} THEN ${window} ELSE ${name(table)}.minute_window END`,
})

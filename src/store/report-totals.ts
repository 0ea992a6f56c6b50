/**
 * Report totals kept with the rows: what the reports sum, taken per day and per month, so a
 * report reads a few thousand totals instead of every transaction of its range.
 *
 * - report_day_flows: per company, day, account, cash-flow category and currency: count, money in
 *   and out (base_amount), and the sum of `amount` in its own currency (for the account balances).
 * - report_month_groups: per company, month, account, cash-flow category, accounting category,
 *   category and merchant: count, net and money in (base_amount), pending and unreconciled counts.
 *
 * Void transactions are left out, as the reports leave them out. The totals are kept by the database
 * itself, inside the very statement that writes the rows, so every write path (create, update,
 * delete, batch, bulk load, COPY, statement lines, rate re-conversion) keeps them without knowing:
 * SQLite by row triggers (a bulk load sets the insert trigger aside and adds each batch by one grouped
 * upsert: addRowsSql), PostgreSQL by statement triggers over the transition tables (one grouped
 * upsert per statement, not one per row). `rebuildReportTotals` computes them again from the rows.
 *
 * The nullable key columns (the categories and the merchant) are stored as '' for NULL and '.' before
 * the value otherwise: NULLs never conflict in a unique key, and '' is a value a category may take.
 */
import { sql, type Kysely } from 'kysely'

/** The stored form of a nullable key column (see above). */
const key = (v: string) => `CASE WHEN ${v} IS NULL THEN '' ELSE '.' || ${v} END`

const POS = (r: string) => `CASE WHEN ${r}base_amount > 0 THEN ${r}base_amount ELSE 0 END`
const NEG = (r: string) => `CASE WHEN ${r}base_amount < 0 THEN 0 - ${r}base_amount ELSE 0 END`

const DAY_KEY = ['company_key', 'transaction_date', 'cash_flow', 'account_key', 'currency_code']
const DAY_SUMS = ['n', 'inflows', 'outflows', 'amount']
const MONTH_KEY = ['company_key', 'month', 'account_key', 'cash_flow', 'accounting', 'category', 'merchant']
const MONTH_SUMS = ['n', 'net', 'inflows', 'pending', 'unreconciled']

/** The key expressions of one row (`r` is its prefix: 'NEW.', 'OLD.' or a table alias with its dot). */
const dayKey = (r: string) => [
  `${r}company_key`,
  `${r}transaction_date`,
  key(`${r}cash_flow_category`),
  `${r}account_key`,
  `${r}currency_code`,
]
const monthKey = (r: string) => [
  `${r}company_key`,
  `substr(${r}transaction_date, 1, 7)`,
  `${r}account_key`,
  key(`${r}cash_flow_category`),
  key(`${r}accounting_category`),
  key(`${r}category`),
  key(`${r}merchant_name`),
]
/** The sums of one row, times sign `s` (1 or -1). */
const daySums = (r: string, s: string) => [s, `${s} * ${POS(r)}`, `${s} * ${NEG(r)}`, `${s} * ${r}amount`]
const monthSums = (r: string, s: string) => [
  s,
  `${s} * ${r}base_amount`,
  `${s} * ${POS(r)}`,
  `${s} * CASE WHEN ${r}status = 'pending' THEN 1 ELSE 0 END`,
  `${s} * CASE WHEN ${r}is_reconciled = 0 THEN 1 ELSE 0 END`,
]

const TABLES = {
  day: { name: 'report_day_flows', key: DAY_KEY, sums: DAY_SUMS, keyOf: dayKey, sumsOf: daySums },
  month: { name: 'report_month_groups', key: MONTH_KEY, sums: MONTH_SUMS, keyOf: monthKey, sumsOf: monthSums },
} as const
/** One table of totals: its name, key and sum columns, and the expressions of a row's key and sums. */
export type TotalsTable = (typeof TABLES)[keyof typeof TABLES]
type Table = TotalsTable
/** Both tables of totals, day flows first. */
export const TOTALS_TABLES: readonly TotalsTable[] = [TABLES.day, TABLES.month]

/** The upsert clause that adds a row of sums to the totals of its key. */
export const upsert = (t: Table) =>
  `ON CONFLICT (${t.key.join(', ')}) DO UPDATE SET ${t.sums.map((c) => `${c} = ${t.name}.${c} + excluded.${c}`).join(', ')}`

/** The columns a trigger of an update watches: an update of any other leaves the totals as they are. */
export const WATCHED =
  'company_key, account_key, transaction_date, cash_flow_category, accounting_category, category, merchant_name, status, is_reconciled, base_amount, amount, currency_code'

/**
 * What the totals need of a dialect (its folder's `report-triggers.ts`): the type of a sum of money,
 * what follows a table's columns, and the triggers that keep the totals with the rows.
 */
export interface ReportTotalsDialect {
  readonly money: string
  /** After `CREATE TABLE name (...)`: SQLite keeps the tables by their key (WITHOUT ROWID). */
  readonly tableOptions: string
  /** The statements that create the triggers keeping `tables` (TOTALS_TABLES). */
  triggers(tables: readonly TotalsTable[]): string[]
  /** The statements that drop them. */
  dropTriggers(): string[]
}

/** Tables, indexes and triggers: created by migration 0018. */
export function reportTotalsDdl(d: ReportTotalsDialect): string[] {
  return [
    `CREATE TABLE report_day_flows (company_key integer NOT NULL, transaction_date text NOT NULL, cash_flow text NOT NULL,
      account_key integer NOT NULL, currency_code text NOT NULL,
      ${DAY_SUMS.map((c) => `${c} ${d.money} NOT NULL`).join(', ')},
      PRIMARY KEY (${DAY_KEY.join(', ')}))${d.tableOptions}`,
    'CREATE INDEX report_day_flows_account ON report_day_flows (account_key, transaction_date, cash_flow)',
    `CREATE TABLE report_month_groups (company_key integer NOT NULL, month text NOT NULL, account_key integer NOT NULL,
      cash_flow text NOT NULL, accounting text NOT NULL, category text NOT NULL, merchant text NOT NULL,
      ${MONTH_SUMS.map((c) => `${c} ${d.money} NOT NULL`).join(', ')},
      PRIMARY KEY (${MONTH_KEY.join(', ')}))${d.tableOptions}`,
    'CREATE INDEX report_month_groups_account ON report_month_groups (account_key, month)',
    ...d.triggers(TOTALS_TABLES),
  ]
}

/** The names of the three triggers (insert, update, delete: report_totals_<name>). */
export const TRIGGER_EVENTS = ['insert', 'update', 'delete'] as const

export function dropReportTotalsDdl(d: ReportTotalsDialect): string[] {
  return [...d.dropTriggers(), 'DROP TABLE IF EXISTS report_day_flows', 'DROP TABLE IF EXISTS report_month_groups']
}

/** SQL that computes every total again from the rows (of one company, when given). */
function rebuildSql(companyKey: number | undefined): string[] {
  const where = companyKey === undefined ? '' : ` AND company_key = ${Number(companyKey)}`
  const out: string[] = []
  for (const t of TOTALS_TABLES) {
    const cols = [...t.key, ...t.sums]
    const keys = t.keyOf('')
    out.push(
      `DELETE FROM ${t.name}${companyKey === undefined ? '' : ` WHERE company_key = ${Number(companyKey)}`}`,
      `INSERT INTO ${t.name} (${cols.join(', ')})
        SELECT ${keys.join(', ')}, ${t
          .sumsOf('', '1')
          .map((e) => `sum(${e})`)
          .join(', ')}
        FROM transactions WHERE status <> 'void'${where}
        GROUP BY ${keys.join(', ')}`,
    )
  }
  return out
}

/**
 * Compute the report totals again from the rows: the whole table, or one company's. Run it inside a
 * write transaction (the migration does; `db` is that transaction).
 */
export async function rebuildReportTotals<T>(db: Kysely<T>, companyKey?: number): Promise<void> {
  for (const s of rebuildSql(companyKey)) await sql.raw(s).execute(db)
}

/** SQLite's row trigger that adds each inserted row to the totals; a bulk load sets it aside (sqlite/bulk-load.ts). */
export const INSERT_TRIGGER = 'report_totals_insert'

/**
 * One grouped upsert a table that adds the rows matching `where` (SQL over `transactions`, with its
 * own parameters) to the totals: what the insert trigger does row by row, for a whole batch at once.
 */
export function addRowsSql(where: string): string[] {
  return TOTALS_TABLES.map((t) => {
    const keys = t.keyOf('')
    return `INSERT INTO ${t.name} (${[...t.key, ...t.sums].join(', ')})
      SELECT ${keys.join(', ')}, ${t
        .sumsOf('', '1')
        .map((e) => `sum(${e})`)
        .join(', ')}
      FROM transactions WHERE (${where}) AND status <> 'void'
      GROUP BY ${keys.join(', ')}
      ${upsert(t)}`
  })
}

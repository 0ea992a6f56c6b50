/**
 * PostgreSQL's report totals (report-totals.ts): statement triggers over the transition tables, one
 * grouped upsert per statement instead of one per row. PostgreSQL allows no column list on a trigger
 * with transition tables: an update of other columns nets to zero per group, and HAVING leaves those
 * groups out.
 */
import { type ReportTotalsDialect, TRIGGER_EVENTS, type TotalsTable, upsert } from '../report-totals.js'

/** One grouped upsert of what a statement's transition tables (old_rows, new_rows) change. */
function statementDelta(t: TotalsTable, sources: ReadonlyArray<readonly ['old_rows' | 'new_rows', string]>): string {
  const cols = [...t.key, ...t.sums]
  const parts = sources.map(
    ([table, s]) =>
      `SELECT ${[...t.keyOf('r.'), ...t.sumsOf('r.', s)].map((e, i) => `${e} AS ${cols[i]}`).join(', ')} FROM ${table} r WHERE r.status <> 'void'`,
  )
  return `INSERT INTO ${t.name} (${cols.join(', ')})
    SELECT ${t.key.join(', ')}, ${t.sums.map((c) => `sum(${c})`).join(', ')} FROM (${parts.join(' UNION ALL ')}) c
    GROUP BY ${t.key.join(', ')}
    HAVING ${t.sums.map((c) => `sum(${c}) <> 0`).join(' OR ')}
    ORDER BY ${t.key.join(', ')}
    ${upsert(t)};`
}

/** Each trigger: its event, the transition tables it references, and their sign. */
const EVENTS = {
  insert: ['INSERT', 'NEW TABLE AS new_rows', [['new_rows', '1']]],
  update: [
    'UPDATE',
    'OLD TABLE AS old_rows NEW TABLE AS new_rows',
    [
      ['old_rows', '-1'],
      ['new_rows', '1'],
    ],
  ],
  delete: ['DELETE', 'OLD TABLE AS old_rows', [['old_rows', '-1']]],
} as const

export const postgresReportTotals: ReportTotalsDialect = {
  money: 'bigint',
  tableOptions: '',
  triggers: (both) =>
    TRIGGER_EVENTS.flatMap((name) => {
      const [event, referencing, sources] = EVENTS[name]
      const body = both.map((t) => statementDelta(t, sources)).join('\n')
      return [
        `CREATE FUNCTION report_totals_${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        ${body}
        RETURN NULL;
      END $$`,
        `CREATE TRIGGER report_totals_${name} AFTER ${event} ON transactions REFERENCING ${referencing}
        FOR EACH STATEMENT EXECUTE FUNCTION report_totals_${name}()`,
      ]
    }),
  dropTriggers: () => [
    ...TRIGGER_EVENTS.map((n) => `DROP TRIGGER IF EXISTS report_totals_${n} ON transactions`),
    ...TRIGGER_EVENTS.map((n) => `DROP FUNCTION IF EXISTS report_totals_${n}()`),
  ],
}

/**
 * SQLite's report totals (report-totals.ts): row triggers, each adding or taking away one row's key
 * and sums; an update that changes none of the watched columns runs none. A bulk load sets the
 * insert trigger aside and adds each batch by one grouped upsert (addRowsSql, sqlite/bulk-load.ts).
 */
import { type ReportTotalsDialect, TRIGGER_EVENTS, type TotalsTable, upsert, WATCHED } from '../report-totals.js'

/** Add (s = '1') or take away (s = '-1') one row (NEW or OLD) from a table's totals. */
function rowDelta(t: TotalsTable, r: 'NEW.' | 'OLD.', s: string): string {
  return `INSERT INTO ${t.name} (${[...t.key, ...t.sums].join(', ')})
    SELECT ${[...t.keyOf(r), ...t.sumsOf(r, s)].join(', ')} WHERE ${r}status <> 'void'
    ${upsert(t)};`
}

export const sqliteReportTotals: ReportTotalsDialect = {
  money: 'integer',
  tableOptions: ' WITHOUT ROWID',
  triggers: (both) => [
    `CREATE TRIGGER report_totals_insert AFTER INSERT ON transactions BEGIN
        ${both.map((t) => rowDelta(t, 'NEW.', '1')).join('\n')}
      END`,
    // An update that writes every column but changes none of these (a description, a pairing) costs nothing.
    `CREATE TRIGGER report_totals_update AFTER UPDATE OF ${WATCHED} ON transactions
        WHEN ${WATCHED.split(', ')
          .map((c) => `OLD.${c} IS NOT NEW.${c}`)
          .join(' OR ')} BEGIN
        ${both.map((t) => `${rowDelta(t, 'OLD.', '-1')}\n${rowDelta(t, 'NEW.', '1')}`).join('\n')}
      END`,
    `CREATE TRIGGER report_totals_delete AFTER DELETE ON transactions BEGIN
        ${both.map((t) => rowDelta(t, 'OLD.', '-1')).join('\n')}
      END`,
  ],
  dropTriggers: () => TRIGGER_EVENTS.map((n) => `DROP TRIGGER IF EXISTS report_totals_${n}`),
}

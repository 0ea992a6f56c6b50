/**
 * The plan's words on counts, for the import's plan (plan.ts) and the command that prints it
 * (commands/tx/import.ts): a module of its own, so the command's thread does not load the CSV reader.
 */

/** "1 row", "2,000 rows". */
export const rows = (n: number) => `${n.toLocaleString('en-US')} row${n === 1 ? '' : 's'}`

/** The plan's line on the header and the rows: how many transactions, and how many lines are skipped. */
export function rowsNote(plan: {
  headerLine: number
  headerless?: true
  dataRows: number
  rowsRead: number
  settledEarly?: boolean
  skipped: ReadonlyArray<unknown>
}): string {
  const n = plan.dataRows.toLocaleString('en-US')
  const transactions = plan.settledEarly
    ? `about ${n} transaction rows (estimated from the first ${plan.rowsRead.toLocaleString('en-US')} and the file's size)`
    : `${n} transaction row${plan.dataRows === 1 ? '' : 's'}`
  const skipped = plan.skipped.length
    ? `; ${plan.settledEarly ? 'so far ' : ''}${plan.skipped.length.toLocaleString('en-US')} skipped, not transactions`
    : ''
  return `${plan.headerless ? 'no header' : `header on line ${plan.headerLine}`}; ${transactions}${skipped}`
}

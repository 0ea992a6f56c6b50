/**
 * Tables that fit the terminal (gh's rule): a row is never wrapped. When the natural width is more
 * than the terminal's, the widest text columns are narrowed (their cells end in "…"), down to a
 * floor; columns that must stay whole (ids, dates, numbers) are never narrowed. If that is still
 * too wide, text columns are left out from the right, except the first, which names the row (a
 * table of numbers wider than the terminal stays as it is).
 */
// Widths are string-width's (v4), the count cli-table3 lays out and cuts cells by: any other count
// would let a table it draws wider than the terminal pass for one that fits (test/cli/table-fit.test.ts).
import stringWidth from 'string-width'

/** Space a column takes beside its text: one space each side, and its share of the borders. */
const PADDING = 2
const BORDER = 1
/** The narrowest a text column is made (its header too is cut below that). */
const FLOOR = 8

export interface Fitted {
  /** Widths to give cli-table3 (text plus padding), one per kept column. */
  widths: number[]
  /** The indexes of the columns kept, in order. */
  kept: number[]
}

/**
 * Widths for `columns` (each the list of its cells, header first) in `maxWidth` terminal columns;
 * `whole[i]` says column i must not be narrowed. undefined when the table fits as it is.
 */
export function fitColumns(columns: string[][], whole: boolean[], maxWidth: number): Fitted | undefined {
  const natural = columns.map((cells) => Math.max(...cells.map((c) => stringWidth(c))) + PADDING)
  const total = (w: number[]) => w.reduce((a, b) => a + b, 0) + w.length + BORDER
  if (total(natural) <= maxWidth) return undefined
  const widths = [...natural]
  let kept = columns.map((_, i) => i)
  const floor = (i: number) => Math.min(natural[i], FLOOR + PADDING)
  const width = () => total(kept.map((i) => widths[i]))
  while (width() > maxWidth) {
    // the widest column that may still be narrowed
    let pick = -1
    for (const i of kept) if (!whole[i] && widths[i] > floor(i) && (pick < 0 || widths[i] > widths[pick])) pick = i
    if (pick >= 0) {
      widths[pick]--
      continue
    }
    // every text column is at its floor: leave out the rightmost text column (never the first:
    // it names the row)
    const drop = [...kept].reverse().find((i) => !whole[i] && i !== kept[0])
    if (drop === undefined) break
    kept = kept.filter((i) => i !== drop)
  }
  return { widths: kept.map((i) => widths[i]), kept }
}

/**
 * Tables that fit the terminal (gh's rule): a row is never wrapped. When the natural width is more
 * than the terminal's, the widest text columns are narrowed (their cells end in "…"), down to a
 * floor; columns that must stay whole (ids, dates, numbers) are never narrowed. If that is still
 * too wide, text columns are left out from the right, except the first, which names the row (a
 * table of numbers wider than the terminal stays as it is).
 */

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

/** Marks that take no column of their own: combining marks and variation selectors (Mn, Me), joiners (Cf). */
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u
/**
 * Characters that take two columns: emoji shown as emoji, and the East Asian wide and full-width
 * blocks (Hangul Jamo, CJK, kana, Hangul syllables, full-width forms), as cli-table3 counts them.
 */
const WIDE =
  /[\p{Emoji_Presentation}\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u

/** The width of a text on a terminal, in columns: two for a wide character, none for a combining mark. */
export function textWidth(s: string): number {
  let width = 0
  for (const ch of s) width += ZERO_WIDTH.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1
  return width
}

/**
 * Widths for `columns` (each the list of its cells, header first) in `maxWidth` terminal columns;
 * `whole[i]` says column i must not be narrowed. undefined when the table fits as it is.
 */
export function fitColumns(columns: string[][], whole: boolean[], maxWidth: number): Fitted | undefined {
  const natural = columns.map((cells) => Math.max(...cells.map(textWidth)) + PADDING)
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

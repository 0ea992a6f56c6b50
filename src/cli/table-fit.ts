/**
 * Tables that fit the terminal (docs/cli.md "Tables on a terminal"): no line is ever wider than the
 * terminal, so the terminal never breaks one. When the natural width is more than the terminal's,
 * empty columns are left out first, then the widest text columns are narrowed, down to a floor, and
 * a value longer than its column wraps inside its cell (wrapCell: nothing is cut); columns that must
 * stay whole (ids, dates, numbers) are never narrowed. If that is still too wide, columns are left
 * out (by `drop`, then text from the right, the `wide` one last, then whole ones from the right),
 * never a `keep` one (the id) nor the first, which names the row; only then are words broken, and
 * never an email, a date, a time or an id (UNBROKEN). renderTable names what was left out.
 */
// Widths are displayWidth's (string-width v4, the count cli-table3 lays out and cuts cells by, which
// counts no colour code): any other count would let a table it draws wider than the terminal pass
// for one that fits (test/cli/table-fit.test.ts).
import { displayWidth } from './width.js'

export { displayWidth }

/** Space a column takes beside its text: one space each side, and its share of the borders. */
export const PADDING = 2
const BORDER = 1
/** The narrowest a text column is made (its header too is cut below that). */
const FLOOR = 8
/** The longest word a column is kept wide enough for before its words are broken. */
const WORD = 16
/** A word no table breaks: an email, a date or a time (or a range of them), an id, an actor (`user:…`). */
const UNBROKEN =
  /^(?:[^\s@]+@[^\s@]+\.[^\s@]+|\d{4}-\d{2}(?:-\d{2})?(?:[T ]?\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:user|key):[0-9a-f-]{36})[,;.)]?$/i

export interface Fitted {
  /** Widths to give cli-table3 (text plus padding), one per kept column. */
  widths: number[]
  /** The indexes of the columns kept, in order. */
  kept: number[]
}

/** What a column says about fitting: `drop`, left out before others (highest first); `min`, its own floor. */
export interface FitHint {
  drop?: number
  min?: number
  /** Keeps about twice the width of the other text columns (a description: the widest share). */
  wide?: boolean
  /** Never left out (an id: what a row is passed on by). */
  keep?: boolean
}

/**
 * Widths for `columns` (each the list of its cells, header first) in `maxWidth` terminal columns;
 * `whole[i]` says column i must not be narrowed. undefined when the table fits as it is.
 * Text columns are narrowed, the widest first (a `wide` one counted at half its width), down to
 * their `min` (else FLOOR) or their longest word, whichever is wider; then the column with the
 * highest `drop` is left out, whole or not, and the rest widen again; with none left to drop, text
 * columns go down to FLOOR (words are broken), then are left out from the right.
 */
export function fitColumns(columns: string[][], whole: boolean[], maxWidth: number, hints: FitHint[] = []): Fitted | undefined {
  const natural = columns.map((cells) => Math.max(...cells.map((c) => displayWidth(c))) + PADDING)
  const total = (w: number[]) => w.reduce((a, b) => a + b, 0) + w.length + BORDER
  if (total(natural) <= maxWidth) return undefined
  const keep = (i: number) => i === 0 || hints[i]?.keep === true
  // A column with nothing in it gives its width away before any other is narrowed.
  let kept = columns.map((_, i) => i).filter((i) => keep(i) || columns[i].slice(1).some((c) => c !== ''))
  // A column is narrowed first no further than its longest word (up to WORD), so that its values wrap
  // at spaces; only a table that still does not fit has words broken.
  const word = columns.map((cells) => {
    let longest = 0
    for (const c of cells.slice(1)) for (const w of c.split(' ')) longest = Math.max(longest, displayWidth(w))
    return Math.min(WORD, longest)
  })
  // Words never broken, however narrow the terminal: an email, a date or time, an id.
  const unbroken = columns.map((cells) => {
    let longest = 0
    for (const c of cells.slice(1)) for (const w of c.split(' ')) if (UNBROKEN.test(w)) longest = Math.max(longest, displayWidth(w))
    return longest
  })
  let floorOf = (i: number) => Math.min(natural[i], Math.max(hints[i]?.min ?? FLOOR, word[i], unbroken[i]) + PADDING)
  let lowered = false
  for (;;) {
    const widths = narrow(natural, kept, whole, floorOf, maxWidth, total, (i) => hints[i]?.wide === true)
    if (total(kept.map((i) => widths[i])) <= maxWidth) return { widths: kept.map((i) => widths[i]), kept }
    // Too wide with every text column at its floor: leave out the column people need least.
    const droppable = kept.filter((i) => hints[i]?.drop !== undefined && !keep(i))
    if (droppable.length > 0) {
      const drop = droppable.reduce((a, b) => ((hints[b].drop ?? 0) > (hints[a].drop ?? 0) ? b : a))
      kept = kept.filter((i) => i !== drop)
      continue
    }
    // Nothing to drop by priority: columns from the right (never the first: it names the row; never
    // a kept one); a word is broken only when the columns that must stay cannot hold it whole.
    // The last text column (the row's own text) is kept, its long words broken, before it goes.
    const from = [...kept].reverse()
    const text = from.filter((i) => !whole[i] && !keep(i))
    const drop =
      text.length > 1 || lowered ? (text.find((i) => hints[i]?.wide !== true) ?? text[0] ?? from.find((i) => !keep(i))) : undefined
    if (drop !== undefined) {
      kept = kept.filter((i) => i !== drop)
      continue
    }
    if (lowered) return { widths: kept.map((i) => widths[i]), kept }
    lowered = true
    floorOf = (i: number) => Math.min(natural[i], Math.max(FLOOR, unbroken[i]) + PADDING)
  }
}

/** The widths with the widest text columns narrowed, one cell at a time, until the kept columns fit or reach their floors. */
function narrow(
  natural: number[],
  kept: number[],
  whole: boolean[],
  floorOf: (i: number) => number,
  maxWidth: number,
  total: (w: number[]) => number,
  wide: (i: number) => boolean,
): number[] {
  const widths = [...natural]
  let width = total(kept.map((i) => widths[i]))
  // A `wide` column counts half its width here: it keeps about twice the share of the others.
  const weight = (i: number) => (wide(i) ? widths[i] / 2 : widths[i])
  while (width > maxWidth) {
    let pick = -1
    for (const i of kept) if (!whole[i] && widths[i] > floorOf(i) && (pick < 0 || weight(i) > weight(pick))) pick = i
    if (pick < 0) break
    widths[pick]--
    width--
  }
  return widths
}

/**
 * A record's two columns when its longest value would make the table wider than the terminal: the
 * value column takes what is left, and a long value wraps inside its cell.
 */
export function recordWidths(head: string[], all: string[][], termWidth: number): Fitted | undefined {
  const natural = head.map((h, i) => Math.max(displayWidth(h), ...all.map((r) => displayWidth(r[i] ?? ''))) + PADDING)
  // Two columns: three borders.
  if (natural.length !== 2 || natural[0] + natural[1] + 3 <= termWidth) return undefined
  const first = Math.min(natural[0], Math.floor(termWidth / 3))
  return { widths: [first, Math.max(10, termWidth - first - 3)], kept: [0, 1] }
}

/**
 * `text` in lines of at most `width` terminal columns (joined by "\n", which cli-table3 draws as
 * lines of one cell): broken at spaces, and a word longer than a line where it reaches the edge,
 * between two characters, never inside one (a CJK character or an emoji is two columns).
 */
export function wrapCell(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ').filter((w) => w !== '')) {
    const joined = line ? `${line} ${word}` : word
    if (displayWidth(joined) <= width) {
      line = joined
      continue
    }
    if (line) lines.push(line)
    line = ''
    // A word wider than a line is broken: as much of it as fits on each.
    for (const { segment } of graphemes.segment(word)) {
      if (line && displayWidth(line + segment) > width) {
        lines.push(line)
        line = ''
      }
      line += segment
    }
  }
  if (line) lines.push(line)
  return lines.join('\n')
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

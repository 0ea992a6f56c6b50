/**
 * One CSV record of text from outside, as `csvLine(texts.map(printableText))` writes it (the one
 * CSV writer, kernel/csv-write.ts, over the terminal-safe text, kernel/terminal-text.ts), with one
 * pass over the record's characters instead of two regular expressions a field: most records hold no control,
 * quote or comma at all, and `tx list --all --output csv` writes one a row (docs/performance.md,
 * "`tx list --all` beside the store"). test/cli/csv-record.test.ts holds it to the general path.
 */
import { csvField, csvLine, CSV_LINE_END } from '../kernel/csv-write.js'
import { printableText } from '../kernel/terminal-text.js'

/**
 * The last text of each field that needed no rewriting, and its field: an account's name and id, a
 * currency, a category and a status repeat row after row, and are not tested again. A field is
 * taken from here only for the same text in the same place, so the line is the same either way.
 */
const seenText: string[] = []
const seenField: string[] = []

export function printableCsvLine(texts: readonly string[]): string {
  // What either path acts on, tested a character at a time as the line is written (no joined copy
  // of the record): a control (terminal-text's set: C0 with tab, CR and LF, DEL, C1, bidi), a quote,
  // a comma. With none, printableText leaves each field as it is, and csvField quotes none; it
  // guards a field that starts as a formula (= + - @) unless it is a number.
  let line = ''
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i]
    let f: string
    if (t === seenText[i]) f = seenField[i]
    else {
      for (let j = 0; j < t.length; j++) {
        const d = t.charCodeAt(j)
        // Most characters are printable ASCII past the comma: one test for them.
        if (d > 0x2c && d < 0x7f) continue
        if (
          d < 0x20 ||
          d === 0x22 ||
          d === 0x2c ||
          (d >= 0x7f && (d <= 0x9f || (d >= 0x202a && d <= 0x202e) || (d >= 0x2066 && d <= 0x2069)))
        )
          return csvLine(texts.map(printableText))
      }
      const c = t.charCodeAt(0)
      f = c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40 ? csvField(t) : t
      seenText[i] = t
      seenField[i] = f
    }
    line += i === 0 ? f : `,${f}`
  }
  return line + CSV_LINE_END
}

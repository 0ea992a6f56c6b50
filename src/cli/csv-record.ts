/**
 * One CSV record of text from outside, as `csvLine(texts.map(printableText))` writes it (the one
 * CSV writer, kernel/csv-write.ts, over the terminal-safe text, kernel/terminal-text.ts), with one
 * regular expression over the record instead of two for each field: most records hold no control,
 * quote or comma at all, and `tx list --all --output csv` writes one a row (docs/performance.md,
 * "`tx list --all` beside the store"). test/cli/csv-record.test.ts holds it to the general path.
 */
import { csvField, csvLine, CSV_LINE_END } from '../kernel/csv-write.js'
import { printableText } from '../kernel/terminal-text.js'

// What either path acts on: a control (terminal-text's set, tab, CR and LF among them), a quote, a comma.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const SPECIAL = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069",]/

export function printableCsvLine(texts: readonly string[]): string {
  if (SPECIAL.test(texts.join(''))) return csvLine(texts.map(printableText))
  // No control, quote or comma: printableText leaves each field as it is, and csvField quotes none;
  // it guards a field that starts as a formula (= + - @) unless it is a number.
  let line = ''
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i]
    const c = t.charCodeAt(0)
    const f = c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40 ? csvField(t) : t
    line += i === 0 ? f : `,${f}`
  }
  return line + CSV_LINE_END
}

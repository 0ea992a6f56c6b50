/** Finds the delimiter of a CSV from its first lines. */
export const DELIMITERS = [',', ';', '\t', '|'] as const
export type Delimiter = (typeof DELIMITERS)[number]

/** A decimal comma of an amount in a line of another delimiter: `-850,00;` or `12,5` at the line's end. */
const DECIMAL_COMMA = /(\d),(\d{1,2})(?=\s*(?:[;\t|"]|$))/g

/** Count a delimiter outside quotes in one line; a comma between an amount's digits is no delimiter. */
function countOutsideQuotes(line: string, d: string): number {
  const text = d === ',' ? line.replace(DECIMAL_COMMA, '$1$2') : line
  let n = 0
  let quoted = false
  for (const ch of text) {
    if (ch === '"') quoted = !quoted
    else if (ch === d && !quoted) n++
  }
  return n
}

/**
 * The delimiter that splits the most lines into at least as many fields as one another: for each
 * delimiter, the count k of it that the most lines reach (data rows may carry more fields than the
 * header, and preamble lines fewer), weighted a little by the fields k makes. Decimal commas are not
 * counted, so a `;` file of `1.234,56` amounts whose rows are ragged is not read as comma-separated.
 */
export function detectDelimiter(text: string): Delimiter {
  const lines = text
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== '')
    .slice(0, 50)
  let best: { d: Delimiter; score: number } = { d: ',', score: -1 }
  for (const d of DELIMITERS) {
    const counts = lines.map((l) => countOutsideQuotes(l, d)).sort((a, b) => b - a)
    // counts[i] is reached by i + 1 lines at least: the best of lines x fields over every k.
    for (let i = 0; i < counts.length && counts[i] > 0; i++) {
      const score = (i + 1) * 10 + Math.min(counts[i], 9)
      if (score > best.score) best = { d, score }
    }
  }
  return best.d
}

/** Finds the delimiter and the header row of a CSV from its first lines. */
export const DELIMITERS = [',', ';', '\t', '|'] as const
export type Delimiter = (typeof DELIMITERS)[number]

/** Count a delimiter outside quotes in one line. */
function countOutsideQuotes(line: string, d: string): number {
  let n = 0
  let quoted = false
  for (const ch of line) {
    if (ch === '"') quoted = !quoted
    else if (ch === d && !quoted) n++
  }
  return n
}

/** The delimiter whose per-line count is most consistent (and non-zero) over the sample lines. */
export function detectDelimiter(text: string): Delimiter {
  const lines = text
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== '')
    .slice(0, 50)
  let best: { d: Delimiter; score: number } = { d: ',', score: -1 }
  for (const d of DELIMITERS) {
    const counts = lines.map((l) => countOutsideQuotes(l, d))
    const freq = new Map<number, number>()
    for (const c of counts) if (c > 0) freq.set(c, (freq.get(c) ?? 0) + 1)
    let modal = 0
    let modalLines = 0
    for (const [c, n] of freq) if (n > modalLines || (n === modalLines && c > modal)) [modal, modalLines] = [c, n]
    // Lines that share the modal field count, weighted a little by how many fields that makes.
    const score = modalLines * 10 + Math.min(modal, 9)
    if (modalLines > 0 && score > best.score) best = { d, score }
  }
  return best.d
}

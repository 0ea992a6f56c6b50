/**
 * The one width function of finctl's terminal output: the columns a text takes on a
 * terminal. Colour and other escape codes take none, wide characters (CJK, most emoji) two,
 * combining marks none. string-width v4 is the count cli-table3 lays its tables out by, so a table
 * fitted with it is drawn exactly as wide as it was fitted. Cells reach it escaped (terminal-text.ts):
 * it measures the text shown, never a raw control that would count as nothing.
 */
import stringWidth from 'string-width'

export function displayWidth(text: string): number {
  return stringWidth(text)
}

/** `text` padded with spaces to `width` terminal columns (on the right, or on the left with `start`). */
export function padDisplay(text: string, width: number, start = false): string {
  const pad = ' '.repeat(Math.max(0, width - displayWidth(text)))
  return start ? pad + text : text + pad
}

/**
 * Text from outside (bank files, API bodies, names, messages that quote input) as a terminal may show
 * it: C0 and C1 controls, DEL and the bidi overrides and isolates become visible escapes
 * (`\x1b`, `\x9b`, `U+202E`), so that no stored value can clear the screen, move the cursor, set a
 * title, open a link or reorder what a person reads. What is stored stays as it was sent
 * (docs/security.md, "Text from outside").
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const CONTROL = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/
const CONTROLS = new RegExp(CONTROL.source, 'g')
/**
 * What JSON.stringify leaves as it is of the above (DEL, C1 and the bidi controls), and the line and
 * paragraph separators, which some readers of a log take for line ends.
 */
const JSON_RAW = /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
const JSON_RAWS = new RegExp(JSON_RAW.source, 'g')

function visible(c: string): string {
  const code = c.charCodeAt(0)
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `U+${code.toString(16).toUpperCase()}`
}

/** Whether `text` holds a character a terminal would act on rather than show. */
export function hasControls(text: string): boolean {
  return CONTROL.test(text)
}

/**
 * One line (a table cell, a tab-separated field, a line of a message): tabs and line breaks become
 * spaces, every other control a visible escape.
 */
export function printableLine(text: string): string {
  if (!CONTROL.test(text)) return text
  return text.replace(CONTROLS, (c) => (c === '\t' || c === '\n' || c === '\r' ? ' ' : visible(c)))
}

/**
 * Text of several lines (a message, a CSV field, a template's output): line feeds, tabs and CR LF
 * line ends stay; a lone carriage return, which would let a line overwrite itself, and every other
 * control are escaped.
 */
export function printableText(text: string): string {
  if (!CONTROL.test(text)) return text
  return text.replace(CONTROLS, (c, at: number) =>
    c === '\t' || c === '\n' || (c === '\r' && text.charCodeAt(at + 1) === 0x0a) ? c : visible(c),
  )
}

/**
 * JSON text with DEL, C1, bidi controls and U+2028/2029 written as `\u` escapes too (JSON.stringify
 * escapes C0 only): the same value, read back exactly, with no byte a terminal acts on. They occur only inside
 * strings, so the replacement cannot touch the structure.
 */
export function jsonText(json: string): string {
  if (!JSON_RAW.test(json)) return json
  return json.replace(JSON_RAWS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

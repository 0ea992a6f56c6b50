/**
 * Text in the single-byte code pages the filing formats are read in (DATEV: Windows-1252, SIE:
 * CP437), through iconv-lite. A character the page does not have is never dropped unsaid: `outside`
 * names it, so the writer can name the row it was in, and it is written as `?`.
 */
import iconv from 'iconv-lite'

export type CodePage = 'windows-1252' | 'cp437'

const charsets = new Map<CodePage, Set<string>>()

/** The characters a page writes (its printable ones: the controls of 0x00-0x1F and 0x7F never go into a field). */
function charset(page: CodePage): Set<string> {
  let set = charsets.get(page)
  if (!set) {
    set = new Set<string>()
    for (let b = 0x20; b <= 0xff; b++) {
      if (b === 0x7f) continue
      const c = iconv.decode(Buffer.from([b]), page)
      // Windows-1252 has no character at 0x81, 0x8D, 0x8F, 0x90 and 0x9D.
      if (c !== '\ufffd' && !/[\u0080-\u009f]/.test(c)) set.add(c)
    }
    charsets.set(page, set)
  }
  return set
}

/** The distinct characters of `text` the page does not have, in order of appearance. */
export function outside(text: string, page: CodePage): string[] {
  const set = charset(page)
  const out: string[] = []
  for (const c of text) if (!set.has(c) && !out.includes(c)) out.push(c)
  return out
}

/** `text` with each character the page does not have written as `?`. */
export function inPage(text: string, page: CodePage): string {
  const set = charset(page)
  let out = ''
  for (const c of text) out += set.has(c) ? c : '?'
  return out
}

export function encode(text: string, page: CodePage): Buffer {
  return iconv.encode(text, page)
}

export function decode(bytes: Uint8Array, page: CodePage): string {
  return iconv.decode(Buffer.from(bytes), page)
}

/** "€" -> "U+20AC", how a message names a character. */
export function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

/** A text as one line with no control characters: line breaks and tabs become a space, other controls go. */
export function oneLineText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it removes
  return text.replace(/[\r\n\t\v\f\u2028\u2029]+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '')
}

/**
 * Text encodings of bank files: a byte-order mark wins (UTF-8, UTF-16 LE/BE); otherwise strict
 * UTF-8 if the bytes are valid UTF-8, else a Chinese, Japanese or Korean page whose reading shows
 * the bank terms the mapping knows (cjk-encodings.ts), else the Windows code page whose languages'
 * letters the bytes read as (code-pages.ts: windows-1252, -1250, -1257 or -1251). `--encoding` names any encoding
 * Node's TextDecoder knows (windows-1251, iso-8859-15, koi8-r, ...).
 */
import { isUtf8 } from 'node:buffer'
import { guessCjkPage } from './cjk-encodings.js'
import { guessCodePage, type CodePageGuess } from './code-pages.js'

export interface Detected {
  encoding: string
  /** Bytes to skip at the start (the BOM). */
  bomLength: number
  /** How the encoding was chosen, for the message to the user. */
  how: 'bom' | 'valid utf-8' | 'not utf-8' | 'given'
  /** Not UTF-8: what the code page was told by (code-pages.ts). */
  codePage?: CodePageGuess
  /** Not UTF-8, a Chinese, Japanese or Korean page: the bank terms it read (cjk-encodings.ts). */
  cjkTerms?: number
}

export function detectEncoding(sample: Uint8Array, given?: string): Detected {
  if (given) {
    const encoding = normalizeEncoding(given)
    const bom =
      encoding === 'utf-8' && hasUtf8Bom(sample)
        ? 3
        : (encoding === 'utf-16le' || encoding === 'utf-16be') && sample.length >= 2
          ? bomLength16(sample, encoding)
          : 0
    return { encoding, bomLength: bom, how: 'given' }
  }
  if (hasUtf8Bom(sample)) return { encoding: 'utf-8', bomLength: 3, how: 'bom' }
  if (sample[0] === 0xff && sample[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2, how: 'bom' }
  if (sample[0] === 0xfe && sample[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2, how: 'bom' }
  if (isValidUtf8(sample)) return { encoding: 'utf-8', bomLength: 0, how: 'valid utf-8' }
  // A statement upload passes the whole file: its start tells as well.
  const cjk = guessCjkPage(sample.subarray(0, 64 * 1024))
  if (cjk) return { encoding: cjk.encoding, bomLength: 0, how: 'not utf-8', cjkTerms: cjk.terms }
  const codePage = guessCodePage(sample.subarray(0, 64 * 1024))
  return { encoding: codePage.encoding, bomLength: 0, how: 'not utf-8', codePage }
}

/** The plan's words on the encoding: which, how it was found, and how to change it when not sure. */
export function encodingNote(d: Detected): string {
  if (d.how === 'given') return `encoding ${d.encoding} (given)`
  if (d.cjkTerms) return `encoding ${d.encoding} (detected: not utf-8; ${d.cjkTerms} bank terms read in it)`
  if (!d.codePage) return `encoding ${d.encoding} (detected: ${d.how})`
  const { languages, unsure } = d.codePage
  const letters = languages.length ? `; its letters read as ${languages.join(', ').replace(/, (\w+)$/, ' or $1')}` : ''
  if (!unsure) return `encoding ${d.encoding} (detected: not utf-8${letters})`
  return `encoding ${d.encoding} (detected: not utf-8${letters}; not sure: ${unsure.encoding} reads "${unsure.word}" as "${unsure.reads}", give --encoding ${unsure.encoding} if that is right)`
}

function hasUtf8Bom(b: Uint8Array): boolean {
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf
}

function bomLength16(b: Uint8Array, enc: string): number {
  return (enc === 'utf-16le' && b[0] === 0xff && b[1] === 0xfe) || (enc === 'utf-16be' && b[0] === 0xfe && b[1] === 0xff) ? 2 : 0
}

/** The TextDecoder label for a user's encoding name; throws a readable error for an unknown one. */
export function normalizeEncoding(name: string): string {
  const n = name
    .trim()
    .toLowerCase()
    .replace(/^cp-?(\d+)$/, 'windows-$1')
    .replace(/^latin-?1$/, 'iso-8859-1')
    .replace(/^utf8$/, 'utf-8')
  try {
    return new TextDecoder(n).encoding
  } catch {
    throw new Error(
      `unknown encoding "${name}": use a name such as utf-8, utf-16le, windows-1252, iso-8859-15, windows-1257 or windows-1251`,
    )
  }
}

/**
 * Whether the bytes are well-formed UTF-8 (no overlong form, surrogate or code point past
 * U+10FFFF). A multi-byte sequence cut at the end of the sample (a prefix of the file) is allowed
 * when its bytes so far can start a character: the streaming decoder says so.
 */
export function isValidUtf8(b: Uint8Array): boolean {
  const cut = cutTail(b)
  if (!isUtf8(b.subarray(0, b.length - cut))) return false
  if (cut === 0) return true
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(b.length - cut), { stream: true })
    return true
  } catch {
    return false
  }
}

/** How many bytes at the end start a sequence they are too few to finish (0 when none). */
function cutTail(b: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, b.length); back++) {
    const c = b[b.length - back]
    if (c < 0x80) return 0
    if (c < 0xc0) continue
    const length = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2
    return back < length ? back : 0
  }
  return 0
}

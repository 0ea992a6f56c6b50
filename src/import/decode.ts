/**
 * Text encodings of bank files: a byte-order mark wins (UTF-8, UTF-16 LE/BE); otherwise strict
 * UTF-8 if the bytes are valid UTF-8, else the Windows code page whose languages' letters the bytes
 * read as (code-pages.ts: windows-1252, -1250 or -1257). `--encoding` names any encoding Node's
 * TextDecoder knows (windows-1257, iso-8859-15, ...).
 */
import { guessCodePage, type CodePageGuess } from './code-pages.js'

export interface Detected {
  encoding: string
  /** Bytes to skip at the start (the BOM). */
  bomLength: number
  /** How the encoding was chosen, for the message to the user. */
  how: 'bom' | 'valid utf-8' | 'not utf-8' | 'given'
  /** Not UTF-8: what the code page was told by (code-pages.ts). */
  codePage?: CodePageGuess
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
  const codePage = guessCodePage(sample.subarray(0, 64 * 1024))
  return { encoding: codePage.encoding, bomLength: 0, how: 'not utf-8', codePage }
}

/** The plan's words on the encoding: which, how it was found, and how to change it when not sure. */
export function encodingNote(d: Detected): string {
  if (d.how === 'given') return `encoding ${d.encoding} (given)`
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
    throw new Error(`unknown encoding "${name}": use a name such as utf-8, utf-16le, windows-1252, iso-8859-15 or windows-1257`)
  }
}

/**
 * Whether the bytes are valid UTF-8. A multi-byte sequence cut at the end of the sample is
 * allowed (the sample is a prefix of the file).
 */
export function isValidUtf8(b: Uint8Array): boolean {
  let i = 0
  while (i < b.length) {
    const c = b[i]
    if (c < 0x80) {
      i++
      continue
    }
    const n = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c <= 0xdf ? 1 : -1
    if (n < 0 || c > 0xf4) return false
    for (let k = 1; k <= n; k++) {
      if (i + k >= b.length) return true
      if ((b[i + k] & 0xc0) !== 0x80) return false
    }
    i += n + 1
  }
  return true
}

/**
 * Whether a file's bytes are UTF-8 (src/import/decode.ts isValidUtf8): what the Unicode standard
 * calls well-formed, so overlong forms, surrogates and code points past U+10FFFF are not, while a
 * sequence cut at the end of a sample (a prefix of the file) is no error.
 */
import { describe, expect, it } from 'vitest'
import { detectEncoding, isValidUtf8 } from '../../src/import/decode.js'

const bytes = (...b: number[]) => Uint8Array.from(b)
const text = (s: string) => new TextEncoder().encode(s)

describe('isValidUtf8', () => {
  it('takes well-formed text of every length of sequence', () => {
    expect(isValidUtf8(text('Mokėjimas už ąžuolą, 東京, €12 😀'))).toBe(true)
    expect(isValidUtf8(bytes())).toBe(true)
    // the edges: U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF
    for (const cp of [0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xffff, 0x10000, 0x10ffff])
      expect(isValidUtf8(text(String.fromCodePoint(cp))), cp.toString(16)).toBe(true)
  })

  it('refuses overlong forms (a character in more bytes than it needs)', () => {
    expect(isValidUtf8(bytes(0x61, 0xc0, 0xaf, 0x61))).toBe(false) // '/' in two bytes
    expect(isValidUtf8(bytes(0x61, 0xe0, 0x80, 0xaf, 0x61))).toBe(false) // '/' in three
    expect(isValidUtf8(bytes(0x61, 0xe0, 0x9f, 0xbf, 0x61))).toBe(false) // U+07FF in three
    expect(isValidUtf8(bytes(0x61, 0xf0, 0x80, 0x80, 0xaf, 0x61))).toBe(false) // '/' in four
    expect(isValidUtf8(bytes(0x61, 0xf0, 0x8f, 0xbf, 0xbf, 0x61))).toBe(false) // U+FFFF in four
  })

  it('refuses surrogates and code points past U+10FFFF', () => {
    expect(isValidUtf8(bytes(0x61, 0xed, 0xa0, 0x80, 0x61))).toBe(false) // U+D800
    expect(isValidUtf8(bytes(0x61, 0xed, 0xbf, 0xbf, 0x61))).toBe(false) // U+DFFF
    expect(isValidUtf8(bytes(0x61, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80))).toBe(false) // a CESU-8 pair
    expect(isValidUtf8(bytes(0x61, 0xf4, 0x90, 0x80, 0x80, 0x61))).toBe(false) // U+110000
    expect(isValidUtf8(bytes(0x61, 0xf5, 0x80, 0x80, 0x80))).toBe(false)
  })

  it('refuses a lone continuation byte, a cut sequence inside the text, and windows-1252 letters', () => {
    expect(isValidUtf8(bytes(0x61, 0x80, 0x61))).toBe(false)
    expect(isValidUtf8(bytes(0x61, 0xe2, 0x82, 0x61))).toBe(false)
    expect(isValidUtf8(bytes(0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72))).toBe(false) // Müller in windows-1252
  })

  it('takes a sequence cut at the end of the sample, unless its start is already wrong', () => {
    const euro = text('€') // e2 82 ac
    expect(isValidUtf8(bytes(0x61, euro[0]))).toBe(true)
    expect(isValidUtf8(bytes(0x61, euro[0], euro[1]))).toBe(true)
    expect(isValidUtf8(bytes(0x61, 0xf0, 0x9f, 0x98))).toBe(true) // 😀 without its last byte
    expect(isValidUtf8(bytes(0x61, 0xe0, 0x80))).toBe(false) // an overlong start
    expect(isValidUtf8(bytes(0x61, 0xed, 0xa0))).toBe(false) // a surrogate's start
    expect(isValidUtf8(bytes(0x61, 0xf4, 0x90))).toBe(false) // past U+10FFFF
  })

  it('so a file with overlong or surrogate bytes is not read as UTF-8', () => {
    expect(detectEncoding(bytes(0x44, 0x61, 0x74, 0x65, 0x3b, 0xc0, 0xaf, 0x0a)).how).toBe('not utf-8')
    expect(detectEncoding(bytes(0x44, 0x61, 0x74, 0x65, 0x3b, 0xed, 0xa0, 0x80, 0x0a)).how).toBe('not utf-8')
    expect(detectEncoding(text('Date;Gavėjas\n')).how).toBe('valid utf-8')
  })
})

/**
 * terminal-text.ts: every class of character a terminal acts on becomes a visible
 * escape (or a space, where a line's layout needs it), clean text is returned as it is, and JSON
 * keeps the exact value with no such byte left raw.
 */
import { describe, expect, it } from 'vitest'
import { hasControls, jsonText, printableLine, printableText } from '../../src/cli/terminal-text.js'

/** Any character a terminal acts on: C0, DEL, C1, the bidi overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: what the test looks for
const RAW = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/

describe('printableLine and printableText', () => {
  it('return clean text as it is, the same string', () => {
    for (const s of ['', 'Coffee beans #3', 'Café Zürich — 東京 😀', 'back\\slash x1b', 'U+202E as text']) {
      expect(printableLine(s)).toBe(s)
      expect(printableText(s)).toBe(s)
      expect(hasControls(s)).toBe(false)
    }
  })

  it('show each C0 control as \\xNN', () => {
    for (let c = 0; c < 0x20; c++) {
      const ch = String.fromCharCode(c)
      const esc = `\\x${c.toString(16).padStart(2, '0')}`
      expect(hasControls(`a${ch}b`)).toBe(true)
      if (ch === '\t' || ch === '\n' || ch === '\r') continue
      expect(printableLine(`a${ch}b`)).toBe(`a${esc}b`)
      expect(printableText(`a${ch}b`)).toBe(`a${esc}b`)
    }
    expect(printableLine('\0')).toBe('\\x00')
    expect(printableLine('\x1b[2J')).toBe('\\x1b[2J')
    expect(printableLine('\x07')).toBe('\\x07')
  })

  it('show DEL and each C1 control (the 8-bit CSI 0x9B among them) as \\xNN', () => {
    expect(printableLine('\x7f')).toBe('\\x7f')
    for (let c = 0x80; c < 0xa0; c++) {
      const esc = `\\x${c.toString(16)}`
      expect(printableLine(String.fromCharCode(c))).toBe(esc)
      expect(printableText(String.fromCharCode(c))).toBe(esc)
    }
    expect(printableLine('\x9b2J')).toBe('\\x9b2J')
    // The first printable characters past C1 stay.
    expect(printableLine('\xa0é')).toBe('\xa0é')
  })

  it('show the bidi overrides and isolates as U+XXXX', () => {
    const bidi = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]
    for (const c of bidi) {
      const s = `pay ${String.fromCharCode(c)}00.001`
      expect(printableLine(s)).toBe(`pay U+${c.toString(16).toUpperCase()}00.001`)
      expect(printableText(s)).toBe(`pay U+${c.toString(16).toUpperCase()}00.001`)
    }
    // Neighbours that are no override stay (zero width joiner, left-to-right mark, en space).
    expect(printableLine('\u200d\u200e\u2002')).toBe('\u200d\u200e\u2002')
  })

  it('on one line, tabs and line breaks become spaces; in text, tabs, line feeds and CR LF stay and a lone CR is escaped', () => {
    expect(printableLine('a\tb\nc\rd\r\ne')).toBe('a b c d  e')
    expect(printableText('a\tb\nc\rd\r\ne\r')).toBe('a\tb\nc\\x0dd\r\ne\\x0d')
  })

  it('leave no character a terminal acts on, whatever the input', () => {
    const hostile = '\x1b]0;title\x07\x1b[2J\x1b[1A\x1b[K\x9b31m\0\u202e\x1b]8;;http://x.example\x1b\\link\x1b]8;;\x1b\\'
    expect(printableLine(hostile)).not.toMatch(RAW)
    expect(printableText(hostile)).not.toMatch(RAW)
    expect(printableLine(hostile)).toBe(
      '\\x1b]0;title\\x07\\x1b[2J\\x1b[1A\\x1b[K\\x9b31m\\x00U+202E\\x1b]8;;http://x.example\\x1b\\link\\x1b]8;;\\x1b\\',
    )
    // Escaping escaped text changes nothing: a value escaped twice reads the same.
    expect(printableLine(printableLine(hostile))).toBe(printableLine(hostile))
  })
})

describe('jsonText', () => {
  it('writes DEL, C1 and bidi controls as \\u escapes: the same value, no raw byte', () => {
    const value = { description: 'a\x1b[2J\x7f\x9b\x85\u202e\u2066b\0', n: 1, tags: ['\u202d'] }
    const text = jsonText(JSON.stringify(value, null, 2))
    // The indentation's line feeds aside, nothing a terminal acts on.
    expect(text.replaceAll('\n', '')).not.toMatch(RAW)
    expect(text).toContain('\\u001b[2J\\u007f\\u009b\\u0085\\u202e\\u2066b\\u0000')
    expect(JSON.parse(text)).toEqual(value)
  })

  it('returns JSON without them as it is', () => {
    const text = JSON.stringify({ a: 'Café \u00a0 東京', b: [1, 2] })
    expect(jsonText(text)).toBe(text)
  })
})

/**
 * Prompts show outside text escaped: a question, choices and a default that hold
 * terminal controls reach the terminal as visible escapes, and the value chosen is the exact one.
 * @inquirer/prompts runs over memory streams here; its own cursor and colour codes are allowed.
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { type PromptHost, promptConfirm, promptSearch, promptSelect, promptText } from '../../src/cli/prompts.js'

/** Sequences a prompt library never writes itself: an OSC (title, link), BEL, the 8-bit CSI, NUL, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: what the test looks for
const HOSTILE_RAW = /\x1b\]|[\x00\x07\x9b\u202a-\u202e\u2066-\u2069]/

function host(keys: string[]): { host: PromptHost; shown: () => string } {
  const stdin = new PassThrough()
  const stderr = new PassThrough()
  let text = ''
  stderr.setEncoding('utf8').on('data', (d: string) => (text += d))
  // The keys are typed once the prompt listens.
  setTimeout(() => {
    for (const k of keys) stdin.write(k)
  }, 50)
  return { host: { io: { stdin, stderr }, globals: {}, canPrompt: () => true }, shown: () => text }
}

const NAME = 'Pay \x1b]0;pwned\x07 \u202eRLO \x9b2J'
const SHOWN = 'Pay \\x1b]0;pwned\\x07 U+202ERLO \\x9b2J'

describe('prompts show control characters escaped and answer the exact value', () => {
  it('select: the question and the choices', async () => {
    const h = host(['\r'])
    const v = await promptSelect(h.host, `Category of "${NAME}"`, [{ name: NAME, value: NAME }])
    expect(v).toBe(NAME)
    expect(h.shown()).not.toMatch(HOSTILE_RAW)
    expect(h.shown()).toContain(SHOWN)
  })

  it('search: the choices as filtered', async () => {
    const h = host(['\r'])
    const v = await promptSearch(h.host, 'Pick', [{ name: NAME, value: 'x' }], 'x')
    expect(v).toBe('x')
    expect(h.shown()).not.toMatch(HOSTILE_RAW)
    expect(h.shown()).toContain(SHOWN)
  })

  it('input: a default with controls is shown escaped and given back exactly on Enter', async () => {
    const h = host(['\r'])
    const v = await promptText(h.host, 'Name', { default: NAME, validate: (s) => (s === NAME ? true : 'not the default') })
    expect(v).toBe(NAME)
    expect(h.shown()).not.toMatch(HOSTILE_RAW)
    expect(h.shown()).toContain(SHOWN)
    const typed = host(['abc\r'])
    expect(await promptText(typed.host, 'Name', { default: NAME })).toBe('abc')
  })

  it('confirm: the question', async () => {
    const h = host(['y\r'])
    expect(await promptConfirm(h.host, `Delete "${NAME}"?`)).toBe(true)
    expect(h.shown()).not.toMatch(HOSTILE_RAW)
    expect(h.shown()).toContain(SHOWN)
  })
})

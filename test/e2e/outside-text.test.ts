/**
 * End-to-end: the built CLI imports a bank file whose descriptions hold terminal
 * controls (an OSC title, a screen clear, cursor moves, the 8-bit CSI, NUL, a bidi override, an
 * OSC 8 link), then `tx list` into a pipe shows each one escaped and `--json` gives back the exact
 * text. Every form of output, in process: test/commands/outside-text.test.ts.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, fastKey, tsv } from '../helpers/cli.js'

// biome-ignore lint/suspicious/noControlCharactersInRegex: what the test looks for
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/

const HOSTILE: Array<[string, string]> = [
  ['Coffee \x1b]0;pwned\x07 beans', 'Coffee \\x1b]0;pwned\\x07 beans'],
  ['Rent \x1b[2J cleared', 'Rent \\x1b[2J cleared'],
  ['Fee \x1b[1A\x1b[K overwritten', 'Fee \\x1b[1A\\x1b[K overwritten'],
  ['Refund \x9b2J eight-bit', 'Refund \\x9b2J eight-bit'],
  ['NUL\0here', 'NUL\\x00here'],
  ['Salary \u202e00.0001', 'Salary U+202E00.0001'],
  ['Invoice \x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\', 'Invoice \\x1b]8;;https://evil.example/\\x1b\\click\\x1b]8;;\\x1b\\'],
]

describe('a bank file with terminal controls, through the built CLI', () => {
  let sb: Sandbox
  let account = ''

  beforeAll(async () => {
    sb = new Sandbox('outside-text')
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    await fastKey(sb)
    account = (await sb.json(['accounts', 'create', '--name', 'Hostile', '--type', 'checking', '--currency', 'USD', '--json'])).id
  })
  afterAll(() => sb?.cleanup())

  it('imports it, echoes the bad line escaped, lists it escaped into a pipe and exact as JSON', async () => {
    const file = join(sb.dir, 'hostile.csv')
    const rows = HOSTILE.map(([d], i) => `2026-06-0${i + 1},${d},-${i + 1}.00`)
    writeFileSync(file, `Date,Description,Amount\n2026-11-05\x1b[2J\x1b]0;T\x07,Bad date,-1.00\n${rows.join('\n')}\n`)
    const imported = await sb.run(['tx', 'import', file, '--account', account])
    expect(imported.code, imported.stderr).toBe(8)
    expect(imported.stderr).toMatch(/^line 2: .*2026-11-05\\x1b\[2J\\x1b\]0;T\\x07/m)
    expect(imported.stderr).not.toMatch(RAW)
    expect(imported.stdout).not.toMatch(RAW)

    const piped = await sb.run(['tx', 'list', '--account', account, '--sort', '-amount'])
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stdout).not.toMatch(RAW)
    const [header, ...cells] = tsv(piped.stdout)
    const col = header.indexOf('DESCRIPTION')
    expect(cells.map((r) => r[col])).toEqual(HOSTILE.map(([, shown]) => shown))

    const json = await sb.run(['tx', 'list', '--account', account, '--sort', '-amount', '--json'])
    expect(json.code, json.stderr).toBe(0)
    expect(json.stdout).not.toMatch(RAW)
    expect((JSON.parse(json.stdout) as Array<{ description: string }>).map((t) => t.description)).toEqual(HOSTILE.map(([d]) => d))
  })
})

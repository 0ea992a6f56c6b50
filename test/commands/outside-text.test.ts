/**
 * Text from outside is data, never terminal control, in process: a bank CSV whose
 * descriptions hold an OSC title, a screen clear, cursor moves, the 8-bit CSI, NUL, bidi overrides
 * and an OSC 8 link is imported, then read in every form: `tx list` as a terminal's table (with
 * and without colour), tab-separated rows, CSV, JSON and ndjson, `--jq` and `--template`; `tx get`;
 * `accounts list` of an account named with escapes; the import's own error lines; an error that
 * quotes what was typed. No output holds a character a terminal acts on, but the colour codes
 * finctl adds itself; JSON gives back the exact text. The same through the built CLI:
 * test/e2e/outside-text.test.ts.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { printableLine } from '../../src/cli/terminal-text.js'
import { displayWidth } from '../../src/cli/width.js'
import { tsv } from '../helpers/cli.js'
import type { InProcessSandbox } from '../helpers/in-process-cli.js'
import { callApi, type Tx, txWorld } from './tx/fixture.js'

/** A character a terminal acts on: C0 (but LF and TAB, the layout of lines and rows), DEL, C1, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: what the test looks for
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/

/** The descriptions of the hostile file, each a way to take the screen. */
const HOSTILE = [
  'Coffee \x1b]0;pwned\x07 beans',
  'Rent \x1b[2J cleared',
  'Fee \x1b[1A\x1b[K overwritten',
  'Refund \x9b2J eight-bit',
  'NUL\0here',
  'Salary \u202e00.0001 \u2066isolated\u2069',
  'Invoice \x1b]8;;https://evil.example/\x1b\\click me\x1b]8;;\x1b\\',
  'Hidden \x1b[8m-9999.00\x1b[28m end',
]
const BAD_DATE = '2026-11-05\x1b[2J\x1b]0;T\x07'
const ACCOUNT = 'Ops \x1b[31mred\x1b[0m \u202ereversed'

/** `text` with the sequences finctl adds itself in colour (bold headers, grey borders, red negative amounts, a yellow `warning:`) taken out. */
function withoutOwnColours(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape codes are what it takes out
  return text.replace(/\x1b\[(1|22|90|31|33|39)m/g, '')
}

function expectClean(text: string, what: string): void {
  const m = RAW.exec(text.replaceAll('\r\n', '\n'))
  expect(
    m,
    `${what}: a raw U+${m?.[0].charCodeAt(0).toString(16).padStart(4, '0')} near ${JSON.stringify(text.slice(Math.max(0, (m?.index ?? 0) - 20), (m?.index ?? 0) + 20))}`,
  ).toBeNull()
}

describe('text from outside is printed without control characters', () => {
  let sb: InProcessSandbox
  let account = ''
  let accountId = ''
  let imported: { code: number; stdout: string; stderr: string }
  const list = (args: string[] = [], o: Parameters<InProcessSandbox['run']>[1] = {}) =>
    sb.run(['tx', 'list', '--account', account, '--sort', 'amount', ...args], o)

  beforeAll(async () => {
    const world = await txWorld('outside-text', { rows: false })
    sb = world.sb
    account = world.accounts.scratch
    const created = await callApi(sb, 'POST', '/api-v1/bank-accounts', { name: ACCOUNT, account_type: 'checking', currency_code: 'USD' })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    accountId = created.body.data.id
    const file = sb.path('hostile.csv')
    const lines = HOSTILE.map((d, i) => `2026-06-${String(i + 1).padStart(2, '0')},${d},-${i + 1}.00`)
    writeFileSync(file, `Date,Description,Amount\n${BAD_DATE},Bad date,-1.00\n${lines.join('\n')}\n`)
    imported = await sb.run(['tx', 'import', file, '--account', account])
  })
  afterAll(() => sb?.cleanup())

  it('tx import stores the rows as sent and echoes the bad line escaped', () => {
    // One row refused (its date): exit 8, partial success.
    expect(imported.code, imported.stderr).toBe(8)
    expect(imported.stderr).toContain(`line 2: `)
    expect(imported.stderr).toContain(printableLine(BAD_DATE))
    expect(imported.stderr).toContain('2026-11-05\\x1b[2J\\x1b]0;T\\x07')
    expectClean(imported.stdout, 'import stdout')
    expectClean(imported.stderr, 'import stderr')
  })

  it('--json and ndjson give back the exact text, escaped as JSON and with no raw control byte', async () => {
    const r = await list(['--json'])
    expect(r.code, r.stderr).toBe(0)
    expectClean(r.stdout, 'json')
    const rows = JSON.parse(r.stdout) as Tx[]
    expect(rows.map((t) => t.description).sort()).toEqual([...HOSTILE].sort())
    expect(rows.map((t) => (t as Tx & { original_description: string }).original_description).sort()).toEqual([...HOSTILE].sort())
    const nd = await list(['--output', 'ndjson'])
    expectClean(nd.stdout, 'ndjson')
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as Tx).description)
        .sort(),
    ).toEqual([...HOSTILE].sort())
    const all = await list(['--all', '--json'])
    expectClean(all.stdout, '--all --json')
    expect((JSON.parse(all.stdout) as Tx[]).map((t) => t.description).sort()).toEqual([...HOSTILE].sort())
  })

  it('tab-separated rows (not a terminal) show each description escaped, on one line', async () => {
    for (const args of [[], ['--all']]) {
      const r = await list(args)
      expect(r.code, r.stderr).toBe(0)
      expectClean(r.stdout, `tsv ${args}`)
      const [header, ...rows] = tsv(r.stdout)
      const col = header.indexOf('DESCRIPTION')
      expect(rows).toHaveLength(HOSTILE.length)
      // Sorted by amount: -8.00 first.
      expect(rows.map((row) => row[col])).toEqual([...HOSTILE].reverse().map(printableLine))
    }
    const r = await list()
    expect(r.stdout).toContain('Coffee \\x1b]0;pwned\\x07 beans')
    expect(r.stdout).toContain('Refund \\x9b2J eight-bit')
    expect(r.stdout).toContain('NUL\\x00here')
    expect(r.stdout).toContain('Salary U+202E00.0001 U+2066isolatedU+2069')
  })

  it('--output csv escapes the controls and keeps the spreadsheet guard', async () => {
    for (const args of [[], ['--all']]) {
      const r = await list(['--output', 'csv', ...args])
      expect(r.code, r.stderr).toBe(0)
      expectClean(r.stdout, `csv ${args}`)
      expect(r.stdout).toContain('Rent \\x1b[2J cleared')
      expect(r.stdout).toContain(',NUL\\x00here,')
      expect(r.stdout).toContain('Invoice \\x1b]8;;https://evil.example/\\x1b\\click me\\x1b]8;;\\x1b\\')
    }
  })

  it('a terminal table at 100 columns holds no control character, fits, and keeps its own colours', async () => {
    for (const env of [{ NO_COLOR: '1' }, { FORCE_COLOR: '1' }]) {
      const r = await list([], { tty: { stdout: true, stderr: true }, columns: 100, env })
      expect(r.code, r.stderr).toBe(0)
      const colour = env.FORCE_COLOR !== undefined
      if (colour) expect(r.stdout).toContain('\x1b[1mDATE\x1b[22m')
      else expect(r.stdout).not.toContain('\x1b')
      expectClean(withoutOwnColours(r.stdout), `table colour=${colour}`)
      expectClean(r.stderr, 'table stderr')
      for (const line of r.stdout.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(100)
      expect(r.stdout).toContain('Rent \\x1b[2J cleared')
    }
    // Wide enough for every description whole.
    const wide = await list([], { tty: { stdout: true }, columns: 250 })
    for (const d of HOSTILE) expect(wide.stdout).toContain(printableLine(d))
  })

  it('--jq and --template: the exact text into a pipe, escaped on a terminal', async () => {
    const piped = await list(['--jq', '.[].description'])
    expect(piped.stdout.trimEnd().split('\n').length).toBeGreaterThanOrEqual(HOSTILE.length)
    expect(piped.stdout).toContain(HOSTILE[1])
    const jq = await list(['--jq', '.[].description'], { tty: { stdout: true } })
    expectClean(jq.stdout, '--jq on a terminal')
    expect(jq.stdout).toContain('Rent \\x1b[2J cleared')
    const tpl = await list(['--template', '{{range .}}{{.description}}{{"\\n"}}{{end}}'], { tty: { stdout: true } })
    expect(tpl.code, tpl.stderr).toBe(0)
    expectClean(tpl.stdout, '--template on a terminal')
    expect(tpl.stdout).toContain('Fee \\x1b[1A\\x1b[K overwritten')
  })

  it('tx get shows the description escaped as a record, and exact in JSON', async () => {
    const rows = (await list(['--json'])).stdout
    const t = (JSON.parse(rows) as Tx[]).find((x) => x.description === HOSTILE[0])!
    const r = await sb.run(['tx', 'get', t.id])
    expect(r.code, r.stderr).toBe(0)
    expectClean(r.stdout, 'tx get')
    expect(tsv(r.stdout)).toContainEqual(['description', printableLine(HOSTILE[0])])
    const tty = await sb.run(['tx', 'get', t.id], { tty: { stdout: true }, columns: 100, env: { FORCE_COLOR: '1' } })
    expectClean(withoutOwnColours(tty.stdout), 'tx get on a terminal')
    expect(tty.stdout).toContain(printableLine(HOSTILE[0]))
    const csv = await sb.run(['tx', 'get', t.id, '--output', 'csv'])
    expectClean(csv.stdout, 'tx get csv')
    expect((await sb.json<Tx>(['tx', 'get', t.id, '--json'])).description).toBe(HOSTILE[0])
  })

  it('accounts list shows a name with escapes escaped, in the table, the rows and CSV', async () => {
    for (const o of [{}, { tty: { stdout: true }, columns: 200, env: { NO_COLOR: '1' } }, { tty: { stdout: true }, columns: 200 }]) {
      const r = await sb.run(['accounts', 'list'], o)
      expect(r.code, r.stderr).toBe(0)
      expectClean(withoutOwnColours(r.stdout), `accounts list ${JSON.stringify(o)}`)
      expect(r.stdout).toContain('Ops \\x1b[31mred\\x1b[0m U+202Ereversed')
    }
    const csv = await sb.run(['accounts', 'list', '--output', 'csv'])
    expectClean(csv.stdout, 'accounts csv')
    const all = await sb.json<Array<{ id: string; name: string }>>(['accounts', 'list', '--json'])
    expect(all.find((a) => a.id === accountId)?.name).toBe(ACCOUNT)
  })

  it('finctl export: exact into a pipe (data for accounting tools), escaped on a terminal', async () => {
    const period = ['--from', '2026-06-01', '--to', '2026-06-30', '--account', account]
    for (const format of ['csv', 'hledger']) {
      const piped = await sb.run(['export', '--format', format, ...period])
      expect(piped.code, piped.stderr).toBe(0)
      expect(piped.stdout).toContain('Rent \x1b[2J cleared')
      const tty = await sb.run(['export', '--format', format, ...period], { tty: { stdout: true } })
      expect(tty.code, tty.stderr).toBe(0)
      expectClean(tty.stdout, `export ${format} on a terminal`)
      expect(tty.stdout).toContain('Rent \\x1b[2J cleared')
    }
  })

  it('an error quoting what was typed, and a usage error of the command line, are escaped', async () => {
    const missing = await sb.run(['accounts', 'get', 'nope\x1b[2J\u202e'])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toMatch(/^error: /)
    expectClean(missing.stderr, 'not found')
    // The service's refusal quotes a stored name (exit 6), here and with --json.
    const closed = await callApi(sb, 'PATCH', `/api-v1/bank-accounts/${accountId}`, { status: 'closed' })
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    const create = ['tx', 'create', '--account', accountId, '--date', '2026-06-30', '--description', 'x', '--amount', '-1']
    const refused = await sb.run(create)
    expect(refused.code, refused.stderr).toBe(6)
    expectClean(refused.stderr, 'refusal')
    expect(refused.stderr).toBe(`error: bank account "${printableLine(ACCOUNT)}" is closed: reopen it before adding transactions\n`)
    const refusedJson = await sb.run([...create, '--json'])
    expect(refusedJson.code).toBe(6)
    expectClean(refusedJson.stderr, 'refusal --json')
    expect(JSON.parse(refusedJson.stderr).message).toContain(ACCOUNT)
    const usage = await sb.run(['tx', 'list', '--from', 'x\x1b[2J'])
    expect(usage.code, usage.stderr).toBe(2)
    expectClean(usage.stderr, 'usage error')
    expect(usage.stderr).toContain('x\\x1b[2J')
    const unknown = await sb.run(['tx', 'list', '--bogus\x1b[2J'])
    expect(unknown.code).toBe(2)
    expectClean(unknown.stderr, 'unknown option')
  })
})

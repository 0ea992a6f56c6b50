/**
 * Widths count what the terminal shows: every list and report drawn by the built CLI
 * in a real terminal (a tmux pane of 80, 100 and 120 columns, its own socket), colour forced
 * (FORCE_COLOR=1), read back with capture-pane -J (a wrapped line comes back joined, so longer than
 * the pane). A line wider than the pane, or a table row that does not end in its border, fails.
 * Also: at 80 and 100 columns `tx list` keeps the id and `reports cash-flow` names what it leaves out.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import stringWidth from 'string-width'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, ROOT, Sandbox } from '../helpers/cli.js'

/** Every command that prints a list or a report as a table. */
const COMMANDS = [
  'tx list',
  'tx list --all',
  'accounts list',
  'accounts transactions Operating\\ account',
  'keys list',
  'categories',
  'rules list',
  'statements list',
  'rates list',
  'reports cash-flow --from 2026-01-01 --to 2026-12-31',
  'reports cash-flow --from 2026-01-01 --to 2026-12-31 --chart',
  'reports summary --from 2026-01-01 --to 2026-12-31',
]
const WIDTHS = [80, 100, 120]
/** A colour code (SGR escape). */
const ANSI_SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

describe('tables fit the terminal with colour on (tmux)', () => {
  let sb: Sandbox
  let bin: string
  const sockets: string[] = []

  beforeAll(async () => {
    sb = new Sandbox('widths')
    bin = join(sb.dir, 'bin')
    mkdirSync(bin)
    writeFileSync(join(bin, 'finctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`)
    chmodSync(join(bin, 'finctl'), 0o755)
    await sb.ok(['init', '--demo', '--password-stdin', '--no-input'], { input: 'password-for-widths\n' })
    // A long description and a red negative of many digits: what made rows wrap.
    const [account] = await sb.json<Array<{ id: string }>>(['accounts', 'list', '--json'])
    await sb.ok([
      'tx',
      'create',
      '--account',
      account.id,
      '--date',
      '2026-06-15',
      '--description',
      'Quarterly settlement of the equipment lease with Northwind Traders, invoice 2026-Q2-0042',
      '--amount',
      '-1234567.89',
      '--category',
      'Equipment leasing',
      '--force',
    ])
  })

  afterAll(() => {
    for (const s of sockets) {
      try {
        execFileSync('tmux', ['-L', s, 'kill-server'])
      } catch {
        // gone
      }
    }
    sb?.cleanup()
  })

  /** Run `line` in a fresh pane `width` columns wide; the pane's text, wrapped lines joined again. */
  async function render(width: number, line: string): Promise<string> {
    const socket = `finctl-widths-${process.pid}-${width}-${sockets.length}`
    sockets.push(socket)
    const env = sb.env({ PATH: `${bin}:${process.env.PATH}`, TMUX: undefined, TERM: 'xterm-256color', LANG: 'C.UTF-8', FORCE_COLOR: '1' })
    const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env })
    tmux('new-session', '-d', '-s', 'w', '-x', String(width), '-y', '200', `sh -c 'finctl ${line}; echo "[exit=$?]"; sleep 60'`)
    const deadline = Date.now() + 30_000
    let text = ''
    while (Date.now() < deadline) {
      text = tmux('capture-pane', '-p', '-J', '-e', '-t', 'w')
      if (/\[exit=\d+\]/.test(text)) break
      await new Promise((r) => setTimeout(r, 50))
    }
    tmux('kill-server')
    expect(text, `finctl ${line} at ${width}`).toMatch(/\[exit=0\]/)
    return text
  }

  for (const width of WIDTHS) {
    it(`every list and report at ${width} columns: no line wider, no row split`, async () => {
      for (const line of COMMANDS) {
        const text = await render(width, line)
        if (text.includes('┌')) expect(text, `finctl ${line} printed no colour at ${width}`).toContain('\x1b[')
        for (const l of text.split('\n')) {
          expect(stringWidth(l), `finctl ${line} at ${width}: ${JSON.stringify(l)}`).toBeLessThanOrEqual(width)
          const plain = l.replace(ANSI_SGR, '').trimEnd()
          if (plain.startsWith('│')) expect(plain.endsWith('│'), `finctl ${line} at ${width}: a row split: ${plain}`).toBe(true)
        }
      }
    }, 360_000)
  }

  it('at 80 columns tx list keeps the id, date, description (the widest share), amount and account, and names the rest', async () => {
    const text = (await render(80, 'tx list')).replace(ANSI_SGR, '')
    expect(text).toMatch(/2 columns hidden: CATEGORY, STATUS; widen the terminal or use --output/)
    const head = text.split('\n').find((l) => l.includes('DATE'))!
    const names = head
      .split('│')
      .map((c) => c.trim())
      .filter(Boolean)
    // A header may be cut ("ACCOU…"), never left out; its cells wrap.
    const expected = ['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'ACCOUNT']
    expect(names.length).toBe(expected.length)
    for (const [i, n] of names.entries()) expect(expected[i].startsWith(n.replace(/…$/, '')), `${n} for ${expected[i]}`).toBe(true)
    const widths = head
      .split('│')
      .slice(1, -1)
      .map((c) => c.length)
    // Of the text columns (the id, the amount and the date stay whole), the description is the widest.
    expect(widths[2]).toBeGreaterThanOrEqual(widths[4])
    expect(text).toMatch(/-1,234,567\.89 USD/)
  })

  it('at 80 and 100 columns reports cash-flow names the columns it leaves out', async () => {
    for (const width of [80, 100]) {
      const text = (await render(width, 'reports cash-flow --from 2026-01-01 --to 2026-12-31')).replace(ANSI_SGR, '')
      expect(text.replace(/\n/g, ' '), `at ${width}`).toMatch(
        /\d columns hidden: (.*, )?FINANCING USD(, .*)?; widen the terminal or use --output/,
      )
      expect(text).toContain('NET USD')
    }
  })

  it("the import's summary writes amounts as the locale does (--locale de-DE), as tables do", async () => {
    const text = (
      await render(100, `--locale de-DE tx import ${ROOT}/examples/seed-transactions.csv --account Operating\\ account --dry-run`)
    ).replace(ANSI_SGR, '')
    expect(text).toMatch(/amount total +│ +664,36 USD/)
  })

  it('at 120 columns tx list shows short ids (the last 8 characters), and names the account', async () => {
    const text = (await render(120, 'tx list')).replace(ANSI_SGR, '')
    const ids = await sb.json<Array<{ id: string }>>(['tx', 'list', '--json'])
    expect(text).toContain(`│ ${ids[0].id.slice(-8)} │`)
    expect(text).not.toContain(ids[0].id)
    expect(text).toContain('ACCOUNT')
    expect(text).toMatch(/│ Operating/)
  })
})

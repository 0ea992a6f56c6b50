/**
 * The table rules of docs/cli.md ("Tables on a terminal") over every command that prints a
 * table, in process with a TTY stdout of 60, 80, 100 and 160 columns, colour forced and off: no
 * line wider than the terminal; the id never left out; a column shown at 160 and left out at a
 * narrower width is named on stderr ("N columns hidden: ..."); no colour with NO_COLOR. Then the
 * single rules: negative amounts red, empty columns first to go, a record's long value wrapped,
 * close status's amounts grouped with their currency, tx list's account in CSV and tab-separated rows.
 */
import { writeFileSync } from 'node:fs'
import stringWidth from 'string-width'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

const WIDTHS = [60, 80, 100, 160]
const ANSI_SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')
const LONG =
  'Quarterly settlement of the equipment lease with Northwind Traders, invoice 2026-Q2-0042, as agreed with the landlord in the amendment of March'

describe('every table fits the terminal and names what it leaves out', () => {
  const sb = new InProcessSandbox('table-widths')
  let txId = ''
  let statementId = ''

  beforeAll(async () => {
    await sb.ok(['init', '--demo', '--password-stdin', '--no-input'], { input: 'password-for-table-widths\n' })
    const t = await sb.json<{ id: string }>([
      'tx',
      'create',
      '--account',
      'Operating account',
      '--date',
      '2026-06-15',
      '--description',
      LONG,
      '--amount',
      '-1234567.89',
      '--category',
      'Equipment leasing',
      '--force',
      '--json',
    ])
    txId = t.id
    await sb.ok(['rules', 'create', '--description-contains', 'coffee', '--set', 'category=Meals'])
    // A statement of June: close status shows its closing balance beside the book's.
    const june = sb.path('june.sta')
    writeFileSync(
      june,
      ':20:JUNE\n:25:123456789\n:28C:00006/001\n:60F:C260601USD1000000,00\n:61:2606200620D2345,67NTRFNONREF//1\n:86:Office rent June\n:62F:C260630USD997654,33\n-\n',
    )
    await sb.ok(['statements', 'upload', june, '--account', 'Operating account', '--format', 'mt940'])
    // A statement that fails: its error is a long line.
    const bad = sb.path('bad.sta')
    writeFileSync(bad, `:20:${'X'.repeat(200)}\n:25:nothing\n`)
    const up = await sb.run(['statements', 'upload', bad, '--account', 'Operating account', '--format', 'mt940', '--json'])
    statementId = (JSON.parse(up.stdout || '{}') as { id?: string }).id ?? ''
  }, 120_000)

  afterAll(() => sb.cleanup())

  /** Every command that prints a table (a list, a report, a record). */
  const commands = () => [
    ['tx', 'list'],
    ['tx', 'list', '--all'],
    ['accounts', 'list'],
    ['accounts', 'transactions', 'Operating account'],
    ['keys', 'list'],
    ['keys', 'usage'],
    ['categories'],
    ['rules', 'list'],
    ['statements', 'list'],
    ['rates', 'list'],
    ['reports', 'cash-flow', '--from', '2026-01-01', '--to', '2026-12-31'],
    ['reports', 'summary', '--from', '2026-01-01', '--to', '2026-12-31'],
    ['close', 'status', '--month', '2026-06'],
    ['close', 'history'],
    ['events', 'list'],
    ['profile', 'list'],
    ['tx', 'get', txId],
    ...(statementId ? [['statements', 'get', statementId]] : []),
  ]

  async function show(args: string[], columns: number, color: boolean) {
    const r = await sb.run(args, { tty: { stdout: true, stderr: true }, columns, env: color ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' } })
    expect([0, 12], `finctl ${args.join(' ')}: ${r.stderr}`).toContain(r.code)
    return r
  }

  /** The header names of the tables in `out` (a cut one "INSTITU…" as it is). */
  function headers(out: string): string[] {
    const plain = out.replace(ANSI_SGR, '').split('\n')
    const names: string[] = []
    for (const [i, l] of plain.entries())
      if (l.startsWith('┌'))
        names.push(
          ...plain[i + 1]
            .split('│')
            .map((c) => c.trim())
            .filter(Boolean),
        )
    return names
  }

  for (const color of [true, false]) {
    it(`at ${WIDTHS.join(', ')} columns, colour ${color ? 'forced' : 'off'}: no line wider, the id kept, a hidden column named`, async () => {
      for (const args of commands()) {
        const wide = headers((await show(args, 160, color)).stdout)
        const record = wide[0] === 'FIELD'
        for (const width of WIDTHS) {
          const r = await show(args, width, color)
          const what = `finctl ${args.join(' ')} at ${width}`
          // The table and the note under it (a progress line is redrawn in place: what stays is after its last \r).
          const noteLines = r.stderr.split('\n').filter((x) => /hidden|widen|--output/.test(x))
          for (const l of [...r.stdout.split('\n'), ...noteLines].map((x) => x.split('\r').at(-1) ?? ''))
            expect(stringWidth(l), `${what}: ${l}`).toBeLessThanOrEqual(width)
          if (!color) expect(r.stdout, what).not.toContain('\x1b[')
          else if (r.stdout.includes('┌')) expect(r.stdout, what).toContain('\x1b[')
          const shown = headers(r.stdout)
          if (wide.includes('ID')) expect(shown, what).toContain('ID')
          if (record) continue
          const hidden = /(\d+) columns? hidden: (.*); widen the terminal or use --output/s.exec(r.stderr.replace(/\n/g, ' '))
          const missing = wide.filter((h) => !shown.some((s) => s === h || (s.endsWith('…') && h.startsWith(s.slice(0, -1)))))
          if (missing.length === 0) expect(r.stderr, what).not.toMatch(/hidden:/)
          else {
            expect(hidden, `${what}: ${missing.join(', ')} left out without a note:\n${r.stderr}`).not.toBeNull()
            expect(Number(hidden?.[1]), what).toBe(missing.length)
            for (const m of missing) expect(hidden?.[2], what).toContain(m)
          }
        }
      }
    }, 300_000)
  }

  it('tx list at 80 columns keeps the id, and names the columns it leaves out', async () => {
    const r = await show(['tx', 'list'], 80, false)
    expect(headers(r.stdout).slice(0, 4)).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT'])
    expect(r.stdout).toContain(`│ ${txId.slice(-8)} │`)
    expect(r.stdout).toContain('-1,234,567.89 USD')
  })

  it('reports cash-flow at 100 and 80 columns names the categories it leaves out', async () => {
    const args = ['reports', 'cash-flow', '--from', '2026-01-01', '--to', '2026-12-31']
    expect(headers((await show(args, 160, false)).stdout)).toEqual(expect.arrayContaining(['FINANCING USD', 'UNCATEGORIZED USD']))
    for (const width of [80, 100]) {
      const r = await show(args, width, false)
      expect(headers(r.stdout)).toEqual(expect.arrayContaining(['PERIOD', 'NET USD', 'CLOSING USD']))
      expect(r.stderr.replace(/\n/g, ' '), `at ${width}`).toMatch(
        /\d columns hidden: (.*, )?FINANCING USD, UNCATEGORIZED USD; widen the terminal or use --output/,
      )
    }
  })

  it('negative amounts are red where colour is on (tx list, accounts list)', async () => {
    const r = await show(['tx', 'list'], 160, true)
    expect(r.stdout).toContain('\x1b[31m-1,234,567.89 USD\x1b[39m')
    const off = await show(['tx', 'list'], 160, false)
    expect(off.stdout).toContain('-1,234,567.89 USD')
    expect(off.stdout).not.toContain('\x1b[')
  })

  it('an empty column gives its width away before a text column is cut (accounts list at 80)', async () => {
    const r = await show(['accounts', 'list'], 80, false)
    expect(headers(r.stdout)).not.toContain('NUMBER')
    expect(r.stderr).toMatch(/1 column hidden: NUMBER \(empty\); widen the terminal or use --output/)
    expect(r.stdout).toMatch(/│ Operating/)
  })

  it("a record's long value wraps inside its cell (tx get at 80): the table is no wider than the terminal", async () => {
    const r = await show(['tx', 'get', txId], 80, false)
    const lines = r.stdout.split('\n').filter(Boolean)
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(80)
    expect(lines.every((l) => /^[│┌└]/.test(l) && /[│┐┘]$/.test(l))).toBe(true)
    // Every word of the description is there, across lines.
    const text = lines.map((l) => l.replace(/│/g, ' ')).join(' ')
    for (const w of LONG.split(' ')) expect(text).toContain(w)
  })

  it('close status writes its amounts grouped with their currency, and fits 80 and 100 columns', async () => {
    for (const width of [80, 100]) {
      const r = await show(['close', 'status', '--month', '2026-06'], width, false)
      for (const l of r.stdout.split('\n')) expect(stringWidth(l)).toBeLessThanOrEqual(width)
      expect(r.stdout).toMatch(/-?\d{1,3}(,\d{3})*\.\d\d USD/)
      expect(headers(r.stdout)).toContain('READY')
    }
  })

  it('tx list names the account in CSV and tab-separated rows, as the table does', async () => {
    const csv = await sb.ok(['tx', 'list', '--output', 'csv'])
    const [head, first] = csv.stdout.split('\r\n')
    expect(head.split(',')).toEqual(expect.arrayContaining(['account', 'account_id']))
    expect(first).toContain('Operating account')
    const tsv = await sb.ok(['tx', 'list'])
    const [h, row] = tsv.stdout.split('\n')
    const i = h.split('\t').indexOf('ACCOUNT')
    expect(i).toBeGreaterThan(0)
    expect(row.split('\t')[i]).toBe('Operating account')
  })
})

/**
 * Tables at 80 columns wrap at word boundaries: a word is broken only when it is wider than its
 * column can be, and an email, an id, a date or a time never is; each table's key column stays
 * (`close history`'s LOCK DATE, a budget's month, the budget report's category, however narrow).
 * Every list drawn at 80 columns is compared, word by word, with the same table drawn where nothing
 * needs to wrap; embedded and through `finctl serve`.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { previousMonth } from '../../../src/domain/accounts/period-lock.js'
import { displayWidth } from '../../../src/cli/width.js'
import { TARGET_KINDS, type Target, openTarget } from '../../helpers/two-targets.js'

const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))
const UNBROKEN = /^(?:[^\s@]+@[^\s@]+\.[^\s@]+|\d{4}-\d{2}(?:-\d{2})?(?:T[\d:.]+Z?)?|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})$/i

/** The cells of a box-drawn table, line by line, with each column's inner width. */
function cellLines(table: string): { lines: string[][]; widths: number[]; header: string[] } {
  const rows = table.split('\n').filter((l) => l.startsWith('│'))
  const split = (l: string) => l.split('│').slice(1, -1)
  const header = split(rows[0]).map((c) => c.trim())
  const widths = split(rows[0]).map((c) => displayWidth(c) - 2)
  return { lines: rows.slice(1).map((l) => split(l).map((c) => c.trim())), widths, header }
}

/** The pieces of words at `narrow` that are no whole word of `wide`: broken words, each with why it may not be. */
function brokenWords(narrow: string, wide: string): string[] {
  const words = new Set(cellLines(wide).lines.flatMap((cells) => cells.flatMap((c) => c.split(' '))))
  const { lines, widths, header } = cellLines(narrow)
  const out: string[] = []
  for (const cells of lines)
    cells.forEach((cell, i) => {
      for (const token of cell.split(' ').filter(Boolean)) {
        if (words.has(token)) continue
        const whole = [...words].filter((w) => w.includes(token))
        // A word wider than its column is broken where it reaches the edge; no other is, and these never.
        const fair = whole.some((w) => displayWidth(w) > widths[i] && !UNBROKEN.test(w))
        if (!fair) out.push(`${header[i]}: "${token}" of ${whole.map((w) => `"${w}"`).join(' or ') || '?'} (column ${widths[i]} wide)`)
      }
    })
  return out
}

describe.each(TARGET_KINDS)('tables at 80 columns never break a word that fits (%s)', (kind) => {
  let t: Target
  beforeAll(async () => {
    t = await openTarget(kind, 'table-words-with-a-long-company-domain')
    const acct = (
      await t.json(['accounts', 'create', '--name', 'Operating account at the cooperative bank', '--type', 'checking', '--json'])
    ).id
    const csv = t.sb.path('statement-of-the-operating-account.csv')
    writeFileSync(csv, `Date,Description,Amount\n${M}-03,Paper and toner for the printers,-12.00\n${today},Coffee,-3.00\n`)
    await t.ok(['statements', 'upload', csv, '--account', acct])
    const bad = t.sb.path('statement-with-a-line-in-the-closed-month.csv')
    writeFileSync(bad, `Date,Description,Amount\n${M}-20,Late fee of the cooperative bank,-5.00\n`)
    await t.ok(['close', M, '--force', '--reason', 'the statement of the reserve account arrives by post'])
    await t.run(['statements', 'upload', bad, '--account', acct])
    for (const who of ['carol.accountant', 'dave.bookkeeper'])
      await t.ok(['users', 'invite', '--email', `${who}@table-words-with-a-long-company-domain.test`, '--role', 'viewer'])
    await t.ok(['keys', 'create', '--name', 'Quarterly reporting for the auditors', '--scopes', 'read', '--output-file', t.sb.path('k')])
    const month = today.slice(0, 7)
    const category = 'Printing and stationery for the branch offices'
    await t.ok(['budgets', 'set', '--category', category, '--monthly', '1250.00', '--from', month, '--to', month, '--rollover'])
    await t.ok([
      'budgets',
      'set',
      '--category',
      category,
      '--monthly',
      '900.00',
      '--from',
      month,
      '--to',
      month,
      '--version',
      'reforecast-after-the-merger',
    ])
    await t.ok([
      'recurring',
      'add',
      '--name',
      'Maintenance contract of the office printers',
      '--amount',
      '-1250.00',
      '--interval',
      'last-working-day',
      '--start',
      today,
      '--category',
      category,
    ])
  })
  afterAll(() => t?.close())

  it('every list at 80 columns: words whole unless wider than their column; emails, ids and dates always', async () => {
    const commands = [
      ['statements', 'list'],
      ['users', 'list'],
      ['users', 'invitations'],
      ['close', 'history'],
      ['accounts', 'list'],
      ['tx', 'list'],
      ['imports', 'list'],
      ['keys', 'list'],
      ['events', 'list'],
      ['reports', 'summary', '--from', M, '--to', today],
      ['budgets', 'list'],
      ['budgets', 'versions'],
      ['recurring', 'list'],
      ['reports', 'budget', '--from', today.slice(0, 7), '--to', today.slice(0, 7)],
    ]
    for (const args of commands) {
      const draw = (columns: number) => t.run(args, { tty: { stdout: true }, columns, env: { NO_COLOR: '1' } })
      const [narrow, wide] = [await draw(80), await draw(1000)]
      expect(narrow.code, `${args.join(' ')}: ${narrow.stderr}`).toBe(0)
      expect(brokenWords(narrow.stdout, wide.stdout), `${args.join(' ')} at 80 columns:\n${narrow.stdout}`).toEqual([])
    }
    const history = await t.run(['close', 'history'], { tty: { stdout: true }, columns: 80, env: { NO_COLOR: '1' } })
    expect(cellLines(history.stdout).header).toContain('LOCK DATE')
    // What names a row stays on a narrow terminal: a budget's month, the budget report's category;
    // and the date a recurring item is due next, what its list is for.
    const keys: Array<[string[], number, string]> = [
      [['budgets', 'list'], 30, 'MONTH'],
      [['reports', 'budget', '--from', today.slice(0, 7), '--to', today.slice(0, 7)], 40, 'CATEGORY'],
      [['recurring', 'list'], 80, 'NEXT'],
    ]
    for (const [args, columns, header] of keys) {
      const r = await t.run(args, { tty: { stdout: true }, columns, env: { NO_COLOR: '1' } })
      expect(cellLines(r.stdout).header, `${args.join(' ')} at ${columns} columns:\n${r.stdout}`).toContain(header)
    }
  })
})

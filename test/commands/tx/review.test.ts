/**
 * `finctl tx review` in process, where it lists and never prompts (no terminal, --list, --json):
 * the uncategorized rows with the model's suggestion, --limit and the note of how many in all,
 * nothing to review, usage errors naming the flag (exit 2); and one by one on a terminal, keys
 * typed as the prompts appear (a new category by its name). In a real terminal:
 * test/e2e/tty.test.ts; a model trained on an imported file:
 * test/commands/model/categorize-files.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import type { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { type Tx, txWorld } from './fixture.js'

/** The arrow key down. */
const DOWN = '\x1b[B'

interface Item {
  transaction: Tx
  suggestion: { source: string; category: string; confidence: number | null } | null
}

describe('tx review, in process', () => {
  let sb: InProcessSandbox
  let account = ''
  const create = async (date: string, description: string, ...extra: string[]) =>
    (
      await sb.json<Tx>([
        'tx',
        'create',
        '--account',
        account,
        '--date',
        date,
        '--description',
        description,
        '--amount',
        '-12.00',
        ...extra,
        '--json',
      ])
    ).id

  beforeAll(async () => {
    const world = await txWorld('tx-review', { rows: false })
    sb = world.sb
    account = world.accounts.scratch
  })
  afterAll(() => sb?.cleanup())

  it('nothing to review: an empty list, and a note on a terminal', async () => {
    expect(await sb.json(['tx', 'review', '--json'])).toEqual([])
    const tty = await sb.ok(['tx', 'review', '--list'], { tty: { stdout: true, stderr: true } })
    expect(tty.stderr).toContain('nothing to review: every transaction is categorized with confidence')
  })

  it('off a terminal, the uncategorized rows with their suggestion; --json the same items', async () => {
    for (const [i, d] of ['2026-03-01', '2026-03-02', '2026-03-03'].entries()) await create(d, `Coffee beans ${i}`, '--category', 'Meals')
    const open = [await create('2026-03-04', 'Coffee beans 4'), await create('2026-03-05', 'Coffee beans 5')]
    const table = await sb.ok(['tx', 'review'])
    const [header, ...rows] = tsv(table.stdout)
    expect(header).toEqual(['ID', 'DATE', 'AMOUNT', 'DESCRIPTION', 'CATEGORY', 'SCORE', 'SUGGESTION', 'DOCUMENT'])
    expect(rows.map((r) => r[0]).sort()).toEqual([...open].sort())
    for (const r of rows) {
      expect(r.slice(2, 6)).toEqual(['-12.00 USD', expect.stringMatching(/^Coffee beans [45]$/), '', ''])
      expect(r[6]).toMatch(/^Meals \(\d\.\d\d\)$/)
    }
    const items = await sb.json<Item[]>(['tx', 'review', '--json'])
    expect(items.map((i) => i.transaction.id).sort()).toEqual([...open].sort())
    for (const i of items) {
      expect(i.transaction.category).toBeNull()
      expect(i.suggestion).toMatchObject({ source: 'model', category: 'Meals' })
    }
  })

  it('--limit cuts the list and says how many there are in all; --list on a terminal prints and asks nothing', async () => {
    const one = await sb.ok(['tx', 'review', '--limit', '1'])
    expect(tsv(one.stdout)).toHaveLength(2)
    expect(one.stderr).toContain('2 to review in all; showing 1')
    const listed = await sb.ok(['tx', 'review', '--list'], { tty: { stdin: true, stdout: true, stderr: true }, columns: 200 })
    expect(listed.stdout).toContain('Coffee beans 4')
    expect(listed.stderr).not.toContain('Category')
  })

  it('one by one: a category name no row has yet is offered as "Create category", and choosing it sets it', async () => {
    for (const d of ['2026-02-01', '2026-02-02', '2026-02-03']) await create(d, 'Office rent', '--amount', '-900.00', '--category', 'Rent')
    const daycare = await create('2026-03-06', 'Little Stars daycare')
    const r = await sb.run(['tx', 'review', '--limit', '1'], {
      tty: { stdin: true, stdout: true, stderr: true },
      columns: 100,
      script: [
        ['Choose a category', DOWN], // past "Accept ..."
        ['❯ Choose a category', '\r'],
        ['Category (type to filter', 'Childcare'],
        ['Create category "Childcare"', '\r'],
        ['cost_of_goods_sold', '\r'],
        ['investing', '\r'],
      ],
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).not.toContain('No results found')
    expect(r.stderr).toContain('reviewed 1: 0 accepted, 1 corrected, 0 skipped')
    // The model's reasons in words, and one score, explained: not the features' codes, not two numbers.
    const item = r.stderr.slice(r.stderr.indexOf('Little Stars daycare'), r.stderr.indexOf('Choose a category'))
    const line = item.match(
      /the model suggests: Meals, score (\d\.\d\d) \(suggestions scored so are right at least (\d+) times in 100\)\n {2}because of: (.+)/,
    )
    expect(line, item).not.toBeNull()
    expect(Number(line![2])).toBe(Math.round(Number(line![1]) * 100))
    expect(line![3]).not.toMatch(/\b[sabm]:/)
    expect(line![3]).toMatch(/sign: money out|amount under 100/)
    expect(item.match(/\d\.\d\d/g)).toEqual([line![1]])
    const t = await sb.json<Tx>(['tx', 'get', daycare, '--json'])
    expect(t.category).toBe('Childcare')
    const names = (await sb.json<{ categories: Array<{ name: string }> }>(['categories', '--json'])).categories.map((c) => c.name)
    expect(names).toContain('Childcare')
  }, 120_000)

  it('usage errors name the flag (exit 2)', async () => {
    const limit = await sb.run(['tx', 'review', '--limit', 'x'])
    expect([limit.code, limit.stderr]).toEqual([2, 'error: --limit must be a whole number of at least 1 (got "x")\n'])
    const below = await sb.run(['tx', 'review', '--below', '2'])
    expect([below.code, below.stderr]).toEqual([2, 'error: --below must be a score between 0 and 1, e.g. 0.9\n'])
    const arg = await sb.run(['tx', 'review', 'extra'])
    expect(arg.code).toBe(2)
    expect(arg.stderr).toContain('too many arguments')
  })
})

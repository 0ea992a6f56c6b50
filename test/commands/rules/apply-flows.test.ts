/**
 * `finctl rules apply` as a finance person uses it, in process: --only-empty keeps a category set
 * by hand, --all runs every active rule in one pass in their order, --dry-run lists and changes
 * nothing, and on a terminal the question names the window and comes after the rows it would change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import { InProcessSandbox, fastKey } from '../../helpers/in-process-cli.js'

interface Tx {
  id: string
  category: string | null
  tags: string[]
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)
const TERMINAL = { tty: { stdin: true, stderr: true } }
/** What a terminal shows, on one line: the prompt's cursor moves and colours out, its wrapping undone. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escapes a prompt draws with
const shown = (text: string) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replaceAll('\n', '')

describe('rules apply: only empty fields, all rules, dry run, the confirmation', () => {
  const sb = new InProcessSandbox('rules-apply')
  const tx = { hand: '', open: '', other: '' }
  let meals = ''
  let shop = ''

  beforeAll(async () => {
    await sb.ok(['init', '--company', 'Apply Co', '--currency', 'USD', '--password-stdin', '--no-input'], { input: 'password-for-apply\n' })
    await fastKey(sb)
    await sb.ok(['accounts', 'create', '--name', 'Ops', '--type', 'checking', '--currency', 'USD'])
    const create = async (age: number, description: string, ...extra: string[]) =>
      (
        await sb.json<Tx>([
          'tx',
          'create',
          '--account',
          'Ops',
          '--date',
          daysAgo(age),
          '--description',
          description,
          '--amount=-4.50',
          ...extra,
          '--json',
        ])
      ).id
    tx.hand = await create(2, 'Coffee meals shop', '--category', 'Coffee')
    tx.open = await create(3, 'Dinner meals shop')
    tx.other = await create(4, 'Corner shop')
    meals = (await sb.json<{ id: string }>(['rules', 'create', '--description-contains', 'meals', '--set', 'category=Meals', '--json'])).id
    shop = (
      await sb.json<{ id: string }>([
        'rules',
        'create',
        '--description-contains',
        'shop',
        '--set',
        'category=Shopping',
        '--set',
        'tags=shop',
        '--json',
      ])
    ).id
  })
  afterAll(() => sb.cleanup())

  const category = async (id: string) => (await sb.json<Tx>(['tx', 'get', id, '--json'])).category

  it('--dry-run lists the rows that would change, current → new category, and changes nothing', async () => {
    const r = await sb.ok(['rules', 'apply', meals, '--dry-run'])
    const [header, ...rows] = tsv(r.stdout)
    expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'CATEGORY'])
    expect(rows).toEqual([
      [tx.open, daysAgo(3), 'Dinner meals shop', '-4.50 USD', '(none) → Meals'],
      [tx.hand, daysAgo(2), 'Coffee meals shop', '-4.50 USD', 'Coffee → Meals'],
    ])
    expect(r.stderr).toContain(
      `dry run: rule 'description contains "meals"' would change 2 of 2 matching transactions since ${daysAgo(90)} (--since 90d: 90 days before today); nothing was changed`,
    )
    expect(await category(tx.hand)).toBe('Coffee')
    expect(await category(tx.open)).toBeNull()
  })

  it('on a terminal the rows come before the question, which names the window and what would be replaced', async () => {
    const r = await sb.run(['rules', 'apply', meals], { ...TERMINAL, script: [['Apply rule', 'n\r']] })
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toContain('cancelled: nothing was changed')
    const table = shown(r.stderr).indexOf('Coffee → Meals')
    const question = shown(r.stderr).indexOf(
      `dated since ${daysAgo(90)} (--since 90d: 90 days before today)1 of them has a value that would be replaced: --only-empty keeps it? Apply rule 'description contains "meals"' to these 2 transactions?`,
    )
    expect(table).toBeGreaterThan(-1)
    expect(r.stderr).toContain('(none) → Meals')
    expect(question).toBeGreaterThan(table)
    expect(await category(tx.hand)).toBe('Coffee')
  })

  it('the confirmation lists the first rows and says how many more', async () => {
    for (let i = 0; i < 11; i++)
      await sb.ok(['tx', 'create', '--account', 'Ops', '--date', daysAgo(5), '--description', `Team meals ${i}`, '--amount=-1.00'])
    const r = await sb.run(['rules', 'apply', meals, '--since', daysAgo(30)], { ...TERMINAL, script: [['Apply rule', 'n\r']] })
    expect(r.code).toBe(2)
    expect(r.stderr.match(/→ Meals/g)).toHaveLength(10)
    expect(r.stderr).toContain('\nand 3 more\n')
    expect(shown(r.stderr)).toContain(`dated since ${daysAgo(30)}1 of them has`)
    expect(shown(r.stderr)).toContain('to these 13 transactions?')
  })

  it('--only-empty keeps the category set by hand and fills the empty one', async () => {
    const r = await sb.run(['rules', 'apply', meals, '--only-empty', '--since', '4d', '--yes', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ only_empty: true, matched: 2, updated: 1, transaction_ids: [tx.open] })
    expect(await category(tx.hand)).toBe('Coffee')
    expect(await category(tx.open)).toBe('Meals')
  })

  it('--all runs the active rules in one pass, in their order: the first rule setting a field wins', async () => {
    const dry = await sb.ok(['rules', 'apply', '--all', '--only-empty', '--since', '4d', '--dry-run'])
    expect(dry.stderr).toContain(`dry run: the 2 active rules in order would change 3 of 3 matching transactions since ${daysAgo(4)}`)
    const r = await sb.run(['rules', 'apply', '--all', '--only-empty', '--since', '4d', '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('updated 3 of 3 matching transactions since')
    const [hand, open, other] = await Promise.all([tx.hand, tx.open, tx.other].map((id) => sb.json<Tx>(['tx', 'get', id, '--json'])))
    expect([hand.category, hand.tags]).toEqual(['Coffee', ['shop']])
    expect([open.category, open.tags]).toEqual(['Meals', ['shop']])
    expect([other.category, other.tags]).toEqual(['Shopping', ['shop']])
    // Without --only-empty the same pass replaces the category set by hand.
    await sb.ok(['rules', 'apply', '--all', '--since', '4d', '--yes'])
    expect(await category(tx.hand)).toBe('Meals')
    expect(shop).not.toBe('')
  })

  it('an ID and --all, or neither, is a usage error (exit 2)', async () => {
    const both = await sb.run(['rules', 'apply', meals, '--all', '--yes'])
    expect([both.code, both.stderr]).toEqual([2, "error: give a rule's ID or --all, not both\n"])
    const neither = await sb.run(['rules', 'apply', '--yes'])
    expect([neither.code, neither.stderr]).toEqual([2, "error: give a rule's ID, or --all for every active rule in order\n"])
  })
})

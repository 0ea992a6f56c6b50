/**
 * `finctl tx bulk-update` in process (moved from test/e2e/tx.test.ts), over the Bulk account of
 * fixture.ts: --dry-run, --yes (else exit 2), by filters, --ids and --ids-file, all or nothing on an
 * unknown id (exit 5), usage errors (exit 2) that change nothing.
 */
import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import type { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { type AccountKey, type Fixture, type Tx, sortedIds, txWorld } from './fixture.js'

describe('tx bulk-update, in process', () => {
  let sb: InProcessSandbox
  const accounts = {} as Record<AccountKey | 'scratch', string>
  let fx: Fixture[]
  const only = (pred: (f: Fixture) => boolean) => fx.filter(pred)

  beforeAll(async () => {
    const world = await txWorld('tx-bulk-update', { rows: true })
    sb = world.sb
    Object.assign(accounts, world.accounts)
    fx = world.fx
  })
  afterAll(() => sb?.cleanup())

  /** The 12 rows of the Bulk account, by id. */
  const state = async () =>
    new Map((await sb.json<Tx[]>(['tx', 'list', '--account', accounts.bulk, '--limit', '1000', '--json'])).map((t) => [t.id, t]))
  const bulk = () => only((f) => f.account === 'bulk') // j = 0..11: Fuel when even, -(j+1)*10.50, tags ['keep'] for j < 4
  let before: Map<string, Tx>

  it('--dry-run prints the count and the exact total on stderr and changes nothing', async () => {
    before = await state()
    expect(before.size).toBe(12)
    const r = await sb.run([
      'tx',
      'bulk-update',
      '--account',
      accounts.bulk,
      '--category',
      'Fuel',
      '--max-amount',
      '-40',
      '--set',
      'category=Transport',
      '--dry-run',
    ])
    expect(r.code, r.stderr).toBe(0)
    // Fuel rows j = 4, 6, 8, 10: -52.50 - 73.50 - 94.50 - 115.50
    expect(r.stderr).toContain('dry run: would change 4 transactions, total -336.00 USD: set category=Transport')
    const listed = tsv(r.stdout)
      .slice(1)
      .map((row) => row[0])
    expect(listed.sort()).toEqual(sortedIds(bulk().filter((_, j) => j % 2 === 0 && j >= 4)))
    expect(await state()).toEqual(before)
  })

  it('without --yes it exits 2 and changes nothing', async () => {
    const r = await sb.run([
      'tx',
      'bulk-update',
      '--account',
      accounts.bulk,
      '--category',
      'Fuel',
      '--max-amount',
      '-40',
      '--set',
      'category=Transport',
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--yes')
    expect(r.stderr).toContain('4 transactions, total -336.00 USD')
    expect(await state()).toEqual(before)
  })

  it('with filters and --yes it changes exactly the matching rows', async () => {
    const r = await sb.run([
      'tx',
      'bulk-update',
      '--account',
      accounts.bulk,
      '--category',
      'Fuel',
      '--max-amount',
      '-40',
      '--set',
      'category=Transport',
      '--set',
      'accounting_category=operating_expenses',
      '--yes',
      '--json',
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('updated 4 transactions')
    const changed = JSON.parse(r.stdout) as Tx[]
    const targets = new Set(
      bulk()
        .filter((_, j) => j % 2 === 0 && j >= 4)
        .map((f) => f.id),
    )
    expect(sortedIds(changed)).toEqual([...targets].sort())
    const now = await state()
    for (const [id, t] of now) {
      const was = before.get(id)!
      if (targets.has(id)) {
        expect(t).toMatchObject({ category: 'Transport', accounting_category: 'operating_expenses', amount: was.amount, tags: was.tags })
      } else {
        expect(t).toEqual(was)
      }
    }
    before = now
  })

  it('a filter that matches nothing changes nothing (exit 0)', async () => {
    const r = await sb.run(['tx', 'bulk-update', '--account', accounts.bulk, '--category', 'Nope', '--set', 'category=X', '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('no transactions match')
  })

  it('--ids A,B --set add_tags=t --yes adds the tag to exactly those two', async () => {
    const [a, b] = [bulk()[0].id, bulk()[5].id]
    const r = await sb.run(['tx', 'bulk-update', '--ids', `${a},${b}`, '--set', 'add_tags=t', '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('updated 2 transactions')
    const now = await state()
    expect(now.get(a)!.tags).toEqual(['keep', 't'])
    expect(now.get(b)!.tags).toEqual(['t'])
    for (const [id, t] of now) if (id !== a && id !== b) expect(t).toEqual(before.get(id))
    before = now
  })

  it('an unknown id among --ids exits 5, names it, and changes nothing (all or nothing)', async () => {
    const ghost = randomUUID()
    const r = await sb.run(['tx', 'bulk-update', '--ids', `${bulk()[1].id},${ghost},${bulk()[2].id}`, '--set', 'add_tags=u', '--yes'])
    expect(r.code).toBe(5)
    expect(r.stderr).toContain(ghost)
    expect(r.stderr).toContain('nothing was changed')
    expect(await state()).toEqual(before)
  })

  it('--ids-file reads one id per line (blank lines and # comments skipped)', async () => {
    const [x, y] = [bulk()[1].id, bulk()[3].id]
    const file = join(sb.dir, 'ids.txt')
    writeFileSync(file, `# two rows\n${x}\n\n${y}  # this one too\n`)
    const r = await sb.run(['tx', 'bulk-update', '--ids-file', file, '--set', 'merchant_name=Shell', '--set', 'remove_tags=keep', '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('updated 2 transactions')
    const now = await state()
    for (const id of [x, y]) expect(now.get(id)).toMatchObject({ merchant_name: 'Shell', tags: [] })
    for (const [id, t] of now) if (id !== x && id !== y) expect(t).toEqual(before.get(id))
    before = now
  })

  it('usage errors exit 2 and change nothing: a field that cannot be bulk-updated, no selection, two selections, no --set', async () => {
    const a = bulk()[0].id
    const cases = [
      ['--ids', a, '--set', 'amount=5', '--yes'],
      ['--set', 'category=X', '--yes'],
      ['--ids', a, '--category', 'Fuel', '--set', 'category=X', '--yes'],
      ['--ids', a, '--yes'],
      ['--ids', a, '--set', 'category', '--yes'],
    ]
    const results = await Promise.all(cases.map((flags) => sb.run(['tx', 'bulk-update', ...flags])))
    results.forEach((r, n) => {
      expect(r.code, `${cases[n].join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stdout).toBe('')
    })
    expect(results[0].stderr).toContain('amount cannot be bulk-updated')
    expect(results[1].stderr).toContain('exactly one of --ids, --ids-file or list filters')
    expect(results[2].stderr).toContain('exactly one of --ids, --ids-file or list filters')
    expect(results[3].stderr).toContain('--set')
    expect(await state()).toEqual(before)
  })
})

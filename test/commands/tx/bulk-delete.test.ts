/**
 * `finctl tx bulk-delete` in process, over the Bulk account of fixture.ts: --dry-run, --yes (else
 * exit 2), by filters, --ids and --ids-file, all or nothing on an unknown id (exit 5), a reconciled
 * row refused before the question (exit 6), usage errors (exit 2) that delete nothing. A closed
 * month: locked.test.ts; under an approval policy: test/commands/approvals/steps.test.ts.
 */
import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import type { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { type AccountKey, type Fixture, type Tx, createScratch, sortedIds, txWorld } from './fixture.js'

describe('tx bulk-delete, in process', () => {
  let sb: InProcessSandbox
  const accounts = {} as Record<AccountKey | 'scratch', string>
  let fx: Fixture[]

  beforeAll(async () => {
    const world = await txWorld('tx-bulk-delete', { rows: true })
    sb = world.sb
    Object.assign(accounts, world.accounts)
    fx = world.fx
  })
  afterAll(() => sb?.cleanup())

  /** The rows of the Bulk account still there, by id. */
  const state = async () =>
    new Map((await sb.json<Tx[]>(['tx', 'list', '--account', accounts.bulk, '--limit', '1000', '--json'])).map((t) => [t.id, t]))
  const bulk = () => fx.filter((f) => f.account === 'bulk') // j = 0..11: Fuel when even, -(j+1)*10.50
  const fuelOver40 = () => bulk().filter((_, j) => j % 2 === 0 && j >= 4) // j = 4, 6, 8, 10
  const select = ['--account', '', '--category', 'Fuel', '--max-amount', '-40']
  const selection = () => select.map((a, i) => (i === 1 ? accounts.bulk : a))

  it('--dry-run prints the count and the exact total on stderr, the rows on stdout, and deletes nothing', async () => {
    const r = await sb.run(['tx', 'bulk-delete', ...selection(), '--dry-run'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('dry run: would delete 4 transactions, total -336.00 USD')
    const listed = tsv(r.stdout)
      .slice(1)
      .map((row) => row[0])
    expect(listed.sort()).toEqual(sortedIds(fuelOver40()))
    expect((await state()).size).toBe(12)
  })

  it('without --yes it exits 2 naming --yes and deletes nothing', async () => {
    const r = await sb.run(['tx', 'bulk-delete', ...selection()])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--yes')
    expect(r.stderr).toContain('Delete 4 transactions, total -336.00 USD')
    expect((await state()).size).toBe(12)
  })

  it('with filters and --yes --json it deletes exactly the matching rows and prints them as they were', async () => {
    const r = await sb.run(['tx', 'bulk-delete', ...selection(), '--yes', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('deleted 4 transactions')
    const gone = JSON.parse(r.stdout) as Tx[]
    expect(sortedIds(gone)).toEqual(sortedIds(fuelOver40()))
    expect(gone.every((t) => t.category === 'Fuel' && t.amount <= -40)).toBe(true)
    const now = await state()
    expect(sortedIds([...now.values()])).toEqual(sortedIds(bulk().filter((f) => !fuelOver40().includes(f))))
    const got = await sb.run(['tx', 'get', gone[0].id])
    expect(got.code).toBe(5)
  })

  it('a filter that matches nothing deletes nothing (exit 0)', async () => {
    const r = await sb.run(['tx', 'bulk-delete', '--account', accounts.bulk, '--category', 'Nope', '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('no transactions match: nothing to delete')
  })

  it('an unknown id among --ids exits 5, names it, and deletes nothing (all or nothing)', async () => {
    const ghost = randomUUID()
    const r = await sb.run(['tx', 'bulk-delete', '--ids', `${bulk()[1].id},${ghost}`, '--yes'])
    expect(r.code).toBe(5)
    expect(r.stderr).toContain(ghost)
    expect(r.stderr).toContain('nothing was deleted')
    expect((await state()).has(bulk()[1].id)).toBe(true)
  })

  it('--ids-file reads one id per line (blank lines and # comments skipped)', async () => {
    const [x, y] = [bulk()[1].id, bulk()[3].id]
    const file = join(sb.dir, 'ids-delete.txt')
    writeFileSync(file, `# two rows\n${x}\n\n${y}  # this one too\n`)
    const r = await sb.run(['tx', 'bulk-delete', '--ids-file', file, '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('deleted 2 transactions')
    const now = await state()
    expect(now.has(x) || now.has(y)).toBe(false)
    expect(now.size).toBe(6)
  })

  it('a reconciled row among those matched is refused before the question (exit 6); by --ids, by the service; nothing deleted', async () => {
    const kept = await createScratch({ sb, accounts }, 'Reconciled one', '-5.00')
    const other = await createScratch({ sb, accounts }, 'Plain one', '-6.00')
    await sb.ok(['tx', 'update', kept, '--reconciled', 'true'])
    const r = await sb.run(['tx', 'bulk-delete', '--account', accounts.scratch, '--search', 'one'])
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toContain(`transaction ${kept}, one of those matched, is reconciled`)
    expect(r.stderr).not.toContain('--yes')
    const byIds = await sb.run(['tx', 'bulk-delete', '--ids', `${other},${kept}`, '--yes'])
    expect(byIds.code, byIds.stderr).toBe(6)
    expect(byIds.stderr).toContain('nothing was deleted')
    const left = await sb.json<Tx[]>(['tx', 'list', '--account', accounts.scratch, '--json'])
    expect(sortedIds(left)).toEqual([kept, other].sort())
  })

  it('usage errors exit 2 and delete nothing: no selection, two selections, --set', async () => {
    const a = bulk()[0].id
    const cases = [['--yes'], ['--ids', a, '--category', 'Fuel', '--yes'], ['--ids', a, '--set', 'category=X', '--yes']]
    const results = await Promise.all(cases.map((flags) => sb.run(['tx', 'bulk-delete', ...flags])))
    results.forEach((r, n) => {
      expect(r.code, `${cases[n].join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stdout).toBe('')
    })
    expect(results[0].stderr).toContain('exactly one of --ids, --ids-file or list filters')
    expect(results[1].stderr).toContain('exactly one of --ids, --ids-file or list filters')
    expect(results[2].stderr).toContain('--set')
    expect((await state()).has(a)).toBe(true)
  })
})

/**
 * `finctl tx update` in process (moved from test/e2e/tx.test.ts): each change leaves a history
 * entry; what the service refuses (exit 6: a reconciled amount, a status going back, an implausible
 * date or amount without --force, moved from test/e2e/plausible-input.test.ts), usage errors naming
 * the flag (exit 2), an unknown id (exit 5).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import type { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { type AccountKey, type Tx, txWorld, createScratch } from './fixture.js'

describe('tx update, in process', () => {
  let sb: InProcessSandbox
  let keyId: string
  const accounts = {} as Record<AccountKey | 'scratch', string>
  const create = (description: string, amount: string, extra: string[] = []) => createScratch({ sb, accounts }, description, amount, extra)
  const get = (id: string) => sb.json(['tx', 'get', id, '--json'])
  let lamp: string

  beforeAll(async () => {
    const world = await txWorld('tx-update', { rows: false })
    sb = world.sb
    keyId = world.keyId
    Object.assign(accounts, world.accounts)
    lamp = await create('Desk lamp', '-45.00', ['--category', 'Furniture'])
  })
  afterAll(() => sb?.cleanup())

  it('tx update --category, --amount, --tags change the transaction, and each leaves a history entry with before/after', async () => {
    const cat = await sb.run(['tx', 'update', lamp, '--category', 'Office', '--json'])
    expect(cat.code, cat.stderr).toBe(0)
    expect(JSON.parse(cat.stdout)).toMatchObject({ id: lamp, category: 'Office', amount: -45 })
    expect(cat.stderr).toContain(`updated transaction ${lamp}`)
    expect(await sb.json(['tx', 'update', lamp, '--amount', '-50.25', '--json'])).toMatchObject({ amount: -50.25, category: 'Office' })
    expect(await sb.json(['tx', 'update', lamp, '--tags', 'a, b,a', '--json'])).toMatchObject({ tags: ['a', 'b'], amount: -50.25 })

    const t = await get(lamp)
    expect(t).toMatchObject({ category: 'Office', amount: -50.25, tags: ['a', 'b'] })
    expect(t.history.map((e: { action: string }) => e.action)).toEqual(['create', 'update', 'update', 'update'])
    expect(t.history[1]).toMatchObject({ actor: `key:${keyId}` })
    expect(t.history[1].changes).toEqual({ category: { before: 'Furniture', after: 'Office' } })
    expect(t.history[2].changes).toEqual({ amount: { before: -45, after: -50.25 } })
    expect(t.history[3].changes).toEqual({ tags: { before: [], after: ['a', 'b'] } })
  })

  it('a reconciled transaction keeps its amount: exit 6 naming un-reconcile; other fields still change', async () => {
    expect(await sb.json(['tx', 'update', lamp, '--reconciled', 'true', '--json'])).toMatchObject({ is_reconciled: true })
    const r = await sb.run(['tx', 'update', lamp, '--amount', '-1.00'])
    expect(r.code).toBe(6)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error: .*un-reconcile/m)
    // Off a terminal without --json: a FIELD/VALUE table, the amount in fixed decimals as tx create and tx get show it.
    const table = await sb.ok(['tx', 'update', lamp, '--category', 'Lighting'])
    const fields = Object.fromEntries(tsv(table.stdout).slice(1))
    expect(fields).toMatchObject({ id: lamp, category: 'Lighting', amount: '-50.25 USD', is_reconciled: 'true' })
    const t = await get(lamp)
    expect(t.amount).toBe(-50.25)
    expect(t.history).toHaveLength(6)
  })

  it('status goes pending -> posted, never back: exit 6', async () => {
    const id = await create('Stamps', '-3.10')
    expect(await sb.json(['tx', 'update', id, '--status', 'posted', '--json'])).toMatchObject({ status: 'posted' })
    const back = await sb.run(['tx', 'update', id, '--status', 'pending'])
    expect(back.code).toBe(6)
    expect(back.stderr).toContain('cannot go from posted to pending')
    expect((await get(id)).status).toBe('posted')
  })

  it('usage errors (exit 2) and an unknown id (exit 5)', async () => {
    const [none, badBool, unknown] = await Promise.all([
      sb.run(['tx', 'update', lamp]),
      sb.run(['tx', 'update', lamp, '--reconciled', 'maybe']),
      sb.run(['tx', 'update', randomUUID(), '--category', 'X']),
    ])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('nothing to change')
    expect(badBool.code).toBe(2)
    expect(badBool.stderr).toContain('--reconciled maybe: not one of true, false')
    expect(unknown.code).toBe(5)
    expect(unknown.stderr).toContain('not found')
    expect((await get(lamp)).history).toHaveLength(6)
  })

  it('tx update checks the date or amount it changes, with --force too', async () => {
    const create = (...extra: string[]) => ['tx', 'create', '--account', accounts.scratch, '--description', 'typo?', ...extra]
    const t = await sb.json<Tx>([...create('--date', '2026-01-04', '--amount', '7'), '--json'])
    const r = await sb.run(['tx', 'update', t.id, '--date', '1969-07-20'])
    expect(r.code).toBe(6)
    expect(r.stderr).toMatch(/^error: --date is 1969-07-20, outside/m)
    expect((await sb.run(['tx', 'update', t.id, '--amount', '0'])).code).toBe(6)
    expect((await sb.json<Tx>(['tx', 'get', t.id, '--json'])).transaction_date).toBe('2026-01-04')
    expect((await sb.json<Tx>(['tx', 'update', t.id, '--date', '1969-07-20', '--force', '--json'])).transaction_date).toBe('1969-07-20')
    // Another field of a forced transaction changes without --force: only what a request changes is checked.
    expect((await sb.run(['tx', 'update', t.id, '--description', 'moon landing'])).code).toBe(0)
  })
})

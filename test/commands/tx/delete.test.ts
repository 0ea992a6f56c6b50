/**
 * `finctl tx delete` in process (moved from test/e2e/tx.test.ts): --yes without a terminal (else
 * exit 2), --json, a reconciled transaction kept (exit 6), an unknown id (exit 5). What its question
 * says of the transaction: test/e2e/short-ids.test.ts.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { type AccountKey, txWorld, createScratch } from './fixture.js'

describe('tx delete, in process', () => {
  let sb: InProcessSandbox
  const accounts = {} as Record<AccountKey | 'scratch', string>
  const create = (description: string, amount: string, extra: string[] = []) => createScratch({ sb, accounts }, description, amount, extra)
  const get = (id: string) => sb.json(['tx', 'get', id, '--json'])
  let lamp: string

  beforeAll(async () => {
    const world = await txWorld('tx-delete', { rows: false })
    sb = world.sb
    Object.assign(accounts, world.accounts)
    lamp = await create('Desk lamp', '-45.00', ['--category', 'Furniture'])
    expect(await sb.json(['tx', 'update', lamp, '--reconciled', 'true', '--json'])).toMatchObject({ is_reconciled: true })
  })
  afterAll(() => sb?.cleanup())

  it('tx delete needs --yes without a terminal; with it the transaction is gone (get exits 5)', async () => {
    const id = await create('Mistake', '-9.99')
    const refused = await sb.run(['tx', 'delete', id])
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain('--yes')
    expect((await get(id)).description).toBe('Mistake')

    const deleted = await sb.run(['tx', 'delete', id, '--yes', '--json'])
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(JSON.parse(deleted.stdout)).toEqual({ id, deleted: true, documents: [] })
    expect(deleted.stderr).toContain(`deleted transaction ${id}`)
    const after = await sb.run(['tx', 'get', id])
    expect(after.code).toBe(5)
  })

  it('deleting a reconciled transaction exits 6 and keeps it; an unknown id exits 5', async () => {
    const [reconciled, unknown] = await Promise.all([
      sb.run(['tx', 'delete', lamp, '--yes']),
      sb.run(['tx', 'delete', randomUUID(), '--yes']),
    ])
    expect(reconciled.code).toBe(6)
    expect(reconciled.stderr).toContain('un-reconcile')
    expect(unknown.code).toBe(5)
    expect((await get(lamp)).id).toBe(lamp)
  })
})

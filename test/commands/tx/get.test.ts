/**
 * `finctl tx get` in process (moved from test/e2e/tx.test.ts): --json with the account, the
 * statement and the history; the table; not found (exit 5) and a usage error (exit 2).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import type { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { type AccountKey, ISO, txWorld, createScratch } from './fixture.js'

describe('tx get, in process', () => {
  let sb: InProcessSandbox
  let keyId: string
  const accounts = {} as Record<AccountKey | 'scratch', string>
  const create = (description: string, amount: string, extra: string[] = []) => createScratch({ sb, accounts }, description, amount, extra)
  const get = (id: string) => sb.json(['tx', 'get', id, '--json'])
  let lamp: string

  beforeAll(async () => {
    const world = await txWorld('tx-get', { rows: false })
    sb = world.sb
    keyId = world.keyId
    Object.assign(accounts, world.accounts)
  })
  afterAll(() => sb?.cleanup())

  it('tx get --json has the account {id,name}, statement null and the create entry of the history', async () => {
    lamp = await create('Desk lamp', '-45.00', ['--category', 'Furniture'])
    const t = await get(lamp)
    expect(t).toMatchObject({
      id: lamp,
      description: 'Desk lamp',
      amount: -45,
      category: 'Furniture',
      status: 'pending',
      is_reconciled: false,
    })
    expect(t.bank_account).toEqual({ id: accounts.scratch, name: 'Scratch' })
    expect(t.statement).toBeNull()
    expect(t.history).toHaveLength(1)
    const [entry] = t.history
    expect(entry).toMatchObject({ action: 'create', actor: `key:${keyId}` })
    expect(entry.at).toMatch(ISO)
    expect(entry.changes.amount).toEqual({ before: null, after: -45 })
    expect(entry.changes.description).toEqual({ before: null, after: 'Desk lamp' })
    expect(entry.changes.category).toEqual({ before: null, after: 'Furniture' })
  })

  it('tx get as a table shows the record and its history', async () => {
    const r = await sb.ok(['tx', 'get', lamp])
    const rows = tsv(r.stdout)
    expect(rows).toContainEqual(['amount', '-45.00 USD'])
    expect(rows).toContainEqual(['bank_account', `Scratch (${accounts.scratch})`])
    expect(rows.some((row) => row[2] === 'create' && row[1] === `key:${keyId}`)).toBe(true)
  })

  it('on a terminal the history names the calling key, not key:<uuid>', async () => {
    const r = await sb.ok(['tx', 'get', lamp], { tty: { stdout: true }, columns: 160 })
    expect(r.stdout).not.toContain(`key:${keyId}`)
    expect(r.stdout).toMatch(new RegExp(`key "[^"]+" \\(${keyId.slice(-8)}\\)`))
  })

  it("on a terminal another key's change is named by that key's name, the account by its name and a short id", async () => {
    const other = await sb.json<{ id: string; key: string }>(['keys', 'create', '--name', 'bookkeeper', '--scopes', 'read,write', '--json'])
    sb.remember(other.key)
    await sb.ok(['tx', 'update', lamp, '--category', 'Office'], { env: { FINCTL_API_KEY: other.key } })
    const r = await sb.ok(['tx', 'get', lamp], { tty: { stdout: true }, columns: 200 })
    expect(r.stdout).toContain(`key "bookkeeper" (${other.id.slice(-8)})`)
    expect(r.stdout).not.toContain(`key:${other.id}`)
    expect(r.stdout).toContain(`Scratch (${accounts.scratch.slice(-8)})`)
  })

  it('an unknown id is not found (exit 5); no id is a usage error (exit 2)', async () => {
    const unknown = await sb.run(['tx', 'get', randomUUID()])
    expect(unknown.code).toBe(5)
    expect(unknown.stdout).toBe('')
    expect(unknown.stderr).toContain('not found')
    const none = await sb.run(['tx', 'get'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("missing required argument 'id'")
  })
})

/**
 * `finctl policy set --require-approval bulk,key-write --bulk-threshold N` in process: the
 * bookkeeper's bulk update, bulk delete and rule run over the threshold and the owner's write key and its roll
 * become proposals (exit 15, the id said; the key printed to its proposer once), another owner approves them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('bulk and key-write proposals, in process', () => {
  let sb: InProcessSandbox
  const ids: string[] = []

  async function join(profile: string, email: string, role: string, password: string) {
    await sb.ok(['profile', 'add', profile, '--database', sb.database])
    const inv = await sb.json(['users', 'invite', '--email', email, '--role', role, '--json'])
    sb.secrets.add(inv.token)
    await sb.ok(['--profile', profile, 'login', '--invite', inv.token, '--password-stdin'], { input: `${password}\n` })
  }

  beforeAll(async () => {
    sb = new InProcessSandbox('approval-steps')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-approvals\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
    await join('ana', 'ana@steps.test', 'bookkeeper', 'password-of-ana')
    await join('olga', 'olga@steps.test', 'owner', 'password-of-olga')
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    for (const d of ['10', '11', '12']) {
      const args = ['tx', 'create', '--account', acct, '--date', `2026-04-${d}`, '--amount', '-5.00', '--description', `Row ${d}`, '--json']
      ids.push((await sb.json<{ id: string }>(args)).id)
    }
  })
  afterAll(() => sb?.cleanup())

  it('policy set: bulk without --bulk-threshold exits 2 naming it; with it, the policy says the threshold', async () => {
    const bad = await sb.run(['policy', 'set', '--require-approval', 'bulk'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--bulk-threshold N is required with bulk')
    const set = await sb.run(['policy', 'set', '--require-approval', 'bulk,key-write', '--bulk-threshold', '2'])
    expect(set.code, set.stderr).toBe(0)
    expect(set.stderr).toContain('approval now needed for: bulk, key-write (bulk: over 2 transactions)')
    expect(await sb.json(['policy', 'show', '--json'])).toMatchObject({ require_approval: ['bulk', 'key-write'], bulk_threshold: 2 })
  })

  it("the bookkeeper's bulk update of 3 rows is a proposal (exit 15); another owner approves it", async () => {
    const r = await sb.run(['--profile', 'ana', 'tx', 'bulk-update', '--ids', ids.join(','), '--set', 'category=Office', '--yes', '--json'])
    expect(r.code, r.stderr).toBe(15)
    const p = JSON.parse(r.stdout)
    expect(p).toMatchObject({ kind: 'bulk', target: '3 transactions', effect: { rows: 3, changed: 3 } })
    expect(r.stderr).toContain(`proposal ${p.id} waits for approval (bulk 3 transactions)`)
    expect((await sb.run(['--profile', 'ana', 'approvals', 'approve', p.id])).code).toBe(4)
    const ok = await sb.run(['approvals', 'approve', p.id])
    expect(ok.code, ok.stderr).toBe(0)
    for (const id of ids) expect((await sb.json<{ category: string }>(['tx', 'get', id, '--json'])).category).toBe('Office')
  })

  it("the bookkeeper's bulk delete: 2 rows at once; 3 a proposal (exit 15) shown with its rows, approved by an owner", async () => {
    const acct = (await sb.json<Array<{ id: string }>>(['accounts', 'list', '--json']))[0].id
    const made: string[] = []
    for (const d of ['20', '21', '22', '23', '24']) {
      const args = [
        'tx',
        'create',
        '--account',
        acct,
        '--date',
        `2026-04-${d}`,
        '--amount',
        '-7.00',
        '--description',
        `Gone ${d}`,
        '--json',
      ]
      made.push((await sb.json<{ id: string }>(args)).id)
    }
    const small = await sb.run(['--profile', 'ana', 'tx', 'bulk-delete', '--ids', made.slice(0, 2).join(','), '--yes'])
    expect(small.code, small.stderr).toBe(0)
    expect(small.stderr).toContain('deleted 2 transactions')
    const r = await sb.run(['--profile', 'ana', 'tx', 'bulk-delete', '--search', 'Gone', '--yes', '--json'])
    expect(r.code, r.stderr).toBe(15)
    const p = JSON.parse(r.stdout)
    expect(p).toMatchObject({ kind: 'bulk', target: 'delete 3 transactions', effect: { action: 'delete', rows: 3 } })
    expect(r.stderr).toContain(`proposal ${p.id} waits for approval (bulk delete 3 transactions)`)
    const shown = await sb.run(['--profile', 'olga', 'approvals', 'show', p.id])
    expect(shown.code, shown.stderr).toBe(0)
    for (const id of made.slice(2)) expect(shown.stdout).toContain(id)
    expect(shown.stdout).toContain('-21')
    for (const id of made.slice(2)) expect((await sb.run(['tx', 'get', id])).code).toBe(0)
    expect((await sb.run(['--profile', 'ana', 'approvals', 'approve', p.id])).code).toBe(4)
    const ok = await sb.run(['--profile', 'olga', 'approvals', 'approve', p.id])
    expect(ok.code, ok.stderr).toBe(0)
    for (const id of made.slice(2)) expect((await sb.run(['tx', 'get', id])).code).toBe(5)
    expect((await sb.run(['--profile', 'olga', 'approvals', 'approve', p.id])).code).toBe(6)
  })

  it("the owner's write key is a proposal: the key printed to them once, working once another owner approves", async () => {
    const r = await sb.run(['keys', 'create', '--name', 'writer', '--scopes', 'read,write', '--json'])
    expect(r.code, r.stderr).toBe(15)
    const p = JSON.parse(r.stdout)
    sb.secrets.add(p.key)
    expect(p).toMatchObject({ kind: 'key-write', target: 'writer', state: 'pending' })
    expect(r.stderr).toContain('the key works once another person approves it')
    const shown = await sb.run(['--profile', 'olga', 'approvals', 'show', p.id, '--json'])
    expect(shown.stdout).not.toContain(p.key)
    expect((await sb.run(['approvals', 'approve', p.id])).code).toBe(4)
    const ok = await sb.run(['--profile', 'olga', 'approvals', 'approve', p.id])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).not.toContain(p.key)
    expect(await sb.json(['keys', 'list', '--json'])).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'writer' })]))
  })

  it("the bookkeeper's rule run over 3 rows is a proposal (exit 15) shown with its changes; another owner approves it", async () => {
    const rule = await sb.json<{ id: string }>(['rules', 'create', '--description-contains', 'Row', '--set', 'category=Ruled', '--json'])
    const r = await sb.run(['--profile', 'ana', 'rules', 'apply', rule.id, '--since', '2026-01-01', '--yes', '--json'])
    expect(r.code, r.stderr).toBe(15)
    const p = JSON.parse(r.stdout)
    expect(p).toMatchObject({ kind: 'bulk', target: `3 transactions by rule ${rule.id}`, effect: { action: 'rules', rows: 3 } })
    expect(r.stderr).toContain(`proposal ${p.id} waits for approval`)
    for (const id of ids) expect((await sb.json<{ category: string }>(['tx', 'get', id, '--json'])).category).toBe('Office')
    const shown = await sb.run(['--profile', 'olga', 'approvals', 'show', p.id])
    expect(shown.stdout).toContain(`runs rule ${rule.id} over the transactions dated 2026-01-01 or later: 3 match`)
    expect(shown.stdout).toContain('category Office → Ruled')
    const ok = await sb.run(['--profile', 'olga', 'approvals', 'approve', p.id])
    expect(ok.code, ok.stderr).toBe(0)
    for (const id of ids) expect((await sb.json<{ category: string }>(['tx', 'get', id, '--json'])).category).toBe('Ruled')
  })

  it('rolling the write key is a proposal: the successor printed once, the old key untouched until another owner approves', async () => {
    const writer = (await sb.json<Array<{ id: string; name: string; is_active: boolean }>>(['keys', 'list', '--json'])).find(
      (k) => k.name === 'writer' && k.is_active,
    )
    const r = await sb.run(['keys', 'roll', writer?.id ?? '', '--grace', '0', '--json'])
    expect(r.code, r.stderr).toBe(15)
    const p = JSON.parse(r.stdout)
    sb.secrets.add(p.key)
    expect(p).toMatchObject({ kind: 'key-write', effect: { rolls: { id: writer?.id } } })
    expect(r.stderr).toContain('the old one keeps working until then')
    const state = async () =>
      (await sb.json<Array<{ id: string; is_active: boolean; rolled_to: string | null }>>(['keys', 'list', '--json'])).find(
        (k) => k.id === writer?.id,
      )
    expect(await state()).toMatchObject({ is_active: true, rolled_to: null })
    const ok = await sb.run(['--profile', 'olga', 'approvals', 'approve', p.id])
    expect(ok.code, ok.stderr).toBe(0)
    expect(await state()).toMatchObject({ is_active: false, rolled_to: expect.any(String) })
  })
})

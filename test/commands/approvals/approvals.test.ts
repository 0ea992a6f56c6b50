/**
 * `finctl policy` and `finctl approvals` in process (test/helpers/in-process-cli.ts): the owner sets
 * the policy; the bookkeeper's `close reopen` becomes a proposal (exit 15, its id said); the
 * accountant lists, shows and approves it; refusals exit as the table says. Under the policy, inviting
 * or promoting to a role that can approve is a proposal too: the token printed once to its proposer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

const M = '2025-03'

describe('approvals, in process', () => {
  let sb: InProcessSandbox
  let proposal: string

  async function join(profile: string, email: string, role: string, password: string) {
    await sb.ok(['profile', 'add', profile, '--database', sb.database])
    const inv = await sb.json(['users', 'invite', '--email', email, '--role', role, '--json'])
    sb.secrets.add(inv.token)
    await sb.ok(['--profile', profile, 'login', '--invite', inv.token, '--password-stdin'], { input: `${password}\n` })
  }

  beforeAll(async () => {
    sb = new InProcessSandbox('approvals')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-approvals\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
    await join('ana', 'ana@approvals.test', 'bookkeeper', 'password-of-ana')
    await join('bob', 'bob@approvals.test', 'accountant', 'password-of-bob')
  })
  afterAll(() => sb?.cleanup())

  it('policy set: an unknown step exits 2 naming the flag; the owner sets it; a bookkeeper may not', async () => {
    const bad = await sb.run(['policy', 'set', '--require-approval', 'reopen,delete'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--require-approval: unknown step "delete"')
    const refused = await sb.run(['--profile', 'ana', 'policy', 'set', '--require-approval', 'reopen'])
    expect(refused.code).toBe(4)
    const set = await sb.run(['policy', 'set', '--require-approval', 'reopen'])
    expect(set.code, set.stderr).toBe(0)
    expect(set.stderr).toContain('approval now needed for: reopen')
    expect(await sb.json(['policy', 'show', '--json'])).toMatchObject({ require_approval: ['reopen'] })
  })

  it("the bookkeeper's reopen is a proposal (exit 15); the accountant shows and approves it", async () => {
    await sb.ok(['--profile', 'bob', 'close', M, '--force', '--reason', 'for the test'])
    const r = await sb.run(['--profile', 'ana', 'close', 'reopen', M, '--reason', 'late invoice', '--json'])
    expect(r.code, r.stderr).toBe(15)
    proposal = JSON.parse(r.stdout).id
    expect(r.stderr).toContain(`proposal ${proposal} waits for approval (reopen ${M})`)
    const list = await sb.json(['--profile', 'bob', 'approvals', 'list', '--json'])
    expect(list.map((p: { id: string }) => p.id)).toEqual([proposal])
    expect(await sb.json(['--profile', 'ana', 'approvals', 'list', '--mine', '--json'])).toHaveLength(1)
    // People are named by their email where people read (a table, CSV); --json keeps the ids.
    expect(list[0].proposed_by).toMatch(/^user:/)
    const csv = await sb.run(['--profile', 'bob', 'approvals', 'list', '--output', 'csv'])
    expect(csv.stdout).toContain(',ana@approvals.test,')
    expect(csv.stdout).not.toContain('user:')
    const history = await sb.run(['close', 'history', '--output', 'csv'])
    expect(history.stdout).toContain('bob@approvals.test')
    expect(history.stdout).not.toContain('user:')
    const shown = await sb.json(['--profile', 'bob', 'approvals', 'show', proposal, '--json'])
    expect(shown).toMatchObject({ kind: 'reopen', target: M, state: 'pending', effect: { month: M, lock_date: '2025-03-31' } })
    const shownTable = await sb.run(['--profile', 'bob', 'approvals', 'show', proposal])
    expect(shownTable.stdout).toMatch(/proposed_by\s+ana@approvals\.test/)
    expect((await sb.run(['--profile', 'ana', 'approvals', 'approve', proposal])).code).toBe(4)
    const ok = await sb.run(['--profile', 'bob', 'approvals', 'approve', proposal])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stderr).toContain(`approved ${proposal}: reopen ${M} applied`)
    expect((await sb.json(['close', 'status', '--month', M, '--json'])).closed).toBe(false)
    expect((await sb.run(['--profile', 'bob', 'approvals', 'approve', proposal])).code).toBe(6)
  })

  it('reject takes --reason (exit 2 without it)', async () => {
    await sb.ok(['--profile', 'bob', 'close', M, '--force', '--reason', 'again'])
    const p = JSON.parse((await sb.run(['--profile', 'ana', 'close', 'reopen', M, '--reason', 'twice', '--json'])).stdout).id
    const missing = await sb.run(['--profile', 'bob', 'approvals', 'reject', p])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--reason TEXT is required')
    const r = await sb.json(['--profile', 'bob', 'approvals', 'reject', p, '--reason', 'not needed', '--json'])
    expect(r).toMatchObject({ state: 'rejected', reason: 'not needed' })
    expect(await sb.json(['approvals', 'list', '--json'])).toEqual([])
  })

  it('under the policy users invite and set-role to a deciding role exit 15; the token works once the accountant approves', async () => {
    const r = await sb.run(['users', 'invite', '--email', 'olga@approvals.test', '--role', 'owner', '--json'])
    expect(r.code, r.stderr).toBe(15)
    const p = JSON.parse(r.stdout)
    sb.secrets.add(p.token)
    expect(p).toMatchObject({ kind: 'people', target: 'invite olga@approvals.test as owner', token: expect.stringMatching(/^fdi_/) })
    expect(r.stderr).toContain('once another person approves the invitation')
    expect(r.stderr).toContain(`proposal ${p.id} waits for approval`)
    const shown = await sb.run(['--profile', 'bob', 'approvals', 'show', p.id])
    expect(shown.stdout).toContain('invites olga@approvals.test as owner')
    expect(shown.stdout).not.toContain(p.token)
    await sb.ok(['profile', 'add', 'olga', '--database', sb.database])
    const early = await sb.run(['--profile', 'olga', 'login', '--invite', p.token, '--password-stdin'], { input: 'password-of-olga\n' })
    expect(early.code).toBe(3)
    await sb.ok(['--profile', 'bob', 'approvals', 'approve', p.id])
    await sb.ok(['--profile', 'olga', 'login', '--invite', p.token, '--password-stdin'], { input: 'password-of-olga\n' })
    const role = await sb.run(['users', 'set-role', 'bob@approvals.test', '--role', 'owner'])
    expect(role.code, role.stderr).toBe(15)
    expect(role.stdout).toContain('makes bob@approvals.test owner (now accountant)')
    // A viewer is no decider: invited at once.
    expect((await sb.run(['users', 'invite', '--email', 'vic@approvals.test', '--role', 'viewer', '--json'])).code).toBe(0)
  })
})

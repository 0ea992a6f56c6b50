/**
 * A company of four people walks through the CLI (in process; the `finctl serve` processes spawned). The owner inits, books October
 * 2026, closes it and invites an accountant, a bookkeeper and an auditor, each with a profile of
 * their own. The auditor reads everything and writes nothing; with the policy `reopen` on, the
 * bookkeeper's reopen waits for the accountant's approval; nobody widens their own rights. Then an
 * invitation revoked is refused, a second owner joins, and the policy grows (its change waiting for
 * that owner): bulk with a threshold (the bookkeeper's bulk update and bulk delete over it wait for
 * approval, the second owner's and the accountant's; under it they run at once), key-write (a write key's secret works only once
 * approved).
 * Once embedded on SQLite (each profile names the same database file), once over two `finctl
 * serve` processes on one PostgreSQL schema (the profiles spread over both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshPostgres } from '../helpers/harness.js'
import { spawnServe, type CliResult, type ServeProcess } from '../helpers/cli.js'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

const MONTH = '2026-10'
const OWNER = { email: 'owner@walk.test', password: 'owner-password-1' }
const PEOPLE = {
  accountant: { email: 'acc@walk.test', password: 'accountant-pass-1' },
  bookkeeper: { email: 'bk@walk.test', password: 'bookkeeper-pass-1' },
  auditor: { email: 'aud@walk.test', password: 'auditor-pass-12' },
} as const
type Person = keyof typeof PEOPLE

function expectExit(r: CliResult, code: number, what: string): void {
  expect(r.code, `${what}: exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(code)
  // A refusal names the scope the credential lacks (or the proposal being one's own), and writes nothing to stdout.
  if (code === 4) {
    expect(r.stderr, what).toMatch(/lacks the [a-z_ ]+ scope|is your own|takes the [a-z_]+ scope, which this credential lacks/)
    expect(r.stdout, what).toBe('')
  }
}

for (const store of ['sqlite', 'postgres'] as const) {
  describe(`four people, one company (${store === 'sqlite' ? 'embedded SQLite' : 'two serve processes on PostgreSQL'})`, () => {
    const sb = new InProcessSandbox(`people-walk-${store}`)
    const servers: ServeProcess[] = []
    let drop: (() => Promise<void>) | undefined
    let accountId: string
    const userIds: Partial<Record<Person | 'owner2', string>> = {}
    // Each invitee's profile target: the database, or one of the two servers.
    let target: Record<Person, string[]>
    // The profile each person works in: the owner's `local` (made by init) and one per invitee.
    const as = (who: Person | 'owner' | 'owner2', args: string[], input?: string) =>
      sb.run(['--profile', who === 'owner' ? 'local' : who, ...args], { input })

    beforeAll(async () => {
      let database = sb.database
      if (store === 'postgres') {
        const pg = await freshPostgres()
        database = pg.url
        drop = pg.drop
      }
      const init = ['init', '--email', OWNER.email, '--password-stdin', '--no-input']
      if (store === 'postgres') init.push('--database', database)
      await sb.ok(init, { input: `${OWNER.password}\n` })
      if (store === 'postgres') {
        servers.push(await spawnServe(['--database', database], { cwd: sb.dir, env: sb.env(), stopTimeoutMs: 15_000 }))
        servers.push(await spawnServe(['--database', database], { cwd: sb.dir, env: sb.env(), stopTimeoutMs: 15_000 }))
      }
      // Each invitee's profile names the same target: the database file, or one of the two servers.
      target =
        store === 'sqlite'
          ? { accountant: ['--database', database], bookkeeper: ['--database', database], auditor: ['--database', database] }
          : {
              accountant: ['--base-url', servers[1].url],
              bookkeeper: ['--base-url', servers[0].url],
              auditor: ['--base-url', servers[1].url],
            }
      for (const who of Object.keys(PEOPLE) as Person[]) await sb.ok(['profile', 'add', who, ...target[who]])
    }, 120_000)

    afterAll(async () => {
      for (const s of servers) await s.stop()
      await drop?.()
      sb.cleanup()
    })

    it('the owner books October 2026 and closes it', async () => {
      const acct = await sb.json(['accounts', 'create', '--name', 'Operating', '--type', 'checking', '--currency', 'USD', '--json'])
      accountId = acct.id
      for (const [day, amount, what] of [
        ['03', '1200.00', 'Invoice 1001'],
        ['14', '-149.99', 'Hosting'],
        ['28', '-310.50', 'Rent share'],
      ])
        await sb.json([
          'tx',
          'create',
          '--account',
          accountId,
          '--date',
          `${MONTH}-${day}`,
          '--amount',
          amount,
          '--description',
          what,
          '--json',
        ])
      const status = await sb.run(['close', 'status', '--month', MONTH, '--json'])
      // 12: not ready (no statement imported for the account); the docs allow --force with a reason.
      expect([0, 12]).toContain(status.code)
      const close =
        status.code === 0
          ? await sb.run(['close', MONTH, '--json'])
          : await sb.run(['close', MONTH, '--force', '--reason', 'walk: statements not imported', '--json'])
      expectExit(close, 0, 'close')
      const after = await sb.run(['close', 'status', '--month', MONTH, '--json'])
      expect(JSON.parse(after.stdout)).toMatchObject({ month: MONTH, closed: true, lock_date: `${MONTH}-31` })
      const history = await sb.json(['close', 'history', '--json'])
      expect(history).toEqual([expect.objectContaining({ period: MONTH, action: 'close', forced: true, previous_lock_date: null })])
    }, 120_000)

    it('the owner invites three; each accepts in a profile of their own', async () => {
      for (const [role, p] of Object.entries(PEOPLE) as [Person, (typeof PEOPLE)[Person]][]) {
        const inv = await sb.json(['users', 'invite', '--email', p.email, '--role', role, '--json'])
        expect(inv.token).toMatch(/^fdi_/)
        const r = await as(role, ['login', '--invite', inv.token, '--password-stdin'], `${p.password}\n`)
        expectExit(r, 0, `${role} login --invite`)
        const me = await sb.json(['--profile', role, 'whoami', '--json'])
        expect(me).toMatchObject({ role, email: p.email, credential: 'access_token' })
        userIds[role] = me.user_id
        // On PostgreSQL the bookkeeper goes through the first server, the accountant and auditor the second.
        const server = role === 'bookkeeper' ? servers[0] : servers[1]
        expect(me.target).toBe(store === 'sqlite' ? `embedded (${sb.database})` : new URL(server.url).host)
      }
      const users = await sb.json(['users', 'list', '--json'])
      const rows: Array<{ email: string; role: string }> = users.data ?? users
      expect(rows.map((u) => `${u.email}:${u.role}`).sort()).toEqual(
        [`${OWNER.email}:owner`, ...Object.entries(PEOPLE).map(([r, p]) => `${p.email}:${r}`)].sort(),
      )
    }, 120_000)

    it('the auditor reads everything and every write is refused (exit 4)', async () => {
      const txs = await sb.json(['--profile', 'auditor', 'tx', 'list', '--from', MONTH, '--to', MONTH, '--json'])
      expect((txs.data ?? txs).length).toBe(3)
      for (const read of [
        ['reports', 'summary', '--json'],
        ['verify', '--json'],
        ['verify', '--close', MONTH, '--json'],
        ['close', 'history', '--json'],
        // The request log is `logs tail`, which follows until Ctrl-C; the event stream is read once.
        ['events', 'list', '--json'],
        ['users', 'list', '--json'],
      ])
        expectExit(await as('auditor', read), 0, `auditor ${read.join(' ')}`)
      // close status answers 12 while the month is not ready; its figures are on stdout all the same.
      const status = await as('auditor', ['close', 'status', '--month', MONTH, '--json'])
      expectExit(status, 12, 'auditor close status')
      expect(JSON.parse(status.stdout)).toMatchObject({ month: MONTH, closed: true })
      for (const write of [
        ['tx', 'create', '--account', accountId, '--date', '2026-11-02', '--amount', '-5.00', '--description', 'x', '--json'],
        ['accounts', 'create', '--name', 'Sneaky', '--type', 'checking', '--currency', 'USD', '--json'],
        ['close', 'reopen', MONTH, '--reason', 'auditor tries', '--json'],
        ['close', '2026-11', '--force', '--reason', 'auditor tries', '--json'],
        ['users', 'invite', '--email', 'x@walk.test', '--role', 'viewer', '--json'],
        ['keys', 'create', '--name', 'aud', '--scopes', 'read', '--json'],
        ['policy', 'set', '--require-approval', 'revert', '--json'],
      ])
        expectExit(await as('auditor', write), 4, `auditor ${write.slice(0, 2).join(' ')}`)
      const still = await sb.json(['tx', 'list', '--json'])
      expect((still.data ?? still).length).toBe(3)
    }, 120_000)

    it('with the policy reopen, the bookkeeper proposes, cannot approve, the accountant approves', async () => {
      expectExit(await as('owner', ['policy', 'set', '--require-approval', 'reopen']), 0, 'policy set')
      const proposed = await as('bookkeeper', ['close', 'reopen', MONTH, '--reason', 'a late invoice', '--json'])
      expectExit(proposed, 15, 'bookkeeper close reopen')
      const proposal = JSON.parse(proposed.stdout)
      expect(proposal.id).toBeTruthy()
      expect(proposed.stderr).toContain(`proposal ${proposal.id} waits for approval`)
      const pending = await sb.json(['--profile', 'accountant', 'approvals', 'list', '--json'])
      expect((pending.data ?? pending).map((p: { id: string }) => p.id)).toContain(proposal.id)
      // Still closed: nothing changed yet.
      expectExit(
        await as('owner', ['tx', 'create', '--account', accountId, '--date', `${MONTH}-30`, '--amount', '-1.00', '--description', 'late']),
        6,
        'tx in closed month',
      )

      const own = await as('bookkeeper', ['approvals', 'approve', proposal.id])
      expectExit(own, 4, 'bookkeeper approves own proposal')
      // The proposer by email, as people read them (approvals show and its refusals).
      expect(own.stderr).toContain('is your own (bk@walk.test)')
      expectExit(await as('auditor', ['approvals', 'approve', proposal.id]), 4, 'auditor approves')
      expectExit(await as('accountant', ['approvals', 'approve', proposal.id, '--json']), 0, 'accountant approves')
      const shown = await sb.json(['--profile', 'auditor', 'approvals', 'show', proposal.id, '--json'])
      expect(shown).toMatchObject({
        kind: 'reopen',
        target: MONTH,
        state: 'approved',
        proposer_user_id: userIds.bookkeeper,
        decided_by: `user:${userIds.accountant}`,
        effect: {
          lock_date: `${MONTH}-31`,
          lock_date_after: '2026-09-30',
          rows: 3,
          figures: [expect.objectContaining({ total: '739.51' })],
        },
      })
      const status = await as('auditor', ['close', 'status', '--month', MONTH, '--json'])
      expect(JSON.parse(status.stdout)).toMatchObject({ month: MONTH, closed: false })
      const history = await sb.json(['--profile', 'auditor', 'close', 'history', '--json'])
      // The reopen's record names the approver, with the proposer's reason.
      expect(history[0]).toMatchObject({
        period: MONTH,
        action: 'reopen',
        lock_date: '2026-09-30',
        previous_lock_date: `${MONTH}-31`,
        actor: `user:${userIds.accountant}`,
        reason: 'a late invoice',
      })
      // Open again: a transaction dated in the month is taken.
      const late = await sb.json([
        '--profile',
        'bookkeeper',
        'tx',
        'create',
        '--account',
        accountId,
        '--date',
        `${MONTH}-30`,
        '--amount',
        '-1.00',
        '--description',
        'late',
        '--json',
      ])
      expect(late.id).toBeTruthy()
      const replay = await as('owner', ['approvals', 'approve', proposal.id])
      expect(replay.code).not.toBe(0)
    }, 120_000)

    it('nobody widens their rights: the bookkeeper invites no owner, creates no key', async () => {
      expectExit(
        await as('bookkeeper', ['users', 'invite', '--email', 'boss@walk.test', '--role', 'owner', '--json']),
        4,
        'bookkeeper invites owner',
      )
      expectExit(
        await as('bookkeeper', ['keys', 'create', '--name', 'wide', '--scopes', 'read,write,transactions', '--json']),
        4,
        'bookkeeper key',
      )
      expectExit(await as('accountant', ['keys', 'create', '--name', 'wide', '--scopes', 'read,write', '--json']), 4, 'accountant key')
      expectExit(await as('accountant', ['users', 'set-role', PEOPLE.bookkeeper.email, '--role', 'owner']), 4, 'accountant set-role')
      const users = await sb.json(['users', 'list', '--json'])
      expect((users.data ?? users).map((u: { email: string }) => u.email)).not.toContain('boss@walk.test')
    }, 120_000)

    it('an invitation revoked cannot be accepted; a second owner joins', async () => {
      const late = await sb.json(['users', 'invite', '--email', 'late@walk.test', '--role', 'viewer', '--json'])
      expectExit(await as('owner', ['users', 'revoke-invite', late.id]), 0, 'revoke-invite')
      await sb.ok(['profile', 'add', 'late', ...target.auditor])
      const refused = await sb.run(['--profile', 'late', 'login', '--invite', late.token, '--password-stdin'], {
        input: 'late-password-1\n',
      })
      expectExit(refused, 3, 'login with a revoked invitation')
      expect(refused.stderr).toContain('was revoked')
      const invitations = await sb.json(['users', 'invitations', '--all', '--json'])
      expect((invitations.data ?? invitations).find((i: { id: string }) => i.id === late.id)).toMatchObject({
        state: 'revoked',
        user_id: null,
      })
      // The second owner, on the accountant's target (the second server on PostgreSQL).
      await sb.ok(['profile', 'add', 'owner2', ...target.accountant])
      // Under the policy an owner is invited through a proposal: its token is the owner's, and works once the accountant approves.
      const invited = await sb.run(['users', 'invite', '--email', 'owner2@walk.test', '--role', 'owner', '--json'])
      expectExit(invited, 15, 'owner invites an owner under the policy')
      const inv = JSON.parse(invited.stdout)
      expectExit(
        await as('owner2', ['login', '--invite', inv.token, '--password-stdin'], 'owner2-password-1\n'),
        3,
        'owner2 login before approval',
      )
      expectExit(await as('accountant', ['approvals', 'approve', inv.id]), 0, 'accountant approves the invitation')
      expectExit(await as('owner2', ['login', '--invite', inv.token, '--password-stdin'], 'owner2-password-1\n'), 0, 'owner2 login')
      userIds.owner2 = (await sb.json(['--profile', 'owner2', 'whoami', '--json'])).user_id
      const users = await sb.json(['users', 'list', '--json'])
      const emails = (users.data ?? users).map((u: { email: string }) => u.email)
      expect(emails).toContain('owner2@walk.test')
      expect(emails).not.toContain('late@walk.test')
    }, 120_000)

    it('a change of the policy waits: the owner proposes bulk and key-write, the second owner approves', async () => {
      const proposed = await as('owner', [
        'policy',
        'set',
        '--require-approval',
        'reopen,bulk,key-write',
        '--bulk-threshold',
        '2',
        '--json',
      ])
      expectExit(proposed, 15, 'policy set under a policy')
      const p = JSON.parse(proposed.stdout)
      expect(p).toMatchObject({
        kind: 'policy',
        effect: { before: ['reopen'], after: ['reopen', 'bulk', 'key-write'], bulk_threshold_after: 2 },
      })
      expect(await sb.json(['policy', 'show', '--json'])).toMatchObject({ require_approval: ['reopen'], bulk_threshold: null })
      expectExit(await as('owner', ['approvals', 'approve', p.id]), 4, 'owner approves own policy change')
      expectExit(await as('accountant', ['approvals', 'approve', p.id]), 4, 'accountant approves a policy change')
      expectExit(await as('owner2', ['approvals', 'approve', p.id, '--json']), 0, 'owner2 approves the policy change')
      expect(await sb.json(['--profile', 'auditor', 'policy', 'show', '--json'])).toMatchObject({
        require_approval: ['reopen', 'bulk', 'key-write'],
        bulk_threshold: 2,
      })
    }, 120_000)

    it('bulk: under the threshold at once; the bookkeeper’s bulk update and delete over it wait for approval', async () => {
      const ids: string[] = []
      for (const day of ['02', '03', '04', '05']) {
        const args = [
          'tx',
          'create',
          '--account',
          accountId,
          '--date',
          `2026-11-${day}`,
          '--amount',
          '-20.00',
          '--description',
          `Walk bulk ${day}`,
          '--json',
        ]
        ids.push((await sb.json(['--profile', 'bookkeeper', ...args])).id)
      }
      const bulk = ['--account', accountId, '--search', 'Walk bulk', '--from', '2026-11-02', '--to', '2026-11-04']
      // Up to 2 rows: done at once.
      expectExit(await as('bookkeeper', ['tx', 'bulk-delete', '--ids', ids[3], '--yes']), 0, 'bulk-delete of 1 row')
      expectExit(
        await as('bookkeeper', ['tx', 'bulk-update', '--ids', ids.slice(0, 2).join(','), '--set', 'category=Walk', '--yes']),
        0,
        'bulk-update of 2',
      )
      // Over it: a proposal (exit 15), approved by an owner through another process on PostgreSQL.
      const upd = await as('bookkeeper', ['tx', 'bulk-update', ...bulk, '--set', 'category=Walked', '--yes', '--json'])
      expectExit(upd, 15, 'bulk-update of 3')
      const pu = JSON.parse(upd.stdout)
      expect(pu).toMatchObject({ kind: 'bulk', target: '3 transactions', effect: { rows: 3, threshold: 2 } })
      const rows = async () => {
        const r = await sb.json(['tx', 'list', '--account', accountId, '--search', 'Walk bulk', '--sort', 'transaction_date', '--json'])
        return (r.data ?? r).map((t: { id: string; category: string | null }) => [t.id, t.category])
      }
      // Nothing changed yet; the two rows of the bulk update under the threshold changed at once.
      expect(await rows()).toEqual([
        [ids[0], 'Walk'],
        [ids[1], 'Walk'],
        [ids[2], null],
      ])
      expectExit(await as('bookkeeper', ['approvals', 'approve', pu.id]), 4, 'bookkeeper approves own bulk update')
      expectExit(await as('owner2', ['approvals', 'approve', pu.id]), 0, 'owner2 approves the bulk update')
      expect(await rows()).toEqual(ids.slice(0, 3).map((id) => [id, 'Walked']))
      const del = await as('bookkeeper', ['tx', 'bulk-delete', ...bulk, '--yes', '--json'])
      expectExit(del, 15, 'bulk-delete of 3')
      const pd = JSON.parse(del.stdout)
      expect(pd).toMatchObject({
        kind: 'bulk',
        target: 'delete 3 transactions',
        effect: { action: 'delete', rows: 3, totals: [{ currency_code: 'USD', rows: 3, amount: -60 }] },
      })
      expect(del.stderr).toContain(`proposal ${pd.id} waits for approval (bulk delete 3 transactions)`)
      const shown = await as('accountant', ['approvals', 'show', pd.id])
      for (const id of ids.slice(0, 3)) expect(shown.stdout).toContain(id)
      // The proposer may not; the accountant reviews it (close, no write: docs/people.md).
      expectExit(await as('auditor', ['approvals', 'approve', pd.id]), 4, 'auditor approves a bulk delete')
      expectExit(await as('bookkeeper', ['approvals', 'approve', pd.id]), 4, 'bookkeeper approves own bulk delete')
      expectExit(await as('accountant', ['approvals', 'approve', pd.id, '--json']), 0, 'accountant approves the bulk delete')
      expect(await rows()).toEqual([])
      expect((await as('owner2', ['approvals', 'approve', pd.id])).code).toBe(6)
      expectExit(await as('auditor', ['verify', '--json']), 0, 'verify after the bulk delete')
    }, 180_000)

    it('key-write: a write key is a proposal; its secret works only once the second owner approves', async () => {
      const proposed = await as('owner', ['keys', 'create', '--name', 'walk-writer', '--scopes', 'read,write', '--json'])
      expectExit(proposed, 15, 'keys create with write')
      const p = JSON.parse(proposed.stdout)
      expect(p).toMatchObject({ kind: 'key-write', target: 'walk-writer', state: 'pending' })
      expect(p.key).toMatch(/^fd/)
      sb.secrets.add(p.key)
      // The key, on the auditor's target (a server of its own on PostgreSQL), instead of the auditor's login.
      const withKey = (args: string[]) => sb.run(['--profile', 'auditor', ...args], { env: { FINCTL_API_KEY: p.key } })
      expectExit(await withKey(['tx', 'list', '--json']), 3, 'the key before approval')
      const shown = await as('owner2', ['approvals', 'show', p.id, '--json'])
      expect(shown.stdout).not.toContain(p.key)
      expectExit(await as('owner', ['approvals', 'approve', p.id]), 4, 'owner approves own key')
      expectExit(await as('owner2', ['approvals', 'approve', p.id, '--json']), 0, 'owner2 approves the key')
      expectExit(await withKey(['tx', 'list', '--json']), 0, 'the key once approved')
      const made = await withKey([
        'tx',
        'create',
        '--account',
        accountId,
        '--date',
        '2026-11-09',
        '--amount',
        '-3.00',
        '--description',
        'By the key',
        '--json',
      ])
      expectExit(made, 0, 'a write with the key')
    }, 120_000)
  })
}

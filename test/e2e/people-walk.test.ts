/**
 * End-to-end: a company of four people walks through the built CLI. The owner inits, books October
 * 2026, closes it and invites an accountant, a bookkeeper and an auditor, each with a profile of
 * their own. The auditor reads everything and writes nothing; with the policy `reopen` on, the
 * bookkeeper's reopen waits for the accountant's approval; nobody widens their own rights.
 * Once embedded on SQLite (each profile names the same database file), once over two `finctl
 * serve` processes on one PostgreSQL schema (the profiles spread over both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshPostgres } from '../helpers/harness.js'
import { Sandbox, spawnServe, type CliResult, type ServeProcess } from '../helpers/cli.js'

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
    expect(r.stderr, what).toMatch(/lacks the [a-z_ ]+ scope|is your own/)
    expect(r.stdout, what).toBe('')
  }
}

for (const store of ['sqlite', 'postgres'] as const) {
  describe(`four people, one company (${store === 'sqlite' ? 'embedded SQLite' : 'two serve processes on PostgreSQL'})`, () => {
    const sb = new Sandbox(`people-walk-${store}`)
    const servers: ServeProcess[] = []
    let drop: (() => Promise<void>) | undefined
    let accountId: string
    const userIds: Partial<Record<Person, string>> = {}
    // The profile each person works in: the owner's `local` (made by init) and one per invitee.
    const as = (who: Person | 'owner', args: string[], input?: string) =>
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
      const target: Record<Person, string[]> =
        store === 'sqlite'
          ? { accountant: ['--database', database], bookkeeper: ['--database', database], auditor: ['--database', database] }
          : {
              accountant: ['--base-url', servers[1].url],
              bookkeeper: ['--base-url', servers[0].url],
              auditor: ['--base-url', servers[1].url],
            }
      for (const who of Object.keys(PEOPLE) as Person[]) await sb.ok(['profile', 'add', who, ...target[who]])
    }, 60_000)

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
    })

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
    })

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
    })

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
      expect(own.stderr).toContain(`is your own (user:${userIds.bookkeeper})`)
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
    })

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
    })
  })
}

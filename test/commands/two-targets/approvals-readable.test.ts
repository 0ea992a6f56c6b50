/**
 * `approvals show` for people: the request, the effect and the result as readable lines (no raw
 * JSON), people by email and accounts by name, never a bare user id; a second approval's refusal
 * names who approved by email. Embedded and through `finctl serve`.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { previousMonth } from '../../../src/domain/accounts/period-lock.js'
import { TARGET_KINDS, type Target, openTarget } from '../../helpers/two-targets.js'

const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))
const TTY = { tty: { stdout: true }, columns: 120, env: { NO_COLOR: '1' } }

describe.each(TARGET_KINDS)('approvals show, readable (%s)', (kind) => {
  let t: Target
  let carol: (args: string[]) => ReturnType<Target['run']>
  let revertProposal: string
  let reopenProposal: string

  beforeAll(async () => {
    t = await openTarget(kind, 'readable')
    const inv = await t.json(['users', 'invite', '--email', 'carol@readable.test', '--role', 'owner', '--json'])
    t.sb.secrets.add(inv.token)
    const at = t.baseUrl ? ['--base-url', t.baseUrl] : []
    await t.ok(['--profile', 'carol', ...at, 'login', '--invite', inv.token, '--password-stdin'], { input: 'password-of-carol\n' })
    carol = (args) => t.run(['--profile', 'carol', ...args])
    const acct = (await t.json(['accounts', 'create', '--name', 'Operating', '--type', 'checking', '--json'])).id
    const csv = t.sb.path('bank.csv')
    writeFileSync(csv, `Date,Description,Amount\n${today},Paper,-12.00\n${today},Ink,-30.00\n`)
    const batch = (await t.json(['tx', 'import', csv, '--account', acct, '--json'])).batch_id
    await t.ok(['tx', 'create', '--account', acct, '--date', `${M}-10`, '--amount', '-5.00', '--description', 'Stamps'])
    await t.ok(['close', M, '--force', '--reason', 'readable'])
    await t.ok(['policy', 'set', '--require-approval', 'revert,reopen'])
    const reopen = await t.run(['close', 'reopen', M, '--reason', 'late invoice', '--json'])
    expect(reopen.code, reopen.stderr).toBe(15)
    reopenProposal = JSON.parse(reopen.stdout).id
    const revert = await t.run(['imports', 'revert', batch, '--yes', '--json'])
    expect(revert.code, revert.stderr).toBe(15)
    revertProposal = JSON.parse(revert.stdout).id
  })
  afterAll(() => t?.close())

  it('the request, effect and result as lines; people by email, accounts by name', async () => {
    const approved = await carol(['approvals', 'approve', revertProposal.slice(-8)])
    expect(approved.code, approved.stderr).toBe(0)
    const r = await t.run(['approvals', 'show', revertProposal.slice(-8)], TTY)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/\nrequest:\n {2}batch id: [0-9a-f-]{36}\n {2}include edited: no\n/)
    expect(r.stdout).toMatch(/\nresult:\n {2}reverted import batch [0-9a-f-]{36} \(bank\.csv\): 2 rows deleted, 0 pairings undone/)
    expect(r.stdout).toMatch(/│ decided_by\s+│ carol@readable\.test/)
    expect(r.stdout).toMatch(/│ proposer\s+│ owner@readable\.test/)
    expect(r.stdout).not.toMatch(/\{"|user:[0-9a-f]/)

    const b = await t.run(['approvals', 'show', reopenProposal.slice(-8)], TTY)
    expect(b.code, b.stderr).toBe(0)
    expect(b.stdout).toMatch(/\nrequest:\n {2}month: \d{4}-\d{2}\n {2}reason: late invoice\n/)
    expect(b.stdout).toMatch(/its figures:\n {4}Operating \([0-9a-f]{8}\) {2}1 transaction {2}-5\.00 USD/)
    expect(b.stdout).not.toMatch(/\{"|user:[0-9a-f]/)
  })

  it('approving twice: the refusal names who approved by email', async () => {
    const again = await carol(['approvals', 'approve', revertProposal])
    expect(again.code).toBe(6)
    expect(again.stderr).toContain('was approved already, by carol@readable.test at')
    expect(again.stderr).not.toMatch(/user:[0-9a-f]/)
  })
})

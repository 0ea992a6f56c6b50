/**
 * The CLI in process (test/helpers/in-process-cli.ts; `finctl serve` spawned): once a month is
 * closed, the rows of `tx import` (its own thread) in it are refused naming the lock date; through
 * `finctl serve`, the lock holds, and `close reopen` lets the writes in again. The verbs themselves
 * (readiness and exit 12, the usage errors, the lock on `tx create`, reopen, history):
 * test/commands/close/close.test.ts.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { monthEnd, previousMonth } from '../../../src/domain/accounts/period-lock.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, stopServeAndCleanup, type ServeProcess } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { day, END, M } from '../../helpers/closing.js'

const today = new Date().toISOString().slice(0, 10)

describe('closing the books end to end', () => {
  let sb: InProcessSandbox
  let server: ServeProcess | undefined
  let acct: string
  let tx: string

  beforeAll(async () => {
    sb = new InProcessSandbox('close')
    await sb.ok(['init', '--company', 'Close Co', '--currency', 'USD', '--email', 'o@close.test', '--password-stdin', '--no-input'], {
      input: 'password-for-close\n',
    })
    acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    tx = (
      await sb.json<{ id: string }>([
        'tx',
        'create',
        '--account',
        acct,
        '--date',
        day(10),
        '--amount',
        '-10.00',
        '--description',
        'Paper',
        '--json',
      ])
    ).id
  })
  afterAll(() => stopServeAndCleanup(server, sb))

  it('a closed month: the rows of tx import in it are refused naming the lock date (exit 8), the others go in', async () => {
    await sb.ok(['tx', 'update', tx, '--status', 'posted', '--reconciled', 'true', '--category', 'Office'])
    const closed = await sb.json(['close', M, '--json'])
    expect(closed).toMatchObject({ period: M, action: 'close', lock_date: END, forced: false })
    const csv = join(sb.dir, 'late.csv')
    writeFileSync(csv, `Date,Description,Amount\n${day(20)},Old,-2.00\n${today},New,-3.00\n`)
    const imp = await sb.run(['tx', 'import', csv, '--account', acct, '--json'])
    expect(imp.code, imp.stderr).toBe(8)
    const s = JSON.parse(imp.stdout)
    expect(s).toMatchObject({ created: 1, rejected: 1 })
    expect(s.rejects[0].line).toBe(2)
    expect(s.rejects[0].reason).toContain(`the lock date is ${END}`)
  })

  it('remote: status and the lock through finctl serve; reopen with a reason lets the writes in', async () => {
    server = await startServe(sb, sb.database)
    const token = sb.profiles().profiles.local.access_token!
    const remote = (args: string[]) => sb.run(['--base-url', server!.url, ...args], { env: { FINCTL_TOKEN: token } })
    const st = await remote(['close', 'status', '--month', M, '--json'])
    expect(st.code, st.stderr).toBe(0)
    expect(JSON.parse(st.stdout)).toMatchObject({ lock_date: END, closed: true })
    const refused = await remote(['tx', 'update', tx, '--description', 'Changed'])
    expect(refused.code).toBe(6)
    expect(refused.stderr).toContain(`the lock date is ${END}`)

    const noReason = await remote(['close', 'reopen', M])
    expect(noReason.code).toBe(2)
    const reopened = await remote(['close', 'reopen', M, '--reason', 'late invoice', '--json'])
    expect(reopened.code, reopened.stderr).toBe(0)
    expect(JSON.parse(reopened.stdout)).toMatchObject({ action: 'reopen', lock_date: monthEnd(previousMonth(M)), reason: 'late invoice' })
    const created = await remote(['tx', 'create', '--account', acct, '--date', day(12), '--amount', '-1.00', '--description', 'Late'])
    expect(created.code, created.stderr).toBe(0)
    const history = await sb.json<Array<{ action: string }>>(['close', 'history', '--json'])
    expect(history.map((h) => h.action)).toEqual(['reopen', 'close'])
  })
})

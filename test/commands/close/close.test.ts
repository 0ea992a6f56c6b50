/**
 * `finctl close MONTH`, `close status`, `close reopen`, `close history` in process
 * (test/helpers/in-process-cli.ts): readiness and its exit 12, the lock, the usage errors naming
 * their flag (exit 2), reopening with a reason, the history. Through `finctl serve`:
 * test/commands/close/lock-imports.test.ts.
 */
import { monthEnd, previousMonth } from '../../../src/domain/accounts/period-lock.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { day, END, M } from '../../helpers/closing.js'

describe('close, in process', () => {
  let sb: InProcessSandbox
  let acct: string
  let tx: string

  beforeAll(async () => {
    sb = new InProcessSandbox('close')
    await sb.ok(['init', '--company', 'Close Co', '--currency', 'USD', '--email', 'o@close.test', '--password-stdin', '--no-input'], {
      input: 'password-for-close\n',
    })
    acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    const args = ['tx', 'create', '--account', acct, '--date', day(10), '--amount', '-10.00', '--description', 'Paper', '--json']
    tx = (await sb.json<{ id: string }>(args)).id
  })
  afterAll(() => sb?.cleanup())

  it('history: none yet (a note on a terminal, the header alone in a pipe)', async () => {
    const r = await sb.ok(['close', 'history'])
    expect(r.stdout).toBe('AT\tACTION\tPERIOD\tLOCK DATE\tACTOR\tFORCED\tREASON\n')
    expect(r.stderr).toBe('')
    expect((await sb.ok(['close', 'history'], { tty: { stderr: true } })).stderr).toContain('no month was ever closed')
    expect(await sb.json(['close', 'history', '--json'])).toEqual([])
  })

  it('status: exit 12 naming what is open, a row per account and the company; --json the same', async () => {
    const r = await sb.run(['close', 'status', '--month', M])
    expect(r.code, r.stderr).toBe(12)
    expect(r.stderr).toContain(`${M} is not ready to close`)
    expect(r.stderr).toContain('Main: 1 not reconciled, 1 uncategorized, 1 pending')
    const rows = r.stdout.trim().split('\n')
    expect(rows[0]).toContain('NOT RECONCILED')
    expect(rows.at(-1)).toMatch(/^\(company\)\t/)
    const j = await sb.run(['close', 'status', '--month', M, '--json'])
    expect(j.code).toBe(12)
    expect(JSON.parse(j.stdout)).toMatchObject({ month: M, ready: false, company: { not_reconciled: 1, uncategorized: 1, pending: 1 } })
  })

  it('usage errors name the flag and exit 2; a misspelled subcommand is suggested', async () => {
    const cases: Array<[string[], string]> = [
      [['close', 'status', '--month', '2026-13'], '--month 2026-13: there is no month 13: write the month as YYYY-MM'],
      [['close', M, '--force'], '--force needs --reason'],
      [['close'], 'give the month to close'],
      [['close', 'statu'], "unknown command 'statu' (Did you mean status?)"],
      [['close', M, '--overwrite'], '--output-dir, --accounts-map and --overwrite go with --export FORMATS'],
      [['close', M, '--export', 'pdf'], '--export takes formats among'],
      [['close', 'reopen', M], '--reason TEXT is required'],
      [['close', 'reopen', '10/2026', '--reason', 'x'], 'MONTH must be a month written YYYY-MM'],
    ]
    for (const [args, message] of cases) {
      const r = await sb.run(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toContain(message)
      expect(r.stdout).toBe('')
    }
  })

  it('close refuses a month not ready (exit 12, nothing changed)', async () => {
    const refused = await sb.run(['close', M])
    expect(refused.code).toBe(12)
    expect(refused.stderr).toContain(`${M} is not ready to close`)
    expect(await sb.json(['close', 'history', '--json'])).toEqual([])
  })

  it('once ready, status exits 0 and close locks the month: a transaction in it is refused (exit 6) naming --date', async () => {
    await sb.ok(['tx', 'update', tx, '--status', 'posted', '--reconciled', 'true', '--category', 'Office'])
    const ready = await sb.run(['close', 'status', '--month', M])
    expect(ready.code, ready.stderr).toBe(0)
    expect(ready.stderr).toContain(`${M} is ready to close`)

    const closed = await sb.json(['close', M, '--json'])
    expect(closed).toMatchObject({ period: M, action: 'close', lock_date: END, forced: false })
    const again = await sb.ok(['close', 'status', '--month', M])
    expect(again.stderr).toContain(`(closed: the lock date is ${END})`)

    const create = await sb.run(['tx', 'create', '--account', acct, '--date', day(12), '--amount', '-1.00', '--description', 'Late'])
    expect(create.code).toBe(6)
    expect(create.stderr).toContain(`a transaction dated ${day(12)} is in a closed period: the lock date is ${END}`)
    expect(create.stderr).toContain('--date:')
  })

  it('reopen with a reason: the lock date goes back a month; history lists both, the latest first', async () => {
    const reopened = await sb.json(['close', 'reopen', M, '--reason', 'late invoice', '--json'])
    expect(reopened).toMatchObject({ action: 'reopen', lock_date: monthEnd(previousMonth(M)), reason: 'late invoice' })
    const table = await sb.ok(['close', 'history'])
    const rows = table.stdout.trim().split('\n')
    expect(rows[0].split('\t')).toEqual(['AT', 'ACTION', 'PERIOD', 'LOCK DATE', 'ACTOR', 'FORCED', 'REASON'])
    expect(rows.slice(1).map((l) => l.split('\t')[1])).toEqual(['reopen', 'close'])
    await sb.ok(['tx', 'create', '--account', acct, '--date', day(12), '--amount', '-1.00', '--description', 'Late'])
  })
})

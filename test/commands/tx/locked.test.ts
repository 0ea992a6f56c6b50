/**
 * A transaction of a closed month: `tx delete`, `tx bulk-update` and `tx bulk-delete` refuse before their question
 * (the refusal does not depend on the answer), as `accounts delete` of an account holding rows does; `tx update` names the transaction and its date, not
 * `--date`, which was not given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('tx delete and tx update in a closed month, in process', () => {
  let sb: InProcessSandbox
  let tx: string
  let acct: string

  beforeAll(async () => {
    sb = new InProcessSandbox('tx-locked')
    await sb.ok(['init', '--company', 'Lock Co', '--currency', 'USD', '--email', 'o@lock.test', '--password-stdin', '--no-input'], {
      input: 'password-for-lock\n',
    })
    acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    const args = ['tx', 'create', '--account', acct, '--date', '2016-03-18', '--amount', '-12.50', '--description', 'Old lunch', '--json']
    tx = (await sb.json<{ id: string }>(args)).id
    await sb.ok(['close', '2016-03', '--force', '--reason', 'lock test'])
  })
  afterAll(() => sb?.cleanup())

  it('the company shows its lock date', async () => {
    expect(await sb.json(['company', '--json'])).toMatchObject({ lock_date: '2016-03-31' })
  })

  it('tx delete is refused for the lock before asking (or asking for --yes): exit 6', async () => {
    const r = await sb.run(['tx', 'delete', tx])
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toContain(`transaction ${tx} (dated 2016-03-18) is in a closed period: the lock date is 2016-03-31`)
    expect(r.stderr).toContain('finctl close reopen 2016-03')
    expect(r.stderr).not.toContain('--yes')
    expect(r.stderr).not.toContain('--date')
    expect(r.stderr).not.toMatch(/Delete transaction/)
  })

  it('tx update --category names the transaction and its date, not --date', async () => {
    const r = await sb.run(['tx', 'update', tx, '--category', 'Meals'])
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toContain(`error: transaction ${tx} (dated 2016-03-18) is in a closed period`)
    expect(r.stderr).not.toContain('--date')
    expect(r.stderr).toContain('ID: dated 2016-03-18, on or before the lock date 2016-03-31')
    // Moving it by --date still names the flag that was given.
    const moved = await sb.run(['tx', 'update', tx, '--date', '2016-04-02'])
    expect(moved.code).toBe(6)
    expect(moved.stderr).toContain('(dated 2016-03-18)')
  })

  it('tx bulk-update over rows of a closed month is refused before its question and before any chunk', async () => {
    await sb.ok(['tx', 'create', '--account', acct, '--date', '2016-04-05', '--amount', '-3.00', '--description', 'Old lunch too'])
    const r = await sb.run(['tx', 'bulk-update', '--search', 'Old lunch', '--set', 'category=Meals'])
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toContain(`transaction ${tx} (dated 2016-03-18), one of those matched, is in a closed period`)
    expect(r.stderr).not.toContain('--yes')
    expect(r.stderr).not.toMatch(/Change 2 transactions/)
    const rows = await sb.json<Array<{ category: string | null }>>(['tx', 'list', '--search', 'Old lunch', '--json'])
    expect(rows.map((t) => t.category)).toEqual([null, null])
  })

  it('tx bulk-delete over rows of a closed month is refused before its question (exit 6); by --ids, by the service; nothing deleted', async () => {
    const r = await sb.run(['tx', 'bulk-delete', '--search', 'Old lunch'])
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toContain(`transaction ${tx} (dated 2016-03-18), one of those matched, is in a closed period`)
    expect(r.stderr).not.toContain('--yes')
    expect(r.stderr).not.toMatch(/Delete 2 transactions/)
    const rows = await sb.json<Array<{ id: string }>>(['tx', 'list', '--search', 'Old lunch', '--json'])
    const byIds = await sb.run(['tx', 'bulk-delete', '--ids', rows.map((t) => t.id).join(','), '--yes', '--json'])
    expect(byIds.code, byIds.stderr).toBe(6)
    expect(byIds.stderr).toContain('the lock date is 2016-03-31')
    expect(byIds.stdout).toBe('')
    expect(await sb.json<unknown[]>(['tx', 'list', '--search', 'Old lunch', '--json'])).toHaveLength(2)
  })

  it('accounts delete of an account holding transactions is refused before its question', async () => {
    const r = await sb.run(['accounts', 'delete', 'Main'])
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toContain('bank account "Main" holds transactions and cannot be deleted: close it instead')
    expect(r.stderr).not.toContain('--yes')
  })
})

/**
 * verify and verify --close against what can change after a close, in process: a lock date cleared
 * by SQL is named (exit 13), since each close chains the lock date it set; an account renamed is
 * named as a rename, its exports produced again with the names of the close, exit 0 (docs/closing.md).
 */
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { monthEnd, previousMonth } from '../../../src/domain/accounts/period-lock.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

const M = previousMonth(new Date().toISOString().slice(0, 7))

describe('verify after a close: the lock date chained, a rename told apart', () => {
  let sb: InProcessSandbox
  let account: string
  const setLock = (date: string | null) => {
    const db = new Database(sb.database)
    db.prepare('update companies set lock_date = ?').run(date)
    db.close()
  }

  beforeAll(async () => {
    sb = new InProcessSandbox('lock-rename')
    await sb.ok(['init', '--company', 'Lock Co', '--currency', 'USD', '--email', 'l@lock.test', '--password-stdin', '--no-input'], {
      input: 'password-for-lock\n',
    })
    account = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    await sb.ok(['tx', 'create', '--account', account, '--date', `${M}-04`, '--amount', '-20.00', '--description', 'Stamps'])
    await sb.ok(['close', M, '--force', '--reason', 'lock test', '--export', 'csv,hledger,beancount', '--output-dir', sb.path('books')])
  })
  afterAll(() => sb?.cleanup())

  it('an account renamed: named as a rename, not as the period changed; exit 0', async () => {
    await sb.ok(['accounts', 'update', account, '--name', 'Checking'])
    const r = await sb.run(['verify', '--close', M, '--dir', sb.path('books')])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(
      `note: account ${account} was renamed from "Main" to "Checking" since the close: a rename, not a change of ${M}'s figures`,
    )
    expect(r.stderr).not.toContain('the data of the period changed')
    expect(r.stdout).toContain('produced again with the names of the close (renamed since): same bytes')
    // A change of the period's data is still one.
    const db = new Database(sb.database)
    db.prepare('drop trigger if exists transactions_lock_update').run()
    db.prepare("update transactions set description = 'Stamps and more'").run()
    const after = await sb.run(['verify', '--close', M, '--dir', sb.path('books')])
    db.prepare("update transactions set description = 'Stamps'").run()
    db.close()
    expect(after.code).toBe(13)
    expect(after.stderr).toContain('the data of the period changed')
  })

  it('a lock date cleared by SQL: verify and verify --close name it, exit 13', async () => {
    setLock(null)
    try {
      const v = await sb.run(['verify'])
      expect(v.code).toBe(13)
      expect(v.stderr).toContain("audit trail broken: the lock date is not set (nothing closed), but the audit chain's last change of it")
      expect(v.stderr).toContain(`set ${monthEnd(M)}: it was changed outside finctl`)
      const c = await sb.run(['verify', '--close', M])
      expect(c.code).toBe(13)
      expect(c.stderr).toContain('changed since the close: lock date: the lock date is not set')
      expect(c.stderr).not.toContain(`${M} is as it was closed`)
    } finally {
      setLock(monthEnd(M))
    }
    expect((await sb.run(['verify'])).code).toBe(0)
  })
})

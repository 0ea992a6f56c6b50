/**
 * The close record, the CLI in process through a spawned `finctl serve`: a month
 * closed with its exports, reopened and changed, gives exports that differ (exit 13); closed again
 * with new exports, 0; --export on a closed month adds to its record. The embedded cases (the
 * exports written and recorded, verify --close, an edited file or audit entry: exit 13) run in
 * process: test/commands/close/records.test.ts.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, stopServeAndCleanup, type ServeProcess } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { type Checked, FORCE, M, recordBooks } from '../../helpers/closing.js'

describe('the close record and verify --close', () => {
  let sb: InProcessSandbox
  let server: ServeProcess | undefined
  let dir: string
  let ids: string[] = []

  beforeAll(async () => {
    sb = new InProcessSandbox('close-records')
    dir = join(sb.dir, 'books')
    ids = await recordBooks(sb)
    await sb.ok(['close', M, ...FORCE, '--export', 'hledger,csv,xlsx', '--output-dir', dir])
  }, 240_000)
  afterAll(() => stopServeAndCleanup(server, sb))

  it('remote: reopened and changed, the exports produced again differ (13); closed again with new exports, 0', async () => {
    server = await startServe(sb, sb.database)
    const token = sb.profiles().profiles.local.access_token!
    const remote = (args: string[]) => sb.run(['--base-url', server!.url, ...args], { env: { FINCTL_TOKEN: token } })
    expect((await remote(['verify', '--close', M])).code).toBe(0)
    expect((await remote(['close', 'reopen', M, '--reason', 'late invoice'])).code).toBe(0)
    const unchanged = await remote(['verify', '--close', M])
    expect(unchanged.code, unchanged.stderr).toBe(0)
    expect(unchanged.stderr).toContain(`${M} was reopened`)
    expect((await remote(['tx', 'update', ids[2], '--amount', '-109.95', '--json'])).code).toBe(0)
    const changed = await remote(['verify', '--close', M, '--json'])
    expect(changed.code).toBe(13)
    const checks = (JSON.parse(changed.stdout) as { exports: Checked[] }).exports
    expect(checks.find((e) => e.format === 'hledger')).toMatchObject({ result: 'differs' })
    expect(changed.stderr).toContain('produced again today it gives other bytes: the data of the period changed')
    // An export cannot be recorded on a month that is open.
    const open = await remote(['close', M, '--export', 'ledger', '--output-dir', join(sb.dir, 'open')])
    expect(open.code).toBe(12)
    expect(existsSync(join(sb.dir, 'open', `books-${M}.ledger`))).toBe(false)
    const closed = await remote(['close', M, ...FORCE, '--export', 'hledger,csv,xlsx', '--output-dir', dir, '--overwrite'])
    expect(closed.code, closed.stderr).toBe(0)
    const ok = await remote(['verify', '--close', M, '--dir', dir])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stderr).toContain(`${M} is as it was closed`)
    // Closed already: --export adds to the close record.
    const more = await remote(['close', M, '--export', 'beancount', '--output-dir', dir, '--json'])
    expect(more.code, more.stderr).toBe(0)
    expect(more.stderr).toContain(`${M} is closed already`)
    const v = await remote(['verify', '--close', M, '--json'])
    expect((JSON.parse(v.stdout) as { exports: Checked[] }).exports.map((e) => e.format)).toEqual(['hledger', 'csv', 'xlsx', 'beancount'])
  })
})

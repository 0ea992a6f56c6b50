/**
 * `verify --close M --dir DIR` after reopen, edit and a close without --export: the
 * files in DIR are the first close's, which the latest close does not hold, so none is compared;
 * verify says so instead of "as it was closed" alone.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

const M = '2016-03'
const FORCE = ['--force', '--reason', 'checked by hand']

describe('verify --close after a re-close without exports, in process', () => {
  let sb: InProcessSandbox
  let dir: string

  beforeAll(async () => {
    sb = new InProcessSandbox('reclose-verify')
    dir = join(sb.dir, 'books')
    await sb.ok(['init', '--company', 'Reclose Co', '--currency', 'USD', '--email', 'o@reclose.test', '--password-stdin', '--no-input'], {
      input: 'password-for-reclose\n',
    })
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    const tx = ['tx', 'create', '--account', acct, '--date', `${M}-18`, '--amount', '-12.50', '--description', 'Lunch', '--json']
    const id = (await sb.json<{ id: string }>(tx)).id
    await sb.ok(['close', M, ...FORCE, '--export', 'hledger', '--output-dir', dir])
    await sb.ok(['close', 'reopen', M, '--reason', 'a fix'])
    await sb.ok(['tx', 'update', id, '--amount', '-13.50'])
    await sb.ok(['close', M, ...FORCE])
  })
  afterAll(() => sb?.cleanup())

  it('names the files in --dir as not checked and why, and never claims them as closed', async () => {
    const r = await sb.run(['verify', '--close', M, '--dir', dir])
    expect(r.stderr).toContain(`note: the files in ${dir} were not checked: the latest close of ${M}`)
    expect(r.stderr).toContain('recorded no export')
    expect(r.stderr).toMatch(new RegExp(`^${M} is as it was closed: its rows and the audit trail; no file was checked$`, 'm'))
    expect(r.code).toBe(0)
  })
})

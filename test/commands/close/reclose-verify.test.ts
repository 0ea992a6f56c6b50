/**
 * `verify --close M --dir DIR` after reopen, edit and a close again: the files in DIR are checked
 * against the exports of the latest close, and a file that is an earlier close's export (written
 * before the reopen, out of date since) is named as such, with the command that exports it again,
 * exit 13, never "as it was closed". A file in DIR that no close recorded is named as not checked.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

const M = '2016-03'
const FORCE = ['--force', '--reason', 'checked by hand']

interface Close {
  action: string
  period: string
  created_at: string
}

describe('verify --close after reopen, edit and a close again, in process', () => {
  let sb: InProcessSandbox
  let dir: string
  let other: string
  let txId: string

  /** The month's closes, the first first. */
  const closes = async () =>
    (await sb.json<Close[]>(['close', 'history', '--json'])).filter((c) => c.action === 'close' && c.period === M).reverse()

  beforeAll(async () => {
    sb = new InProcessSandbox('reclose-verify')
    dir = join(sb.dir, 'books')
    other = join(sb.dir, 'books-again')
    await sb.ok(['init', '--company', 'Reclose Co', '--currency', 'USD', '--email', 'o@reclose.test', '--password-stdin', '--no-input'], {
      input: 'password-for-reclose\n',
    })
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    const tx = ['tx', 'create', '--account', acct, '--date', `${M}-18`, '--amount', '-12.50', '--description', 'Lunch', '--json']
    txId = (await sb.json<{ id: string }>(tx)).id
    await sb.ok(['close', M, ...FORCE, '--export', 'hledger', '--output-dir', dir])
  })
  afterAll(() => sb?.cleanup())

  it("a close again without --export: the journal in --dir is the first close's, named so with how to export it again, exit 13", async () => {
    await sb.ok(['close', 'reopen', M, '--reason', 'a fix'])
    await sb.ok(['tx', 'update', txId, '--amount', '-13.50'])
    await sb.ok(['close', M, ...FORCE])
    const [first, latest] = await closes()
    const file = join(dir, `books-${M}.journal`)
    const r = await sb.run(['verify', '--close', M, '--dir', dir])
    expect(r.stderr).toContain(
      `${file} is the export of the close of ${first.created_at}, reopened since; the month was closed again at ${latest.created_at}: export it again with finctl close ${M} --export hledger --output-dir ${dir} --overwrite`,
    )
    expect(r.stderr).not.toContain('is as it was closed')
    expect(r.code).toBe(13)
    const j = await sb.run(['verify', '--close', M, '--dir', dir, '--json'])
    expect(j.code).toBe(13)
    expect(JSON.parse(j.stdout)).toMatchObject({
      intact: false,
      stale_files: [expect.objectContaining({ path: file, format: 'hledger', closed_at: first.created_at })],
    })

    // The command it names records the export on the latest close: the folder is as it was closed.
    await sb.ok(['close', M, '--export', 'hledger', '--output-dir', dir, '--overwrite'])
    const again = await sb.run(['verify', '--close', M, '--dir', dir])
    expect(again.stderr).toMatch(new RegExp(`^${M} is as it was closed`, 'm'))
    expect(again.code).toBe(0)
  })

  it("a close again with --export to another folder: the old folder's journal is named out of date, the new one is as it was closed", async () => {
    await sb.ok(['close', 'reopen', M, '--reason', 'another fix'])
    await sb.ok(['tx', 'update', txId, '--amount', '-14.50'])
    await sb.ok(['close', M, ...FORCE, '--export', 'hledger', '--output-dir', other])
    const all = await closes()
    const [previous, latest] = all.slice(-2)
    const r = await sb.run(['verify', '--close', M, '--dir', dir])
    expect(r.stderr).toContain(
      `${join(dir, `books-${M}.journal`)} is the export of the close of ${previous.created_at}, reopened since; the month was closed again at ${latest.created_at}`,
    )
    expect(r.code).toBe(13)
    const ok = await sb.run(['verify', '--close', M, '--dir', other])
    expect(ok.stderr).toMatch(new RegExp(`^${M} is as it was closed`, 'm'))
    expect(ok.code).toBe(0)
  })

  it('a file in --dir that no close recorded is named as not checked', async () => {
    const stray = join(other, `books-${M}.csv`)
    writeFileSync(stray, 'date,amount\n')
    const r = await sb.run(['verify', '--close', M, '--dir', other])
    expect(r.stderr).toContain(`note: ${stray} was not checked: no close of ${M} recorded a file of these bytes`)
    // The journal itself is still checked and the same.
    expect(r.code).toBe(0)
    expect(readFileSync(join(other, `books-${M}.journal`), 'utf8')).toContain('14.50')
  })
})

/**
 * Messages say what is so: a folder given to `docs add` is a folder, a text file is text (in
 * whatever encoding), a failed statement batch is failed when `imports discard` refuses it, and a
 * dry run of a revert that would be refused says so (exit 6) and lists nothing as done; embedded
 * and through `finctl serve`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { previousMonth } from '../../../src/domain/accounts/period-lock.js'
import { TARGET_KINDS, type Target, openTarget } from '../../helpers/two-targets.js'

const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))

describe.each(TARGET_KINDS)('messages that say what is so (%s)', (kind) => {
  let t: Target
  let acct: string
  let closedBatch: string

  beforeAll(async () => {
    t = await openTarget(kind, 'truth')
    acct = (await t.json(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    const csv = t.sb.path('old.csv')
    writeFileSync(csv, `Date,Description,Amount\n${M}-03,Paper,-12.00\n${M}-04,Ink,-30.00\n`)
    closedBatch = (await t.json(['tx', 'import', csv, '--account', acct, '--json'])).batch_id
    await t.ok(['close', M, '--force', '--reason', 'true messages'])
  })
  afterAll(() => t?.close())

  it('docs add: a folder is a folder; text in UTF-16 or Latin-1 is text, not binary data', async () => {
    const folder = t.sb.path('receipts')
    mkdirSync(folder)
    const dir = await t.run(['docs', 'add', folder])
    expect(dir.code).toBe(2)
    expect(dir.stderr).toContain(`${folder} is a folder: give the files in it`)
    expect(dir.stderr).not.toContain('no such file')
    const latin = t.sb.path('latin.csv')
    writeFileSync(latin, Buffer.from('Date,Description,Amount\n2026-10-02,Caf\xe9,-3.50\n', 'latin1'))
    const l = await t.run(['docs', 'add', latin])
    expect(l.code).toBe(6)
    expect(l.stderr).toContain('"latin.csv" looks like text in an 8-bit encoding (not UTF-8')
    const u16 = t.sb.path('u16.csv')
    writeFileSync(u16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Date,Amount\n2026-10-02,-3.50\n', 'utf16le')]))
    const u = await t.run(['docs', 'add', u16])
    expect(u.code).toBe(6)
    expect(u.stderr).toContain('"u16.csv" looks like text in UTF-16')
    for (const r of [l, u]) expect(r.stderr).not.toContain('binary data')
  })

  it('imports discard of a failed statement batch says it failed, as imports show does', async () => {
    const file = t.sb.path('late.csv')
    writeFileSync(file, `Date,Description,Amount\n${M}-20,Late fee,-5.00\n${today},Coffee,-3.00\n`)
    const review = await t.json(['statements', 'upload', file, '--account', acct, '--review', '--json'])
    const batch = review.batch_id ?? review.id
    const applied = await t.run(['imports', 'apply', batch])
    expect(applied.code).toBe(6)
    expect((await t.json(['imports', 'show', batch, '--json'])).state).toBe('failed')
    const r = await t.run(['imports', 'discard', batch])
    expect(r.code).toBe(6)
    expect(r.stderr).toContain('the import batch failed: its statement')
    expect(r.stderr).not.toContain('completed')
  })

  it('imports revert --dry-run of rows in a closed month: refused (exit 6), nothing listed as going', async () => {
    const r = await t.run(['imports', 'revert', closedBatch, '--dry-run'])
    expect(r.code).toBe(6)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('would be refused (exit 6): 2 rows in a closed month; nothing would be reverted, nothing was changed')
    expect(r.stderr).not.toMatch(/would revert|rows deleted/)
    const real = await t.run(['imports', 'revert', closedBatch, '--yes'])
    expect(real.code).toBe(6)
  })
})

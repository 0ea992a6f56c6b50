/**
 * `tx import --review` then `imports remap`, in process, on SQLite: the review sends its file, remap
 * reads it again with another column for a field (table and --json), names the rows it refuses
 * (exit 8), and apply lands the remapped rows; usage errors exit 2, a batch no longer pending or
 * a column the file lacks exits 6.
 * The corpus' Chase-style file runs when the corpus is there.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HAS_BANK_FILES, bankFile } from '../../helpers/bank-files.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

interface Summary {
  batch_id: string
  review?: { pending: number }
}
interface Remapped {
  id: string
  state: string
  remap: { read: number; staged: number; existing: number; rejected: number }
  rejects: Array<{ line: number; reason: string }>
}

describe('imports remap, in process', () => {
  let sb: InProcessSandbox
  const account = async (name: string) =>
    (await sb.json<{ id: string }>(['accounts', 'create', '--name', name, '--type', 'checking', '--json'])).id
  const txs = async (acct: string) =>
    (await sb.json<Array<{ description: string; category: string | null; amount: string }>>(['tx', 'list', '--account', acct, '--json']))
      .map((t) => `${t.description}:${t.category ?? ''}:${t.amount}`)
      .sort()

  beforeAll(async () => {
    sb = new InProcessSandbox('imports-remap')
    await sb.ok(['init', '--company', 'Remap Co', '--currency', 'USD', '--email', 'o@remap.test', '--password-stdin', '--no-input'], {
      input: 'password-for-remap\n',
    })
  })
  afterAll(() => sb?.cleanup())

  it('remap reads the file again with another mapping; rejects named; apply lands the remapped rows', async () => {
    const acct = await account('Main')
    const file = sb.path('feb.csv')
    writeFileSync(
      file,
      'Date,Payee,Memo,Amount\n2026-02-02,Paper Co,Office,5.00\n2026-02-03,Pen Co,Office,2.50\n2026-02-04,Rail,Travel,oops\n',
    )
    const first = await sb.run(['tx', 'import', file, '--account', acct, '--review', '--map', 'description=Payee', '--json'])
    expect(first.code, first.stderr).toBe(8)
    const s = JSON.parse(first.stdout) as Summary
    expect(s.review?.pending).toBe(2)
    const short = s.batch_id.slice(-8)

    const r = await sb.run(['imports', 'remap', short, '--map', 'category=Memo', '--invert-sign'])
    expect(r.code, r.stderr).toBe(8)
    expect(r.stdout).toMatch(/state\s+pending/)
    expect(r.stdout).toMatch(/pending\s+2/)
    expect(r.stdout).toMatch(/rejected\s+1/)
    expect(r.stderr).toContain('line 4 rejected: amount')
    expect(await txs(acct)).toEqual([])

    const again = await sb.run(['imports', 'remap', short, '--map', 'category=Memo', '--invert-sign', '--json'])
    expect(again.code, again.stderr).toBe(8)
    const j = JSON.parse(again.stdout) as Remapped
    expect(j).toMatchObject({ state: 'pending', remap: { read: 3, staged: 2, existing: 0, rejected: 1 } })
    expect(j.rejects.map((x) => x.line)).toEqual([4])

    const applied = await sb.run(['imports', 'apply', short])
    expect(applied.code, applied.stderr).toBe(0)
    expect(await txs(acct)).toEqual(['Paper Co:Office:-5', 'Pen Co:Office:-2.5'])
    const late = await sb.run(['imports', 'remap', short, '--map', 'category=Payee'])
    expect([late.code, late.stderr]).toEqual([6, expect.stringContaining('completed')])
  })

  it('usage errors name the flag (exit 2); a column the file lacks names --map (exit 6)', async () => {
    const none = await sb.run(['imports', 'remap', 'abcdef12'])
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining('--map')])
    const bad = await sb.run(['imports', 'remap', 'abcdef12', '--map', 'Category'])
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--map takes field=Column')])
    const acct = await account('Columns')
    const file = sb.path('mar.csv')
    writeFileSync(file, 'Date,Description,Amount\n2026-03-02,Tea,-3.00\n')
    const s = await sb.json<Summary>(['tx', 'import', file, '--account', acct, '--review', '--json'])
    const missing = await sb.run(['imports', 'remap', s.batch_id, '--map', 'category=Memo'])
    // A column the file lacks is the service's 400 (exit 6), naming the flag.
    expect(missing.code).toBe(6)
    expect(missing.stderr).toContain('--map')
    expect(missing.stderr).toContain('Memo')
  })

  it.skipIf(!HAS_BANK_FILES)('a real bank file: remap takes the category from the Type column', async () => {
    const acct = await account('Chase')
    const s = await sb.json<Summary>([
      'tx',
      'import',
      bankFile('csv', 'us-chase-style-checking-signed-balance.csv'),
      '--account',
      acct,
      '--review',
      '--json',
    ])
    const j = await sb.json<Remapped>(['imports', 'remap', s.batch_id, '--map', 'category=Type', '--json'])
    expect(j.remap.staged).toBe(s.review?.pending)
    expect(j.remap.rejected).toBe(0)
    const page = await sb.json<{ pending: { rows: Array<{ transaction: { category?: string } }> } }>([
      'imports',
      'show',
      s.batch_id,
      '--json',
    ])
    expect(new Set(page.pending.rows.map((x) => x.transaction.category))).toContain('ACH_CREDIT')
  })
})

/**
 * `tx import --review` then `imports show | set | apply | discard`, in process, on SQLite: the
 * review creates nothing and says what apply would do; show lists the pending rows (table, --json,
 * csv); set edits one by line; apply creates them once; discard drops them; usage errors exit 2.
 * The corpus' Chase-style file runs when the corpus is there.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HAS_BANK_FILES, bankFile } from '../../helpers/bank-files.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

interface Summary {
  batch_id: string
  created: number
  rejected: number
  already_imported: number
  read: number
  review?: { state: string; pending: number; pending_total: number; expires_at: string }
}

describe('review before it lands, in process', () => {
  let sb: InProcessSandbox
  const accounts: Record<string, string> = {}
  const account = async (name: string) => {
    accounts[name] ??= (await sb.json<{ id: string }>(['accounts', 'create', '--name', name, '--type', 'checking', '--json'])).id
    return accounts[name]
  }
  const descriptions = async (acct: string) =>
    (await sb.json<Array<{ description: string; category: string | null }>>(['tx', 'list', '--account', acct, '--json']))
      .map((t) => `${t.description}:${t.category ?? ''}`)
      .sort()

  beforeAll(async () => {
    sb = new InProcessSandbox('imports-review')
    await sb.ok(['init', '--company', 'Review Co', '--currency', 'USD', '--email', 'o@review.test', '--password-stdin', '--no-input'], {
      input: 'password-for-review\n',
    })
  })
  afterAll(() => sb?.cleanup())

  it('--review keeps the rows pending; show lists them; set edits one; apply creates them once', async () => {
    const acct = await account('Main')
    const file = sb.path('feb.csv')
    writeFileSync(file, 'Date,Description,Amount\n2026-02-02,Paper,-5.00\n2026-02-03,Pens,-2.50\n2026-02-04,Ink,abc\n')
    const r = await sb.run(['tx', 'import', file, '--account', acct, '--review'])
    expect(r.code, r.stderr).toBe(8)
    expect(r.stderr).toContain('line 4: ')
    expect(r.stdout).toMatch(/pending\s+2/)
    expect(r.stdout).toMatch(/pending total\s+-7\.50 USD/)
    const short = /finctl imports apply ([0-9a-f]{8}) would create 2 rows \(total -7\.50 USD\)/.exec(r.stderr)?.[1]
    expect(short, r.stderr).toBeDefined()
    expect(r.stderr).toContain('review: nothing was created')
    expect(await descriptions(acct)).toEqual([])

    const table = await sb.run(['imports', 'show', short as string])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/state\s+pending/)
    expect(table.stdout).toMatch(/2\s+2026-02-02\s+Paper\s+-5\.00 USD/)
    expect(table.stdout).toContain('Pens')
    expect(table.stderr).toContain('line 4 rejected:')
    const json = await sb.json<{ state: string; pending: { rows: Array<{ line: number; transaction: { description: string } }> } }>([
      'imports',
      'show',
      short as string,
      '--json',
    ])
    expect(json.state).toBe('pending')
    expect(json.pending.rows.map((x) => [x.line, x.transaction.description])).toEqual([
      [2, 'Paper'],
      [3, 'Pens'],
    ])
    const csv = await sb.run(['imports', 'show', short as string, '--output', 'csv'])
    expect(csv.stdout.trim().split(/\r?\n/)).toEqual([
      'line,date,description,amount,currency,category,merchant',
      '2,2026-02-02,Paper,-5.00,USD,,',
      '3,2026-02-03,Pens,-2.50,USD,,',
    ])

    const set = await sb.run(['imports', 'set', short as string, '--line', '3', '--category', 'Office', '--merchant-name', 'Pen Shop'])
    expect(set.code, set.stderr).toBe(0)
    expect(set.stdout).toMatch(/category\s+Office/)

    const applied = await sb.run(['imports', 'apply', short as string])
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).toMatch(/created\s+2/)
    expect(await descriptions(acct)).toEqual(['Paper:', 'Pens:Office'])
    const again = await sb.run(['imports', 'apply', short as string])
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/created\s+0/)
    expect(again.stderr).toContain('applied before')
    expect(await descriptions(acct)).toEqual(['Paper:', 'Pens:Office'])
    const shown = await sb.json<{ state: string; counts: { created: number; rejected: number } }>([
      'imports',
      'show',
      short as string,
      '--json',
    ])
    expect(shown).toMatchObject({ state: 'completed', counts: { created: 2, rejected: 1 } })
  })

  it('discard drops a pending batch: apply is refused then; --json of a review names it pending', async () => {
    const acct = await account('Drops')
    const file = sb.path('mar.csv')
    writeFileSync(file, 'Date,Description,Amount\n2026-03-02,Tea,-3.00\n')
    const s = await sb.json<Summary>(['tx', 'import', file, '--account', acct, '--review', '--json'])
    expect(s.created).toBe(0)
    expect(s.review).toMatchObject({ state: 'pending', pending: 1, pending_total: -3 })
    const d = await sb.run(['imports', 'discard', s.batch_id])
    expect(d.code, d.stderr).toBe(0)
    expect(d.stdout).toMatch(/state\s+discarded/)
    const refused = await sb.run(['imports', 'apply', s.batch_id])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('discarded')
    expect(await descriptions(acct)).toEqual([])
  })

  it('usage errors name the flag (exit 2)', async () => {
    const acct = await account('Main')
    const file = sb.path('apr.csv')
    writeFileSync(file, 'Date,Description,Amount\n2026-04-02,Tea,-3.00\n')
    for (const flag of ['--dry-run', '--atomic', '--single']) {
      const r = await sb.run(['tx', 'import', file, '--account', acct, '--review', flag])
      expect([r.code, r.stderr]).toEqual([2, expect.stringContaining(`--review cannot go with ${flag}`)])
    }
    const noLine = await sb.run(['imports', 'set', 'abcdef12', '--category', 'X'])
    expect([noLine.code, noLine.stderr]).toEqual([2, expect.stringContaining('--line')])
    const noField = await sb.run(['imports', 'set', 'abcdef12', '--line', '2'])
    expect([noField.code, noField.stderr]).toEqual([2, expect.stringContaining('--category')])
    const badEnum = await sb.run(['imports', 'set', 'abcdef12', '--line', '2', '--cash-flow-category', 'nope'])
    expect([badEnum.code, badEnum.stderr]).toEqual([2, expect.stringContaining('--cash-flow-category')])
  })

  it.skipIf(!HAS_BANK_FILES)('a real bank file: review then apply creates what a direct import creates', async () => {
    const file = bankFile('csv', 'us-chase-style-checking-signed-balance.csv')
    const direct = await sb.run(['tx', 'import', file, '--account', await account('Chase direct'), '--json'])
    const d = JSON.parse(direct.stdout) as Summary
    const reviewAcct = await account('Chase review')
    const rv = await sb.run(['tx', 'import', file, '--account', reviewAcct, '--review', '--json'])
    expect(rv.code).toBe(direct.code)
    const s = JSON.parse(rv.stdout) as Summary
    expect(s.review?.pending).toBe(d.created)
    expect(s.rejected).toBe(d.rejected)
    expect(await descriptions(reviewAcct)).toEqual([])
    const a = await sb.json<{ applied: { created: number } }>(['imports', 'apply', s.batch_id, '--json'])
    expect(a.applied.created).toBe(d.created)
    expect(await descriptions(reviewAcct)).toEqual(await descriptions(accounts['Chase direct']))
  })
})

/**
 * `finctl imports list | show` in process, on SQLite: each `tx import` records a batch, its
 * `--json` gives `batch_id`, its summary names the batch; a re-run's batch counts every row as there
 * already; `show` takes a short id, prints the record and its rejected rows; usage errors exit 2 and a
 * batch not found exits 5. The corpus' Chase-style file runs when the corpus is there.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HAS_BANK_FILES, bankFile } from '../../helpers/bank-files.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

interface Batch {
  id: string
  kind: string
  file_name: string
  file_sha256: string | null
  state: string
  read: number | null
  counts: { created: number; existing: number; reconciled: number; rejected: number }
  options: { mapping?: unknown; plan?: { header?: string[] } }
  rejects?: Array<{ line: number; reason: string }>
}

describe('imports list and show, in process', () => {
  let sb: InProcessSandbox
  let account = ''

  beforeAll(async () => {
    sb = new InProcessSandbox('imports')
    await sb.ok(['init', '--company', 'Batch Co', '--currency', 'USD', '--email', 'o@batches.test', '--password-stdin', '--no-input'], {
      input: 'password-for-batches\n',
    })
    account = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
  })
  afterAll(() => sb?.cleanup())

  it('tx import records a batch: batch_id in --json, named in the summary; a re-run counts the rows as there', async () => {
    const file = sb.path('jan.csv')
    writeFileSync(file, 'Date,Description,Amount\n2026-01-02,Paper,-5.00\n2026-01-03,Pens,-2.50\n2026-01-04,Ink,abc\n')
    const first = await sb.run(['tx', 'import', file, '--account', account, '--json'])
    expect(first.code, first.stderr).toBe(8)
    const summary = JSON.parse(first.stdout) as { batch_id: string; created: number; rejected: number }
    expect(summary).toMatchObject({ created: 2, rejected: 1 })
    expect(summary.batch_id).toMatch(/^[0-9a-f-]{36}$/)

    const again = await sb.run(['tx', 'import', file, '--account', account])
    expect(again.code).toBe(8)
    const short = /import batch ([0-9a-f]{8}): see it with finctl imports show \1/.exec(again.stderr)?.[1]
    expect(short, again.stderr).toBeDefined()

    const list = await sb.json<Batch[]>(['imports', 'list', '--json'])
    expect(list).toHaveLength(2)
    expect(list[1]).toMatchObject({
      id: summary.batch_id,
      kind: 'csv',
      file_name: 'jan.csv',
      state: 'completed',
      read: 3,
      counts: { created: 2, existing: 0, reconciled: 0, rejected: 1 },
    })
    expect(list[1].file_sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(list[0]).toMatchObject({ state: 'completed', counts: { created: 0, existing: 2, rejected: 1 } })
    expect(list[0].id.endsWith(short as string)).toBe(true)
    expect(list[0].file_sha256).toBe(list[1].file_sha256)

    const shown = await sb.json<Batch>(['imports', 'show', short as string, '--json'])
    expect(shown.id).toBe(list[0].id)
    expect(shown.options.plan?.header).toEqual(['Date', 'Description', 'Amount'])
    expect(shown.rejects).toEqual([{ line: 4, reason: expect.stringContaining('amount') }])

    const table = await sb.run(['imports', 'show', short as string])
    expect(table.code).toBe(0)
    expect(table.stdout).toContain('jan.csv')
    expect(table.stdout).toMatch(/already there\s+2/)
    expect(table.stderr).toContain('line 4 rejected:')
    // The re-run created nothing; the first run's rows are listed under its record.
    expect(table.stderr).not.toContain('the rows it created')
    const firstShown = await sb.run(['imports', 'show', summary.batch_id])
    expect(firstShown.stderr).toContain('the rows it created')
    expect(firstShown.stdout).toContain('Paper')
    expect(firstShown.stdout).toContain('Pens')
    const rows = await sb.run(['imports', 'list'])
    expect(rows.code).toBe(0)
    expect(rows.stdout).toContain(short as string)
    // Who ran it: the key init made, by its creator's email (the id stays in --json).
    const csv = await sb.run(['imports', 'list', '--output', 'csv'])
    expect(csv.stdout).toContain('o@batches.test (key finctl CLI)')
    expect(csv.stdout).not.toContain('key:')
    expect((await sb.run(['imports', 'list', '--all', '--output', 'csv'])).stdout).toContain('o@batches.test (key finctl CLI)')
  })

  it('usage errors name the flag (exit 2); a batch not found exits 5', async () => {
    const kind = await sb.run(['imports', 'list', '--kind', 'xls'])
    expect([kind.code, kind.stderr]).toEqual([2, expect.stringContaining('--kind')])
    const limit = await sb.run(['imports', 'list', '--limit', '0'])
    expect([limit.code, limit.stderr]).toEqual([2, expect.stringContaining('--limit')])
    const missing = await sb.run(['imports', 'show', '00000000-0000-4000-8000-000000000000'])
    expect(missing.code).toBe(5)
  })

  it.skipIf(!HAS_BANK_FILES)('a real bank file: the batch holds the counts of the import', async () => {
    const file = bankFile('csv', 'us-chase-style-checking-signed-balance.csv')
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Chase', '--type', 'checking', '--json'])).id
    const r = await sb.run(['tx', 'import', file, '--account', acct, '--json'])
    expect([0, 8]).toContain(r.code)
    const s = JSON.parse(r.stdout) as { batch_id: string; created: number; already_imported: number; rejected: number; read: number }
    const b = await sb.json<Batch>(['imports', 'show', s.batch_id, '--json'])
    expect(b).toMatchObject({
      file_name: 'us-chase-style-checking-signed-balance.csv',
      state: 'completed',
      read: s.read,
      counts: { created: s.created, existing: s.already_imported, rejected: s.rejected },
    })
    expect(s.created).toBeGreaterThan(0)
  })
})

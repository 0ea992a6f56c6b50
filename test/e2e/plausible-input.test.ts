/**
 * End-to-end: implausible input is refused with the flag to fix and the way to keep it anyway.
 * A date outside the window (1970-01-01 to a year after today; FINCTL_DATE_WINDOW) or an amount of 0
 * exits 6 and writes nothing, unless --force; tx import rejects such rows (exit 8) unless --force.
 * Here what a process shows: the window the core reads from its own environment, and the import's
 * thread. tx create and tx update, in process: test/commands/tx/create.test.ts and update.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox } from '../helpers/cli.js'

describe('plausible input', () => {
  const sb = new Sandbox('plausible')
  let account = ''
  const create = (...extra: string[]) => ['tx', 'create', '--account', account, '--description', 'typo?', ...extra]

  beforeAll(async () => {
    await sb.ok(['init', '--company', 'Plausible Co', '--currency', 'USD', '--password-stdin', '--no-input'], {
      input: 'password-for-plausible\n',
    })
    account = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Operating', '--type', 'checking', '--json'])).id
  }, 120_000)
  afterAll(() => sb.cleanup())

  it('FINCTL_DATE_WINDOW moves the window; a malformed one is a usage error naming it', async () => {
    const r = await sb.run([...create('--date', '1950-06-01', '--amount', '3'), '--json'], {
      env: { FINCTL_DATE_WINDOW: '1900-01-01..+1y' },
    })
    expect(r.code, r.stderr).toBe(0)
    const narrow = await sb.run(create('--date', '2026-12-20', '--amount', '3'), { env: { FINCTL_DATE_WINDOW: '1970-01-01..+1d' } })
    expect(narrow.code).toBe(6)
    expect(narrow.stderr).toMatch(/--date is 2026-12-20, outside/)
    const bad = await sb.run(['tx', 'list'], { env: { FINCTL_DATE_WINDOW: 'since 1970' } })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^error: FINCTL_DATE_WINDOW: the date window "since 1970" must look like 1970-01-01\.\.\+1y/m)
  })

  it('tx import rejects such rows with their line (exit 8) and imports them with --force; a bank row of 0 is a booking', async () => {
    const file = join(sb.dir, 'odd-rows.csv')
    writeFileSync(file, 'Date,Description,Amount\n2026-02-01,Coffee,-4.50\n1965-02-02,Archive,12.00\n2026-02-03,Fee waived,0.00\n')
    // The service refuses these rows (tx import sends them unchecked: one validation, the service's),
    // and the CLI turns its answers by position into lines, the rejects file and exit 8.
    const rejects = join(sb.dir, 'odd-rows.rejects.csv')
    const first = await sb.run(['tx', 'import', file, '--account', account, '--rejects', rejects])
    expect(first.code).toBe(8)
    expect(readFileSync(rejects, 'utf8').trim().split(/\r?\n/)).toEqual([
      'Date,Description,Amount,line,reason',
      expect.stringMatching(/^1965-02-02,Archive,12\.00,3,"date is 1965-02-02, outside the dates this service accepts/),
    ])
    expect(first.stderr).toMatch(
      /^line 3: date is 1965-02-02, outside the dates this service accepts \(1970-01-01 to [\d-]+\): check it, or give --force to keep it$/m,
    )
    // A 0 in a bank file is the bank's booking (a fee waived): created as 0.00, and named.
    expect(first.stderr).toContain(
      '1 row has an amount of 0 (line 4): bookings without money moving (a card hold, a waived fee), imported as transactions of 0.00',
    )
    const forced = await sb.run(['tx', 'import', file, '--account', account, '--force', '--json'])
    expect(forced.code, forced.stderr).toBe(0)
    expect(JSON.parse(forced.stdout)).toMatchObject({ created: 1, already_imported: 2, rejected: 0, zero_amounts: { rows: 1, lines: [4] } })
  })
})

/**
 * `finctl tx import` in process: what it refuses before its thread starts, each a usage error naming
 * the flag or the file (exit 2) that reads no row and writes nothing: a missing file, a statement
 * file, --map, --set, --where and the numbers, an unknown --encoding or --date-format (moved from
 * test/e2e/tx-import.test.ts), --save-mapping and --mapping names, a --rejects path it must not
 * write (moved too), no --account; an account not found (exit 5). The import itself runs on a
 * thread of its own (the bundle's chunk of it in a test: worker-entry.ts); its runs are in
 * test/e2e/tx-import.test.ts and beside it, but for one here: dates with month names, given as
 * --date-format %d-%b-%Y and detected.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../helpers/cli.js'
import type { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { type Tx, txWorld } from './fixture.js'

const fixture = (name: string) => join(ROOT, 'test', 'fixtures', 'bank-files', name)

describe('tx import, in process: refused before the import starts', () => {
  let sb: InProcessSandbox
  let account = ''
  let file = ''
  const rows = async () => (await sb.json<Tx[]>(['tx', 'list', '--account', account, '--all', '--json'])).length
  const refused = async (args: string[], stderr: string | RegExp, code = 2) => {
    const r = await sb.run(['tx', 'import', ...args])
    expect(r.code, args.join(' ')).toBe(code)
    expect(r.stdout).toBe('')
    if (typeof stderr === 'string') expect(r.stderr).toBe(stderr)
    else expect(r.stderr).toMatch(stderr)
    expect(r.stderr).not.toContain('importing')
    return r
  }

  beforeAll(async () => {
    const world = await txWorld('tx-import', { rows: false })
    sb = world.sb
    account = world.accounts.scratch
    file = sb.path('in.csv')
    writeFileSync(file, 'Date,Description,Amount\n2026-01-02,Paper,-5.00\n2026-01-03,Pens,-2.50\n')
  })
  afterAll(() => sb?.cleanup())

  it('no file, or one that is not there (exit 2)', async () => {
    await refused([], "error: missing required argument 'file'\n(run with --help for usage)\n")
    await refused([sb.path('nope.csv'), '--account', account], `error: no such file: ${sb.path('nope.csv')}\n`)
  })

  it('a bank statement file is refused with the command that reads it (exit 2)', async () => {
    for (const [name, kind] of [
      ['ofx-unreadable-transaction.ofx', 'an OFX'],
      ['mt940-86-continuation-lines.sta', 'an MT940'],
      ['camt053-ustrd-repeated-lines.xml', 'a CAMT.053'],
      ['qif-year-first-short-dates.qif', 'a QIF'],
    ]) {
      const path = fixture(name)
      await refused(
        [path, '--account', account],
        `error: ${path} is ${kind} statement, not a CSV file: tx import reads CSV files; import it with \`finctl statements upload ${path} --account ID\`\n`,
      )
    }
  })

  it('--map, --set and --where take name=value, of the fields they know (exit 2)', async () => {
    await refused(
      [file, '--account', account, '--map', 'when=Date'],
      'error: --map: unknown field "when"; use one of date, posted_date, amount, debit, credit, indicator, description, merchant_name, currency_code, reference, category, account, fee, balance\n',
    )
    await refused([file, '--account', account, '--map', 'Date'], 'error: --map takes name=value (got "Date")\n')
    await refused([file, '--account', account, '--where', 'x'], 'error: --where takes name=value (got "x")\n')
    await refused(
      [file, '--account', account, '--set', 'amount=5'],
      'error: --set: "amount" cannot be set on imported rows; use one of currency_code, category, accounting_category, cash_flow_category, merchant_name, tags, exchange_rate\n',
    )
    await refused(
      [file, '--account', account, '--set', 'exchange_rate=abc'],
      'error: --set exchange_rate: "abc" is not a positive decimal number\n',
    )
    await refused(
      [file, '--account', account, '--set', 'cash_flow_category=nope'],
      'error: --set cash_flow_category must be one of operations, investing, financing, transfer (got "nope")\n',
    )
  })

  it('--batch-size, --concurrency and --skip-lines are whole numbers in their range (exit 2)', async () => {
    await refused(
      [file, '--account', account, '--batch-size', '0'],
      'error: --batch-size must be a whole number from 1 to 5000 (got "0")\n',
    )
    await refused(
      [file, '--account', account, '--batch-size', '5001'],
      'error: --batch-size must be a whole number from 1 to 5000 (got "5001")\n',
    )
    await refused(
      [file, '--account', account, '--concurrency', '65'],
      'error: --concurrency must be a whole number from 1 to 64 (got "65")\n',
    )
    await refused(
      [file, '--account', account, '--skip-lines', 'x'],
      'error: --skip-lines must be a whole number from 0 to 10000 (got "x")\n',
    )
  })

  it('an unknown --encoding or --date-format is a usage error (exit 2) naming what to give, before the file is read', async () => {
    await refused([file, '--account', account, '--encoding', 'bogus'], /^error: unknown encoding "bogus": use a name such as utf-8/m)
    await refused(
      [file, '--account', account, '--date-format', 'QQ'],
      'error: --date-format "QQ": "QQ" is no part of a date (D or DD a day, M or MM a month, MMM or MMMM its name, YY or YYYY a year; a time after the date needs no letters); for example DD/MM/YYYY reads 24/03/2022\n',
    )
    await refused(
      [file, '--account', account, '--date-format', 'DD/MM'],
      'error: --date-format "DD/MM": a date needs a day, a month and a year; for example DD/MM/YYYY reads 24/03/2022\n',
    )
    await refused(
      [file, '--account', account, '--date-format', '%d/%q/%Y'],
      /^error: --date-format "%d\/%q\/%Y": %q is no date code .*; for example %d\/%m\/%Y reads 24\/03\/2022\n$/,
    )
    expect(await rows()).toBe(0)
  })

  it('--save-mapping takes a valid name; --mapping a saved one, never an inherited name (exit 2)', async () => {
    for (const name of ['../ubs', '__proto__', '']) {
      const bad = await sb.run(['tx', 'import', file, '--account', account, '--save-mapping', name, '--dry-run'])
      expect([bad.code, bad.stderr], name).toEqual([
        2,
        `error: --save-mapping: "${name}" is not a valid mapping name (letters, digits, . _ -, at most 64)\n`,
      ])
    }
    await refused([file, '--account', account, '--mapping', 'ubs'], 'error: no saved mapping "ubs"; save one with --save-mapping NAME\n')
    writeFileSync(join(sb.configDir, 'mappings.json'), JSON.stringify({ mappings: { ubs: { map: [['description', 'Description']] } } }), {
      mode: 0o600,
    })
    for (const name of ['toString', '__proto__']) {
      const inherited = await sb.run(['tx', 'import', file, '--account', account, '--mapping', name])
      expect(inherited.code, name).toBe(2)
      expect(inherited.stderr).toContain(`no saved mapping "${name}" (saved: ubs)`)
    }
    expect(Object.keys(JSON.parse(readFileSync(join(sb.configDir, 'mappings.json'), 'utf8')).mappings)).toEqual(['ubs'])
  })

  it('--rejects never overwrites the file being imported, nor writes through a link or into a folder (exit 2)', async () => {
    const dir = sb.path('rejects-paths')
    mkdirSync(dir)
    const input = join(dir, 'in.csv')
    const bytes = readFileSync(file)
    writeFileSync(input, bytes)
    symlinkSync(input, join(dir, 'link.csv'))
    symlinkSync(join(dir, 'elsewhere.csv'), join(dir, 'other-link.csv'))
    const run = (rejects: string) => sb.run(['tx', 'import', input, '--account', account, '--rejects', rejects])
    for (const same of [input, join(dir, '..', 'rejects-paths', 'in.csv'), join(dir, 'link.csv')]) {
      const r = await run(same)
      expect(r.code, same).toBe(2)
      expect(r.stderr).toBe('error: --rejects must not be the file being imported: it would be overwritten\n')
    }
    const link = await run(join(dir, 'other-link.csv'))
    expect([link.code, link.stderr]).toEqual([
      2,
      `error: --rejects: ${join(dir, 'other-link.csv')} is a symbolic link: give the path of a regular file (finctl never writes through a link)\n`,
    ])
    const noFolder = await run(join(dir, 'nope', 'r.csv'))
    expect([noFolder.code, noFolder.stderr]).toEqual([2, `error: --rejects: no such folder: ${join(dir, 'nope')}\n`])
    const folder = await run(dir)
    expect([folder.code, folder.stderr]).toEqual([2, `error: --rejects: ${dir} is a folder: give the path of a file to write\n`])
    expect(readFileSync(input).equals(bytes)).toBe(true)
  })

  it('without a terminal, no --account is a usage error naming it (exit 2); an account not found is exit 5', async () => {
    await refused([file], 'error: the bank account to import into is required: give --account\n')
    await refused(
      [file, '--account', 'Nope'],
      'error: --account: no bank account is named "Nope" (see finctl accounts list; an id needs 6+ hex digits)\n',
      5,
    )
    expect(await rows()).toBe(0)
  })
})

describe('tx import, in process: dates in any layout', () => {
  let sb: InProcessSandbox
  let accounts: { main: string; side: string }

  beforeAll(async () => {
    const world = await txWorld('tx-import-dates', { rows: false })
    sb = world.sb
    accounts = world.accounts
  })
  afterAll(() => sb?.cleanup())

  it('dates with month names (%d-%b-%Y) import with --date-format %d-%b-%Y, and with no flag, detected and named', async () => {
    const named = sb.path('named-months.csv')
    writeFileSync(
      named,
      'Date,Description,Amount\n05-Jan-2024,Coffee,-3.50\n06-Jan-2024,Salary,2500.00\n17-Feb-2024,Rent,-900.00\n31-Dec-2024,Fee,-1.25\nBalance,,1595.25\n',
    )
    const listed = async (account: string) =>
      (await sb.json<Tx[]>(['tx', 'list', '--account', account, '--all', '--json']))
        .map((t) => [t.transaction_date, t.description, t.amount])
        .sort()
    const rows = [
      ['2024-01-05', 'Coffee', -3.5],
      ['2024-01-06', 'Salary', 2500],
      ['2024-02-17', 'Rent', -900],
      ['2024-12-31', 'Fee', -1.25],
    ]
    const given = await sb.run(['tx', 'import', named, '--account', accounts.main, '--date-format', '%d-%b-%Y'])
    expect([given.code, given.stderr]).toEqual([0, expect.stringContaining('line 6 skipped: not a transaction line')])
    expect(await listed(accounts.main)).toEqual(rows)
    // No flag: the plan names the layout as the file writes it; every row is read, the balance line skipped.
    const detected = await sb.run(['tx', 'import', named, '--account', accounts.side])
    expect(detected.code).toBe(0)
    expect(detected.stderr).toContain('dates DD-MMM-YYYY (detected over 4 rows)')
    expect(detected.stderr).toContain('line 6 skipped: not a transaction line')
    expect(await listed(accounts.side)).toEqual(rows)
  })
})

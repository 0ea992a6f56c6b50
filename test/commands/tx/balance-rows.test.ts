/**
 * Rows that carry a balance or a turnover never become transactions. The CLI in process
 * (test/helpers/in-process-cli.ts) imports (tx import) and uploads (statements upload) the
 * hand-made files of test/fixtures/bank-files named after the signal they carry, and the real
 * Swedbank file of the corpus with only --map description=Paaiškinimai; the plan names the skipped
 * lines, the summary counts them, and --where stays the manual override.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bankFile, HAS_BANK_FILES } from '../../helpers/bank-files.js'
import { ROOT, tsv } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

const fixture = (name: string) => join(ROOT, 'test', 'fixtures', 'bank-files', name)

describe('balance and turnover rows are skipped, counted and named', () => {
  const sb = new InProcessSandbox('balance-rows')
  const account = () => sb.newAccount()
  const cents = async (acct: string) => {
    const txs = await sb.json<Array<{ amount: number }>>(['tx', 'list', '--account', acct, '--all', '--json'])
    return { count: txs.length, cents: txs.reduce((s, t) => s + Math.round(t.amount * 100), 0) }
  }

  beforeAll(async () => {
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
  }, 120_000)
  afterAll(() => sb.cleanup())

  const CASES: Array<[string, string[], { created: number; skipped: number; total: string; lines: string[] }]> = [
    [
      'record-type-column-unnamed-turnover-text-unknown.csv',
      [],
      {
        created: 3,
        skipped: 3,
        total: '1174.50',
        lines: ['line 6 skipped: record type 82 in column 2, not a movement (movements are 20)'],
      },
    ],
    [
      'record-type-column-named-no-balance-text.csv',
      ['--date-format', 'DD.MM.YYYY'],
      {
        created: 3,
        skipped: 2,
        total: '125.80',
        lines: ['line 2 skipped: record type BAL in column 1, not a movement (movements are TXN)'],
      },
    ],
    [
      'balance-and-turnover-rows-named-in-german.csv',
      [],
      {
        created: 3,
        skipped: 3,
        total: '1530.00',
        lines: [
          'line 6 skipped: turnover, not a movement (its text: "Umsatzsumme")',
          'line 7 skipped: closing balance, not a movement (its text: "Endsaldo EUR")',
        ],
      },
    ],
    [
      'closing-row-equal-to-running-sum.csv',
      [],
      {
        created: 3,
        skipped: 2,
        total: '1055.90',
        lines: ['line 6 skipped: a balance: equals the balance row before it plus the 3 movements since'],
      },
    ],
    ['movement-equal-to-sum-before-it-kept.csv', [], { created: 6, skipped: 0, total: '1.00', lines: [] }],
  ]
  it.each(CASES)('%s', async (name, flags, want) => {
    const acct = await account()
    const r = await sb.run(['tx', 'import', fixture(name), '--account', acct, ...flags])
    expect(r.code, r.stderr).toBe(0)
    const table = tsv(r.stdout)
    expect(table).toContainEqual(['created', String(want.created)])
    expect(table).toContainEqual(['skipped', String(want.skipped)])
    expect(table).toContainEqual(['amount total', `${want.total} USD`])
    for (const line of want.lines) expect(r.stderr).toContain(line)
    if (want.skipped === 0) expect(r.stderr).not.toMatch(/skipped/)
    expect(await cents(acct)).toEqual({ count: want.created, cents: Math.round(Number(want.total) * 100) })
  })

  it('--where is the manual override: it alone chooses the rows, by column name or number', async () => {
    const file = fixture('record-type-column-named-no-balance-text.csv')
    const byName = await sb.run(['tx', 'import', file, '--account', await account(), '--where', 'Record type=BAL', '--dry-run'])
    expect(byName.code, byName.stderr).toBe(0)
    expect(byName.stderr).toContain('--where chooses the rows: no balance or turnover row is skipped by itself')
    expect(tsv(byName.stdout)).toContainEqual(['amount total', '1125.80 USD'])
    const byNumber = await sb.run([
      'tx',
      'import',
      file,
      '--account',
      await account(),
      '--where',
      '1=TXN',
      '--date-format',
      'DD.MM.YYYY',
      '--json',
    ])
    expect(byNumber.code, byNumber.stderr).toBe(0)
    expect(JSON.parse(byNumber.stdout)).toMatchObject({ created: 3, skipped_lines: 0, amount_total: 125.8 })
    for (const cmd of [
      ['tx', 'import'],
      ['statements', 'upload'],
    ]) {
      const help = (await sb.ok([...cmd, '--help'])).stdout.replace(/\s+/g, ' ')
      expect(help).toMatch(/--where <Column=value> .*column \(its name in the header, or its number from 1\)/)
    }
  })
})

describe('the Swedbank file (a Lithuanian company: its rows carry LTL in their currency column)', () => {
  const lt = new InProcessSandbox('balance-rows-lt')
  const ltlAccount = () => lt.newAccount({ currency: 'LTL' })
  const cents = async (acct: string, sb: InProcessSandbox) => {
    const txs = await sb.json<Array<{ amount: number }>>(['tx', 'list', '--account', acct, '--all', '--json'])
    return { count: txs.length, cents: txs.reduce((s, t) => s + Math.round(t.amount * 100), 0) }
  }
  beforeAll(async () => {
    await lt.ok(['init', '--no-input', '--currency', 'LTL'])
  }, 120_000)
  afterAll(() => lt.cleanup())

  it.skipIf(!HAS_BANK_FILES)('the dry run plans 5 rows and skips 4, the import creates 5 for 1,058.46', async () => {
    const file = bankFile('csv', 'lt-swedbank-dk-indicator-unescaped-quotes.csv')
    const acct = await ltlAccount()
    const dry = await lt.run(['tx', 'import', file, '--account', acct, '--map', 'description=Paaiškinimai', '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stderr).toContain('header on line 1; 5 transaction rows; 4 skipped, not transactions')
    for (const line of [
      'line 2 skipped: opening balance, not a movement (its text: "Likutis pradžiai")',
      'line 8 skipped: turnover, not a movement (its text: "Apyvarta")',
      'line 9 skipped: turnover',
      'line 10 skipped: closing balance, not a movement (its text: "Likutis pabaigai")',
    ]) {
      expect(dry.stderr).toContain(line)
    }
    expect(dry.stderr).toContain(
      'record type in column 2: 20 is a movement; 10, 82, 86 are not (balances, turnovers): such rows are skipped',
    )
    const table = tsv(dry.stdout)
    expect(table).toContainEqual(['skipped', '4'])
    expect(table).toContainEqual(['would be sent', '5'])
    expect(table).toContainEqual(['amount total', '1058.46 LTL'])
    const run = await lt.run(['tx', 'import', file, '--account', acct, '--map', 'description=Paaiškinimai', '--json'])
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ read: 5, created: 5, skipped_lines: 4, amount_total: 1058.46 })
    expect(await cents(acct, lt)).toEqual({ count: 5, cents: 105_846 })
  })

  it.skipIf(!HAS_BANK_FILES)('uploaded as a statement: 5 lines created, the 4 others in its warnings', async () => {
    const acct = await ltlAccount()
    const s = await lt.json<{ line_count: number; transaction_count: number; warnings: string[] }>([
      'statements',
      'upload',
      bankFile('csv', 'lt-swedbank-dk-indicator-unescaped-quotes.csv'),
      '--account',
      acct,
      '--map',
      'description=Paaiškinimai',
      '--json',
    ])
    expect([s.line_count, s.transaction_count]).toEqual([5, 5])
    expect(s.warnings).toEqual([
      'line 2: opening balance, not a movement (its text: "Likutis pradžiai")',
      'line 8: turnover, not a movement (its text: "Apyvarta")',
      'line 9: turnover, not a movement (its text: "Apyvarta")',
      'line 10: closing balance, not a movement (its text: "Likutis pabaigai")',
    ])
    expect(await cents(acct, lt)).toEqual({ count: 5, cents: 105_846 })
  })
})

/**
 * The same rows by two roads are one set of rows, the CLI in process
 * (test/helpers/in-process-cli.ts). A bank file uploaded as a statement and imported with tx import
 * into the same account, in either order, leaves one transaction per row, reconciled and linked to
 * the statement; the import's summary says how many rows it found already on a statement. Two equal
 * rows of a file stay two unless the statement holds both.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bankFile, HAS_BANK_FILES } from '../../helpers/bank-files.js'
import { ROOT, tsv } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

const fixture = (name: string) => join(ROOT, 'test', 'fixtures', 'bank-files', name)

interface Tx {
  transaction_date: string
  amount: number
  description: string
  status: string
  is_reconciled: boolean
  bank_statement_id: string | null
}

describe('a statement upload and a tx import of the same rows', () => {
  const sb = new InProcessSandbox('two-roads')
  const account = () => sb.newAccount()
  /** Each transaction as "date amount status reconciled linked" (`dated: false` leaves the date out), sorted. */
  const rows = async (acct: string, dated = true) =>
    (await sb.json<Tx[]>(['tx', 'list', '--account', acct, '--all', '--json']))
      .map((t) => [...(dated ? [t.transaction_date] : []), t.amount, t.status, t.is_reconciled, t.bank_statement_id !== null].join(' '))
      .sort()

  beforeAll(async () => {
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
  }, 120_000)
  afterAll(() => sb.cleanup())

  it.skipIf(!HAS_BANK_FILES)(
    'the Chase-style file: upload then import creates nothing and says 6 were on the statement; import then upload reconciles 6; both end the same',
    async () => {
      const file = bankFile('csv', 'us-chase-style-checking-signed-balance.csv')
      const first = await account()
      const up = await sb.json<{ transaction_count: number; matched_count: number }>([
        'statements',
        'upload',
        file,
        '--account',
        first,
        '--json',
      ])
      expect([up.transaction_count, up.matched_count]).toEqual([6, 0])
      const imp = await sb.run(['tx', 'import', file, '--account', first])
      expect(imp.code, imp.stderr).toBe(0)
      const table = tsv(imp.stdout)
      expect(table).toContainEqual(['created', '0'])
      expect(table).toContainEqual(['already imported', '0'])
      expect(table).toContainEqual(['already on a statement', '6'])
      expect(table).toContainEqual(['created total', '0.00 USD'])
      expect(imp.stderr).toContain(
        '6 rows were already on a statement of the account: matched with its transactions (same amount, date within 3 days) and reconciled, not created again',
      )
      // Once paired, the rows are the import's own: a second run finds them imported.
      const again = await sb.json<{ created: number; already_imported: number; on_statement: number }>([
        'tx',
        'import',
        file,
        '--account',
        first,
        '--json',
      ])
      expect([again.created, again.already_imported, again.on_statement]).toEqual([0, 6, 0])

      const second = await account()
      const imported = await sb.json<{ created: number; on_statement: number }>(['tx', 'import', file, '--account', second, '--json'])
      expect([imported.created, imported.on_statement]).toEqual([6, 0])
      const up2 = await sb.json<{ transaction_count: number; matched_count: number }>([
        'statements',
        'upload',
        file,
        '--account',
        second,
        '--json',
      ])
      expect([up2.transaction_count, up2.matched_count]).toEqual([6, 6])

      const one = await rows(first)
      expect(one).toHaveLength(6)
      expect(one.every((r) => r.endsWith(' posted true true'))).toBe(true)
      expect(await rows(second)).toEqual(one)
    },
  )

  it('two equal rows in the file, one on the statement: the other is created, in either order', async () => {
    const statement = fixture('same-amount-and-date-once-on-statement.csv')
    const file = fixture('same-amount-and-date-twice.csv')
    const first = await account()
    await sb.ok(['statements', 'upload', statement, '--account', first, '--date-format', 'DD.MM.YYYY'])
    const imp = await sb.json<{ created: number; on_statement: number; created_total: number; amount_total: number }>([
      'tx',
      'import',
      file,
      '--account',
      first,
      '--json',
    ])
    expect(imp).toMatchObject({ created: 1, on_statement: 3, created_total: -4.5, amount_total: 1452.8 })

    const second = await account()
    await sb.ok(['tx', 'import', file, '--account', second])
    const up = await sb.json<{ transaction_count: number; matched_count: number }>([
      'statements',
      'upload',
      statement,
      '--account',
      second,
      '--date-format',
      'DD.MM.YYYY',
      '--json',
    ])
    expect([up.transaction_count, up.matched_count]).toEqual([3, 3])

    // The record that came first keeps its date: the statement's lunch is dated the 5th, the file's the 4th.
    expect(await rows(first)).toEqual([
      '2026-02-03 -4.5 pending false false',
      '2026-02-03 -4.5 posted true true',
      '2026-02-05 -38.2 posted true true',
      '2026-02-06 1500 posted true true',
    ])
    expect(await rows(second)).toEqual([
      '2026-02-03 -4.5 pending false false',
      '2026-02-03 -4.5 posted true true',
      '2026-02-04 -38.2 posted true true',
      '2026-02-06 1500 posted true true',
    ])
    expect(await rows(second, false)).toEqual(await rows(first, false))
  })
})

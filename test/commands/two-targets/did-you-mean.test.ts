/**
 * A name a user types and finctl does not know gets the nearest names it does: aliases, commands
 * (by prefix and by distance, a swap of two letters counting as one), profiles, accounts,
 * categories, `--map` column names, budget versions and the values of an enumeration; embedded
 * and through `finctl serve`.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TARGET_KINDS, type Target, openTarget } from '../../helpers/two-targets.js'

const today = new Date().toISOString().slice(0, 10)

describe.each(TARGET_KINDS)('did you mean (%s)', (kind) => {
  let t: Target
  beforeAll(async () => {
    t = await openTarget(kind, 'nearby')
    await t.ok(['accounts', 'create', '--name', 'Operating account', '--type', 'checking'])
    await t.ok(['tx', 'create', '--account', 'Operating account', '--date', today, '--amount', '-9.00', '--description', 'Apples'])
    await t.ok(['tx', 'create', '--account', 'Operating account', '--date', today, '--amount', '-4.00', '--description', 'Pears'])
    await t.ok(['tx', 'bulk-update', '--account', 'Operating account', '--set', 'category=Groceries', '--yes'])
    await t.ok(['alias', 'set', 'month', 'reports summary --from $1 --to $1'])
    await t.ok(['budgets', 'set', '--category', 'Groceries', '--monthly', '100.00', '--version', 'reforecast'])
  })
  afterAll(() => t?.close())

  const cases: Array<[string, () => string[], number, string]> = [
    ['an alias, two letters swapped', () => ['alias', 'delete', 'monht'], 5, 'no alias named "monht" (did you mean "month"?)'],
    ['a command, by prefix', () => ['rep'], 2, "unknown command 'rep'\n(Did you mean reports?)"],
    ['a command or an alias, by prefix', () => ['mont'], 2, "unknown command 'mont'\n(Did you mean month?)"],
    ['a command, two letters swapped', () => ['tx', 'lsit'], 2, "unknown command 'lsit'\n(Did you mean list?)"],
    ['a command with --help', () => ['tx', 'lst', '--help'], 2, "unknown command 'lst'\n(Did you mean list?)"],
    ['a profile', () => ['--profile', 'locl', 'whoami'], 2, 'did you mean "local"?'],
    ['an account', () => ['tx', 'list', '--account', 'Operting account'], 5, 'did you mean "Operating account"?'],
    [
      'a category',
      () => ['tx', 'list', '--category', 'Grocries'],
      0,
      'no transaction has the category "Grocries" (did you mean "Groceries"?)',
    ],
    ['an enumeration', () => ['tx', 'list', '--status', 'postd'], 2, '--status postd: did you mean posted?'],
    ['an enumeration of a verb', () => ['accounts', 'list', '--type', 'chequing'], 2, '--type chequing: did you mean checking?'],
    [
      'a budget version of the report',
      () => ['reports', 'budget', '--version', 'reforcast'],
      5,
      'budget version "reforcast" not found (did you mean "reforecast"?)',
    ],
    [
      'a budget version of the forecast',
      () => ['forecast', '--days', '5', '--version', 'reforcast'],
      5,
      'budget version "reforcast" not found (did you mean "reforecast"?)',
    ],
    ['a version made current', () => ['budgets', 'current', 'reforcast'], 5, '(did you mean "reforecast"?)'],
    [
      'a budget to delete',
      () => ['budgets', 'delete', '--category', 'Grocries', '--version', 'reforecast'],
      5,
      'a budget of "Grocries" in version "reforecast" not found (did you mean "Groceries"?)',
    ],
    [
      'a category budgeted',
      () => ['budgets', 'set', '--category', 'Grocerie', '--monthly', '1.00', '--version', 'typo'],
      0,
      '--category: "Grocerie" is a new category (did you mean "Groceries"?)',
    ],
  ]
  for (const [what, args, code, text] of cases)
    it(`${what}: ${text.split('\n').pop()}`, async () => {
      const r = await t.run(args())
      expect(r.code, r.stderr).toBe(code)
      expect(r.stderr).toContain(text)
    })

  it('a --map column name', async () => {
    const csv = t.sb.path('kbc.csv')
    writeFileSync(csv, `Datum,Mededeling,Bedrag\n${today},Koffie,-3.50\n`)
    const r = await t.run(['tx', 'import', csv, '--account', 'Operating account', '--map', 'description=Mededelingen', '--dry-run'])
    // A file that cannot be imported as it is: exit 6 (docs/cli.md), the nearest column named.
    expect(r.code).toBe(6)
    expect(r.stderr).toContain('no column "Mededelingen" in the header (did you mean "Mededeling"?)')
  })
})

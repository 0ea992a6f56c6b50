/**
 * Messages in plain words: counts agree with their nouns, a rule's name is quoted
 * once, grouped amounts are taken as tables print them, an import names its account.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../helpers/in-process-cli.js'
import { accountNames } from '../../src/cli/short-ids.js'

describe('the words of messages', () => {
  const sb = new InProcessSandbox('words')
  beforeAll(async () => {
    await sb.ok(['init', '--no-input'])
    await sb.ok(['accounts', 'create', '--name', 'Ops', '--type', 'checking', '--currency', 'USD'])
  })
  afterAll(() => sb.cleanup())

  const today = new Date().toISOString().slice(0, 10)

  it('--amount takes grouping commas as tables print them, exactly; a lone 1,234 is still refused', async () => {
    const t = await sb.json<{ amount: number }>([
      'tx',
      'create',
      '--account',
      'Ops',
      '--date',
      today,
      '--description',
      'Coffee beans',
      '--amount',
      '-1,234.56',
      '--json',
    ])
    expect(t.amount).toBe(-1234.56)
    const big = await sb.json<{ amount: number }>([
      'tx',
      'create',
      '--account',
      'Ops',
      '--date',
      today,
      '--description',
      'Big',
      '--amount',
      '1,234,567',
      '--json',
    ])
    expect(big.amount).toBe(1234567)
    // Ambiguous or decimal commas are refused before anything is sent, in words naming the flag.
    const lone = await sb.run(['tx', 'create', '--account', 'Ops', '--date', today, '--description', 'x', '--amount', '1,234'])
    expect([lone.code, lone.stderr]).toEqual([
      2,
      'error: --amount 1,234: is ambiguous: 1234 with a grouping comma, or 1.234 with a decimal comma; write 1234, 1.234 or 1,234.00\n',
    ])
    for (const typed of ['12,34', '1.234,56', '1,2345.00']) {
      const r = await sb.run(['tx', 'create', '--account', 'Ops', '--date', today, '--description', 'x', '--amount', typed])
      expect([r.code, r.stderr]).toEqual([
        2,
        `error: --amount ${typed}: commas only group thousands in threes before a "." decimal (1,234.56); write the decimals after a "." (12.34)\n`,
      ])
    }
    const filter = await sb.run(['tx', 'list', '--min-amount', '1,000'])
    expect(filter.code).toBe(2)
    expect(filter.stderr).toContain('--min-amount 1,000: is ambiguous')
  })

  it('a rule named after its conditions is quoted once; one match is "1 matches"', async () => {
    const rule = await sb.json<{ id: string; name: string }>([
      'rules',
      'create',
      '--description-contains',
      'coffee',
      '--set',
      'category=Coffee',
      '--json',
    ])
    expect(rule.name).toBe('description contains "coffee"')
    const r = await sb.ok(['rules', 'test', rule.id])
    expect(r.stderr).toContain(`rule 'description contains "coffee"' since`)
    expect(r.stderr).toMatch(/: 2 transactions scanned, 1 matches, 1 would change/)
  })

  it('rates import: "1 rate", "1 currency"', async () => {
    const file = sb.path('rates.csv')
    writeFileSync(file, 'date,currency,rate\n2026-01-02,EUR,1.1\n')
    const r = await sb.ok(['rates', 'import', file])
    expect(r.stderr).toContain('imported 1 rate, replaced 0, for 1 currency')
  })

  it('one row is "the first row as it would be created", one line "1 line"', async () => {
    const file = sb.path('one.csv')
    writeFileSync(file, `Date,Description,Amount\n${today},Paper,-5.00\n`)
    const dry = await sb.ok(['tx', 'import', file, '--account', 'ops', '--dry-run'])
    expect(dry.stderr).toContain('dry run: the first row as it would be created (nothing is written)')
    const preview = await sb.ok(['statements', 'upload', file, '--account', 'ops', '--preview'])
    expect(preview.stderr).toMatch(/^1 line, sum -5\.00 USD/m)
  })

  it('tx import names the account it imports into, not its UUID', async () => {
    const file = sb.path('in.csv')
    writeFileSync(file, `Date,Description,Amount\n${today},Paper,-5.00\n`)
    const r = await sb.ok(['tx', 'import', file, '--account', 'ops'])
    expect(r.stderr).toMatch(/importing .*in\.csv into "Ops" \([0-9a-f]{8}\) on /)
    // Given by its full UUID, on a terminal: the name too, the UUID not spelled out.
    const [ops] = await sb.json<Array<{ id: string }>>(['accounts', 'list', '--json'])
    const again = sb.path('again.csv')
    writeFileSync(again, `Date,Description,Amount\n${today},Pens,-2.00\n`)
    accountNames.clear() // what the run by name above remembered: a process of its own would not have it
    const byId = await sb.ok(['tx', 'import', again, '--account', ops.id, '--no-progress'], { tty: { stderr: true } })
    expect(byId.stderr).toContain(`into "Ops" (${ops.id.slice(-8)}) on `)
    expect(byId.stderr).not.toContain(ops.id)
  })

  it('a one-step seed says "1 step"; a one-line statement "1 transaction created"', async () => {
    const seed = sb.path('one-step.json')
    writeFileSync(
      seed,
      JSON.stringify({ version: 1, steps: [{ account: 'petty', name: 'Petty', account_type: 'cash', currency_code: 'USD' }] }),
    )
    const r = await sb.run(['seed', seed, '--dry-run'])
    expect(r.stderr).toContain('seeding 1 step from')
    const qif = sb.path('one.qif')
    writeFileSync(qif, '!Type:Bank\nD11/20/2026\nT-4.50\nPCoffee\n^\n')
    const up = await sb.run(['statements', 'upload', qif, '--account', 'Ops'])
    expect(up.stderr).toContain('1 transaction created')
  })
})

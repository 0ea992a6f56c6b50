import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { materialize } from '../../src/jobs/seed/schema.js'
import { parseSeedText, SeedInvalid, validateSeed } from '../../src/jobs/seed/validate.js'

let dir = ''
const ctx = { env: { CUR: 'USD' }, now: new Date('2026-03-31T12:00:00Z'), path: '' }

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'finctl-seed-schema-'))
  writeFileSync(join(dir, 'rows.csv'), 'Date,Description,Amount\n2026-01-02,Paper,-5.00\n')
  ctx.path = join(dir, 'seed.json')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const account = { account: 'operating', name: 'Operating', account_type: 'checking', currency_code: '${env.CUR}' }

function problems(input: unknown, c = ctx): Array<{ path: string; message: string }> {
  try {
    validateSeed(input, c)
  } catch (e) {
    if (e instanceof SeedInvalid) return e.problems
    throw e
  }
  throw new Error('expected the seed to be invalid')
}

describe('validateSeed', () => {
  it('accepts a file of every kind, resolving env and generators, keeping references', () => {
    const seed = validateSeed(
      {
        version: 1,
        steps: [
          account,
          {
            transactions: 'opening',
            bank_account_id: '${accounts.operating.id}',
            items: [{ transaction_date: '${today}', description: 'Start', amount: '10.00' }],
          },
          {
            transactions: 'card',
            bank_account_id: '${accounts.operating.id}',
            generate: { count: '3', seed: 1, from: '${date:-1m}', to: '${today}', amount: { min: -5, max: -1 }, merchants: ['A'] },
          },
          { import: 'csv', bank_account_id: '${accounts.operating.id}', file: 'rows.csv', map: { description: ['Description'] } },
          { statement: 'march', bank_account_id: '${accounts.operating.id}', file: 'rows.csv', format: 'csv' },
          { api_key: 'ci', scopes: ['read'], expires_in: '90d' },
        ],
      },
      ctx,
    )
    expect(seed.steps.map((s) => [s.kind, s.name, s.ns])).toEqual([
      ['account', 'operating', 'accounts'],
      ['transactions', 'opening', 'transactions'],
      ['transactions', 'card', 'transactions'],
      ['import', 'csv', 'imports'],
      ['statement', 'march', 'statements'],
      ['api_key', 'ci', 'keys'],
    ])
    expect(seed.steps[0].raw.currency_code).toBe('USD')
    expect(seed.steps[1].refs).toEqual([{ ns: 'accounts', step: 'operating', field: 'id' }])
    expect(seed.steps[1].currency).toBe('USD')
    expect(seed.steps[3].file).toBe(join(dir, 'rows.csv'))
    const card = materialize(seed.steps[2] as never, { accounts: { operating: { id: '2b0c6a3e-5d0c-4f4e-9a51-5c1c7a1c2d11' } } }) as {
      bank_account_id: string
      generate: { count: number; from: string }
    }
    expect(card.bank_account_id).toBe('2b0c6a3e-5d0c-4f4e-9a51-5c1c7a1c2d11')
    expect(card.generate).toMatchObject({ count: 3, from: '2026-02-28' })
  })

  it('names the step and the field of every problem', () => {
    const p = problems({
      steps: [
        { ...account, account_type: 'chequing' },
        {
          transactions: 'card',
          bank_account_id: '${accounts.operating.id}',
          generate: { count: 0, seed: 1, from: '2026-02-01', to: '2026-01-01', amount: { min: -1, max: 1 }, merchants: [] },
        },
        { api_key: 'ci', scopes: ['admin'], colour: 'red' },
        { ...account, account: 'usd', currency_code: 'USD' },
        {
          transactions: 'cents',
          bank_account_id: '${accounts.usd.id}',
          generate: { count: 1, seed: 1, from: '2026-01-01', to: '2026-01-01', amount: { min: '-1.234', max: 1 }, merchants: ['A'] },
        },
        {
          transactions: 'items',
          bank_account_id: '${accounts.usd.id}',
          items: [{ transaction_date: '2026-01-01', description: 'x', amount: '0.001' }],
        },
      ],
    })
    const lines = p.map((x) => `${x.path}: ${x.message}`)
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^steps\[0\] \(account "operating"\) account_type: /),
        expect.stringMatching(/^steps\[1\] \(transactions "card"\) generate\.count: must be at least 1/),
        expect.stringMatching(/^steps\[1\] \(transactions "card"\) generate\.from: is after to/),
        expect.stringMatching(/^steps\[1\] \(transactions "card"\) generate\.merchants: give at least one merchant/),
        expect.stringMatching(/^steps\[2\] \(api_key "ci"\) scopes\[0\]: /),
        expect.stringMatching(/^steps\[2\] \(api_key "ci"\): .*colour/),
        'steps[4] (transactions "cents") generate.amount.min: at most 2 decimal places for this currency',
        'steps[5] (transactions "items") items[0].amount: at most 2 decimal places for this currency',
      ]),
    )
  })

  it("an import or statement step's date_format takes any layout; one that reads no date is named with an example", () => {
    const steps = (date_format: string) => [
      account,
      { import: 'csv', bank_account_id: '${accounts.operating.id}', file: 'rows.csv', date_format },
      { statement: 'march', bank_account_id: '${accounts.operating.id}', file: 'rows.csv', format: 'csv', date_format },
    ]
    expect(validateSeed({ version: 1, steps: steps('%d-%b-%Y') }, ctx).steps).toHaveLength(3)
    expect(validateSeed({ version: 1, steps: steps('DD/YYYY/MM') }, ctx).steps).toHaveLength(3)
    const reason = '"DD/MM": a date needs a day, a month and a year; for example DD/MM/YYYY reads 24/03/2022'
    expect(problems({ version: 1, steps: steps('DD/MM') }).map((x) => `${x.path}: ${x.message}`)).toEqual([
      `steps[1] (import "csv") date_format: ${reason}`,
      `steps[2] (statement "march") date_format: ${reason}`,
    ])
  })

  it('a reference to an unknown or later step, or an unset variable, fails validation', () => {
    const p = problems({
      steps: [
        {
          transactions: 'early',
          bank_account_id: '${accounts.operating.id}',
          items: [{ transaction_date: '2026-01-01', description: 'x', amount: 1 }],
        },
        { ...account, currency_code: '${env.COMPANY_CURRENCY}' },
        { import: 'csv', bank_account_id: '${accounts.savings.id}', file: 'missing.csv' },
      ],
    })
    expect(p).toEqual([
      {
        path: 'steps[0] (transactions "early") bank_account_id',
        message: expect.stringContaining('no accounts step "operating" before this one'),
      },
      {
        path: 'steps[1] (account "operating") currency_code',
        message: expect.stringContaining('environment variable COMPANY_CURRENCY is not set'),
      },
      {
        path: 'steps[2] (import "csv") bank_account_id',
        message: expect.stringContaining('no accounts step "savings" before this one (earlier accounts steps: operating)'),
      },
      { path: 'steps[2] (import "csv") file', message: expect.stringContaining('no such file') },
    ])
  })

  it('refuses duplicate names, steps of no or two kinds, a literal account name, and (for now) rules', () => {
    const p = problems({
      steps: [
        account,
        { ...account, name: 'Other' },
        { account: 'x', transactions: 'y' },
        { name: 'nothing' },
        { rules: 'groceries' },
        { transactions: 't', bank_account_id: 'operating', items: [{ transaction_date: '2026-01-01', description: 'x', amount: 1 }] },
        { transactions: 'u', bank_account_id: '${accounts.operating.id}' },
      ],
    })
    expect(p.map((x) => `${x.path}: ${x.message}`)).toEqual([
      'steps[1] (account "operating") account: another step is named "operating": step names are unique in a file',
      'steps[2]: holds account and transactions: a step is of one kind',
      expect.stringMatching(/^steps\[3\]: name the step's kind and name with one of account: NAME, transactions: NAME/),
      expect.stringMatching(/^steps\[4\]: a seed file cannot hold rules yet: create them with `finctl rules create`/),
      expect.stringMatching(/^steps\[5\] \(transactions "t"\) bank_account_id: must be a UUID, or a reference/),
      'steps[6] (transactions "u") items: give either items or generate (one of them)',
    ])
  })

  it('checks the top level', () => {
    expect(problems({ steps: [] })).toEqual([{ path: 'steps', message: 'give at least one step' }])
    expect(problems([account])[0].path).toBe('(file)')
    expect(problems({ version: 2, steps: [account] })).toEqual([{ path: 'version', message: 'must be 1' }])
  })
})

describe('parseSeedText', () => {
  it('reads JSON, and YAML for .yaml files, with the line of a syntax error', async () => {
    expect(await parseSeedText('{"steps": []}', 'a.json')).toEqual({ steps: [] })
    expect(await parseSeedText('steps:\n  - account: operating\n    currency_code: ${env.CUR}\n', 'a.yaml')).toEqual({
      steps: [{ account: 'operating', currency_code: '${env.CUR}' }],
    })
    await expect(parseSeedText('{"steps": [}', 'a.json')).rejects.toThrow(SeedInvalid)
    const err = await parseSeedText('steps:\n  - a: [1\n', 'a.yml').catch((e: unknown) => e as SeedInvalid)
    expect(err).toBeInstanceOf(SeedInvalid)
    expect((err as SeedInvalid).problems[0].path).toMatch(/^line \d+$/)
  })
})

/**
 * The seed's run loop (src/jobs/seed/run.ts) against a real embedded core: steps in file order,
 * each through the handler of its kind; a failed step blocks the steps that refer to it and no
 * others; an unreachable target stops the run (the error comes back as `fatal`); a dry run reads
 * and never writes.
 */
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, type FetchLike } from '../../src/client/client.js'
import { runSeed, type StepOutcome } from '../../src/jobs/seed/run.js'
import { KINDS } from '../../src/jobs/seed/schema.js'
import { HANDLERS } from '../../src/jobs/seed/steps/index.js'
import { validateSeed } from '../../src/jobs/seed/validate.js'
import { createHarness, type Harness, type Tenant } from '../helpers/harness.js'

const now = new Date('2026-03-31T12:00:00Z')
const seedOf = (steps: unknown[]) => validateSeed({ version: 1, steps }, { env: {}, now, path: join(tmpdir(), 'seed.json') })
const statuses = (steps: StepOutcome[]) => steps.map((s) => [s.step, s.status])

describe('seed run loop', () => {
  let h: Harness
  let t: Tenant
  /** Requests the client made, and a switch that makes the target unreachable. */
  let calls: Array<{ method: string; url: string }>
  let down: boolean
  let client: Client

  beforeAll(async () => {
    h = await createHarness('embedded', 'sqlite')
    t = await h.tenant('Seeder')
    const fetch: FetchLike = async (url, init) => {
      if (down) throw new Error('connect ECONNREFUSED')
      calls.push({ method: init.method ?? 'GET', url })
      return h.fetch(url, init)
    }
    client = new Client({ baseUrl: h.baseUrl, fetch, apiKey: t.key, maxRetries: 0 })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('has one handler for every kind of step', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(Object.keys(KINDS).sort())
  })

  it('a failed step blocks the steps that refer to it and no others', async () => {
    calls = []
    down = false
    const admin = h.client({ apiKey: t.key })
    // An account of the name in another currency: the seed cannot change a currency, so the step fails.
    await admin.accounts.create({ name: 'Twin', account_type: 'checking', currency_code: 'USD' })
    const seed = seedOf([
      { account: 'twin', name: 'Twin', account_type: 'checking', currency_code: 'GBP' },
      {
        transactions: 'rent',
        bank_account_id: '${accounts.twin.id}',
        items: [{ transaction_date: '2026-03-01', amount: '-1200.00', description: 'Rent' }],
      },
      { account: 'solo', name: 'Solo', account_type: 'savings', currency_code: 'USD' },
      {
        transactions: 'interest',
        bank_account_id: '${accounts.solo.id}',
        items: [{ transaction_date: '2026-03-31', amount: '0.07', description: 'Interest' }],
      },
    ])
    const seen: string[] = []
    const { report, fatal } = await runSeed(client, seed, { now, onStep: (o) => seen.push(o.step) })
    expect(fatal).toBeUndefined()
    expect(statuses(report.steps)).toEqual([
      ['twin', 'failed'],
      ['rent', 'failed'],
      ['solo', 'created'],
      ['interest', 'created'],
    ])
    expect(report.steps[0].detail).toMatch(/^bank account "Twin" differs where the service cannot change it: .*GBP/)
    expect(report.steps[1].detail).toBe('not run: it needs accounts.twin, which failed')
    expect(report.failed).toBe(2)
    expect(seen).toEqual(['twin', 'rent', 'solo', 'interest'])
    // The blocked step wrote nothing; the others did, and their ids are in the env values.
    expect(calls.filter((c) => c.method === 'POST' && c.url.endsWith('/transactions/batch'))).toHaveLength(1)
    const solo = report.env.ACCOUNTS_SOLO_ID
    expect(await admin.accounts.get(solo)).toMatchObject({ name: 'Solo', account_type: 'savings' })
    const rows = await admin.transactions.list({ bank_account_id: solo })
    expect(rows.data.map((r) => [r.description, r.amount])).toEqual([['Interest', 0.07]])
    expect(report.env.TRANSACTIONS_INTEREST_IDS).toBe(rows.data[0].id)
  })

  it("an account's opening balance, its date and its number are updated; a row before the date fails its step", async () => {
    calls = []
    down = false
    const admin = h.client({ apiKey: t.key })
    await admin.accounts.create({ name: 'Opened', account_type: 'savings', currency_code: 'USD', opening_balance: '100' })
    const seed = seedOf([
      {
        account: 'opened',
        name: 'Opened',
        account_type: 'savings',
        currency_code: 'USD',
        opening_balance: '2500.00',
        opening_balance_date: '2026-02-01',
        account_number: 'GB33 BUKB 2020 1555 5555 55',
      },
      {
        transactions: 'early',
        bank_account_id: '${accounts.opened.id}',
        items: [{ transaction_date: '2026-01-15', amount: '-10.00', description: 'Before the opening' }],
      },
    ])
    const { report } = await runSeed(client, seed, { now })
    expect(statuses(report.steps)).toEqual([
      ['opened', 'updated'],
      ['early', 'failed'],
    ])
    expect(report.steps[0].detail).toContain(
      'opening_balance → "2500.00", opening_balance_date → "2026-02-01", account number → ending 5555',
    )
    expect(report.steps[0].detail).not.toContain('GB33')
    expect(report.steps[1].errors?.[0]).toMatch(/^row 1: .*2026-01-15 is before the opening date 2026-02-01/)
    expect(await admin.accounts.get(report.env.ACCOUNTS_OPENED_ID)).toMatchObject({
      opening_balance: 2500,
      opening_balance_date: '2026-02-01',
      account_number_last4: '5555',
    })
  })

  it('an unreachable target stops the run: the later steps are not run and the error comes back as fatal', async () => {
    calls = []
    down = false
    const seed = seedOf([
      { account: 'first', name: 'First', account_type: 'checking', currency_code: 'USD' },
      { account: 'second', name: 'Second', account_type: 'checking', currency_code: 'USD' },
      { account: 'third', name: 'Third', account_type: 'checking', currency_code: 'USD' },
    ])
    const { report, fatal } = await runSeed(client, seed, { now, onStep: () => (down = true) })
    expect(fatal?.code).toBe('unreachable')
    expect(statuses(report.steps)).toEqual([
      ['first', 'created'],
      ['second', 'failed'],
      ['third', 'failed'],
    ])
    expect(report.steps[1].detail).toMatch(/^cannot reach http:\/\/finctl\.embedded: /)
    expect(report.steps[2].detail).toBe(`not run: ${fatal!.message}`)
    expect(report.failed).toBe(2)
  })

  it('a dry run plans from reads only: new accounts and the steps on them would be created, nothing is written', async () => {
    calls = []
    down = false
    const seed = seedOf([
      { account: 'planned', name: 'Planned', account_type: 'checking', currency_code: 'USD' },
      {
        transactions: 'coffee',
        bank_account_id: '${accounts.planned.id}',
        items: [{ transaction_date: '2026-03-02', amount: '-3.50', description: 'Coffee' }],
      },
      { account: 'operating', name: 'Operating', account_type: 'checking', currency_code: 'USD' },
    ])
    const { report, fatal } = await runSeed(client, seed, { now, dryRun: true })
    expect(fatal).toBeUndefined()
    expect(report.dry_run).toBe(true)
    expect(statuses(report.steps)).toEqual([
      ['planned', 'would create'],
      ['coffee', 'would create'],
      ['operating', 'exists'],
    ])
    expect(report.steps[1].counts).toEqual({ created: 1, updated: 0, exists: 0, failed: 0 })
    expect(calls.length).toBeGreaterThan(0)
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([])
    // Objects a dry run would create have no id for --env-out; the account that exists has.
    expect(report.env).toEqual({ ACCOUNTS_OPERATING_ID: t.accountId })
  })
})

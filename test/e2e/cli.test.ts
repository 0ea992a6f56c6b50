/**
 * End-to-end: the built CLI (`node bin/finctl.cjs`) on the embedded core, spawned without a
 * terminal, each group in its own FINCTL_CONFIG_DIR: accounts and transactions. The first run,
 * `init --demo` and the password set-up run in process (test/commands/init.test.ts), login too
 * (test/commands/auth/); output formats and colour are in output.test.ts, keys in
 * test/commands/keys/, exit codes in exit-codes.test.ts, the remote target in remote.test.ts.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, expectNoSecretsAtRest, tsv } from '../helpers/cli.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('accounts and transactions', () => {
  let sb: Sandbox
  let accountId: string
  beforeAll(async () => {
    sb = new Sandbox('tx')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-tx\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
  })
  afterAll(() => sb?.cleanup())

  it('accounts create with flags, then list and get', async () => {
    const a = await sb.json([
      'accounts',
      'create',
      '--name',
      'Operating',
      '--type',
      'checking',
      '--currency',
      'USD',
      '--opening-balance',
      '1000.00',
      '--json',
    ])
    expect(a).toMatchObject({
      name: 'Operating',
      account_type: 'checking',
      currency_code: 'USD',
      status: 'active',
      opening_balance: 1000,
      current_balance: 1000,
    })
    expect(a.id).toMatch(UUID)
    accountId = a.id

    const list = await sb.json<Array<{ id: string }>>(['accounts', 'list', '--json'])
    expect(list.map((x) => x.id)).toEqual([accountId])
    const got = await sb.json(['accounts', 'get', accountId, '--json'])
    expect(got).toEqual(a)
  })

  it('tx create with flags returns the transaction (--json)', async () => {
    const t = await sb.json([
      'tx',
      'create',
      '--account',
      accountId,
      '--date',
      '2026-11-20',
      '--description',
      'X',
      '--amount',
      '-149.99',
      '--json',
    ])
    expect(t).toMatchObject({
      bank_account_id: accountId,
      transaction_date: '2026-11-20',
      posted_date: '2026-11-20',
      description: 'X',
      amount: -149.99,
      currency_code: 'USD',
      status: 'pending',
      is_reconciled: false,
      tags: [],
    })
    expect(t.id).toMatch(UUID)
  })

  it('tx create without --json prints a FIELD/VALUE table with the amount in fixed decimals', async () => {
    const r = await sb.ok([
      'tx',
      'create',
      '--account',
      accountId,
      '--date',
      '2026-11-21',
      '--description',
      'Stamps',
      '--amount',
      '-0.1',
      '--tags',
      'office,post',
    ])
    const rows = tsv(r.stdout)
    expect(rows[0]).toEqual(['FIELD', 'VALUE'])
    const fields = Object.fromEntries(rows.slice(1))
    expect(fields.amount).toBe('-0.10 USD')
    expect(fields.description).toBe('Stamps')
    expect(fields.account).toBe(accountId)
    expect(fields.tags).toBe('office,post')
    expect(r.stderr).toMatch(/^created transaction [0-9a-f-]{36}$/m)
  })

  it('an amount with more decimals than the currency allows exits 6 and names amount', async () => {
    const args = ['tx', 'create', '--account', accountId, '--date', '2026-11-20', '--description', 'X', '--amount', '-1.999']
    const r = await sb.run(args)
    expect(r.code).toBe(6)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error: .*amount/)

    // With --json, the service's error object on stderr.
    const j = await sb.run([...args, '--json'])
    expect(j.code).toBe(6)
    expect(j.stdout).toBe('')
    const err = JSON.parse(j.stderr)
    expect(err.code).toBe('validation_error')
    expect(err.details.map((d: { path: string }) => d.path)).toContain('amount')
  })

  it('a missing required flag without a terminal exits 2 and names the flag', async () => {
    const noAmount = await sb.run(['tx', 'create', '--account', accountId, '--date', '2026-11-20', '--description', 'X'])
    expect(noAmount.code).toBe(2)
    expect(noAmount.stdout).toBe('')
    expect(noAmount.stderr).toContain('--amount')

    const noAccount = await sb.run(['tx', 'create', '--date', '2026-11-20', '--description', 'X', '--amount', '1'])
    expect(noAccount.code).toBe(2)
    expect(noAccount.stderr).toContain('--account')

    const noType = await sb.run(['accounts', 'create', '--name', 'Savings'])
    expect(noType.code).toBe(2)
    expect(noType.stderr).toContain('--type')
  })

  it('a transaction on an unknown account exits 5 and names the --account flag', async () => {
    const r = await sb.run(['tx', 'create', '--account', randomUUID(), '--date', '2026-11-20', '--description', 'X', '--amount', '1'])
    expect(r.code).toBe(5)
    expect(r.stderr).toMatch(/^ {2}--account: no such bank account$/m)
    expect(r.stderr).not.toContain('bank_account_id')
  })

  it('the balance counts exactly the transactions that were created', async () => {
    const a = await sb.json(['accounts', 'get', accountId, '--json'])
    expect(a.current_balance).toBe(849.91) // 1000.00 - 149.99 - 0.10, nothing from the refused ones
  })

  it('keeps no full API key in the database files', () => {
    expectNoSecretsAtRest(sb, sb.database, ['password-for-tx'])
  })
})

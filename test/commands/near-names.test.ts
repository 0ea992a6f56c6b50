/**
 * Names are suggested on a typo wherever a command takes one: an account's name
 * (`--account "Chase Cheking"`, `accounts get`), a profile's (`--profile ofice`, `profile use`);
 * `transactions` is `tx`.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nearNames } from '../../src/kernel/near-names.js'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

describe('did you mean, for names', () => {
  const sb = new InProcessSandbox('near-names')
  beforeAll(async () => {
    await sb.ok(['init', '--no-input'])
    await sb.ok(['profile', 'add', 'office', '--base-url', 'http://127.0.0.1:9'])
    for (const name of ['Chase Checking', 'Chase Savings', 'Amex'])
      await sb.ok(['accounts', 'create', '--name', name, '--type', 'checking', '--currency', 'USD'])
  })
  afterAll(() => sb.cleanup())

  it('an account name one letter off: the nearest names suggested, exit 5', async () => {
    for (const args of [
      ['tx', 'list', '--account', 'Chase Cheking'],
      ['accounts', 'get', 'Chase Cheking'],
      ['rules', 'create', '--description-contains', 'coffee', '--account', 'Chase Cheking', '--set', 'category=Coffee'],
    ]) {
      const r = await sb.run(args)
      expect(r.code, r.stderr).toBe(5)
      expect(r.stderr).toContain('no bank account is named "Chase Cheking" (did you mean "Chase Checking"?)')
    }
    // A rule's --account takes the name too, and keeps the id.
    const rule = JSON.parse(
      (
        await sb.ok([
          'rules',
          'create',
          '--description-contains',
          'coffee',
          '--account',
          'chase checking',
          '--set',
          'category=Coffee',
          '--json',
        ])
      ).stdout,
    ) as { conditions: { bank_account_id: string } }
    const chase = JSON.parse((await sb.ok(['accounts', 'get', 'Chase Checking', '--json'])).stdout) as { id: string }
    expect(rule.conditions.bank_account_id).toBe(chase.id)
    // Nothing near: no suggestion.
    expect((await sb.run(['tx', 'list', '--account', 'Wells Fargo'])).stderr).not.toContain('did you mean')
  })

  it('a profile name one letter off, by --profile or a profile verb', async () => {
    const flag = await sb.run(['--profile', 'ofice', 'whoami'])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toContain('profile "ofice" (--profile) does not exist (did you mean "office"?)')
    for (const verb of ['use', 'show', 'remove', 'protect']) {
      const r = await sb.run(['profile', verb, 'ofice'])
      expect(r.code, verb).toBe(5)
      expect(r.stderr, verb).toContain('no profile named "ofice" (did you mean "office"?)')
    }
  })

  it('`transactions` is `tx`; `account` is `accounts`, `statement` is `statements`', async () => {
    const r = await sb.ok(['transactions', 'list', '--json'])
    expect(JSON.parse(r.stdout)).toEqual([])
    const one = await sb.ok(['account', 'get', 'Amex', '--json'])
    expect(JSON.parse(one.stdout)).toMatchObject({ name: 'Amex' })
    expect(JSON.parse((await sb.ok(['statement', 'list', '--json'])).stdout)).toEqual([])
  })

  it('a category one letter off: a filter says no transaction has it, a write that it is new; both name the nearest', async () => {
    await sb.ok([
      'tx',
      'create',
      '--no-input',
      '--account',
      'Amex',
      '--date',
      '2026-01-05',
      '--description',
      'Shop',
      '--amount',
      '-5.00',
      '--category',
      'Groceries',
    ])
    for (const args of [
      ['tx', 'list', '--category', 'Grocries', '--json'],
      ['accounts', 'transactions', 'Amex', '--category', 'Grocries', '--json'],
    ]) {
      const r = await sb.ok(args)
      expect(JSON.parse(r.stdout)).toEqual([])
      expect(r.stderr, args.join(' ')).toContain('--category: no transaction has the category "Grocries" (did you mean "Groceries"?)')
    }
    const made = await sb.ok([
      'tx',
      'create',
      '--no-input',
      '--account',
      'Amex',
      '--date',
      '2026-01-06',
      '--description',
      'Shop',
      '--amount',
      '-6.00',
      '--category',
      'groceries',
      '--json',
    ])
    expect(made.stderr).toContain('--category: "groceries" is a new category (did you mean "Groceries"?)')
    const id = (JSON.parse(made.stdout) as { id: string }).id
    const updated = await sb.ok(['tx', 'update', id, '--category', 'Grocerie'])
    expect(updated.stderr).toContain('--category: "Grocerie" is a new category (did you mean "groceries" or "Groceries"?)')
    // The exact name, or nothing near: nothing said.
    expect((await sb.ok(['tx', 'list', '--category', 'Groceries'])).stderr).not.toContain('did you mean')
    expect((await sb.ok(['tx', 'update', id, '--category', 'Travel'])).stderr).not.toContain('did you mean')
  })

  it('nearNames: a few edits by the length typed, any case, a start of a name too', () => {
    expect(nearNames(['office', 'local'], 'ofice')).toEqual(['office'])
    expect(nearNames(['Chase Checking', 'Chase Savings'], 'chase')).toEqual(['Chase Checking', 'Chase Savings'])
    expect(nearNames(['ab'], 'x')).toEqual([])
  })
})

describe('completion of account names', () => {
  const sb = new InProcessSandbox('complete-accounts')
  beforeAll(async () => {
    await sb.ok(['init', '--no-input'])
    for (const name of ['Chase Checking', 'Chase Savings', 'Amex'])
      await sb.ok(['accounts', 'create', '--name', name, '--type', 'checking', '--currency', 'USD'])
  })
  afterAll(() => sb.cleanup())

  const offered = async (...words: string[]) =>
    (await sb.ok(['__complete', '--', ...words])).stdout.split('\n').filter((l) => l && !l.startsWith(':'))

  it('--account and the accounts verbs offer the names, as bash hands the word typed', async () => {
    expect(await offered('tx', 'list', '--account', '')).toEqual(['Amex', 'Chase Checking', 'Chase Savings'])
    expect(await offered('reports', 'cash-flow', '--account', 'Chase')).toEqual(['Chase Checking', 'Chase Savings'])
    expect(await offered('tx', 'list', '--account', 'Chase\\ C')).toEqual(['Chase Checking'])
    expect(await offered('accounts', 'get', '"Am')).toEqual(['Amex'])
    // Categories after --category, aliases after `alias delete`, profiles after --profile: all at the time of the Tab.
    await sb.ok([
      'tx',
      'create',
      '--no-input',
      '--account',
      'Amex',
      '--date',
      '2026-01-05',
      '--description',
      'Shop',
      '--amount',
      '-5.00',
      '--category',
      'Groceries',
    ])
    expect(await offered('tx', 'update', 'abc', '--category', 'Gr')).toEqual(['Groceries'])
    expect(await offered('tx', 'list', '--category', '')).toEqual(['Groceries'])
    await sb.ok(['alias', 'set', 'chk', 'tx list --account "Chase Checking"'])
    expect(await offered('alias', 'delete', '')).toEqual(['chk'])
    expect(await offered('ch')).toEqual(['chk\talias'])
    expect(await offered('--profile', '')).toEqual(['local'])
    // A target that never answers: no names (how soon the Tab gives up: test/timing/bounded-waits.test.ts).
    const silent = createServer(() => {})
    await new Promise<void>((res) => silent.listen(0, '127.0.0.1', res))
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
      expect(await offered('--base-url', url, '--api-key', `fds_${'a'.repeat(43)}`, 'tx', 'list', '--account', '')).toEqual([])
    } finally {
      silent.closeAllConnections()
      silent.close()
    }
    // Other words still come from the tree alone.
    expect((await offered('tx', 'l')).map((l) => l.split('\t')[0])).toEqual(['list'])
  })
})

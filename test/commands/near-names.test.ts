/**
 * Names are suggested on a typo wherever a command takes one (#61 item 16): an account's name
 * (`--account "Chase Cheking"`, `accounts get`), a profile's (`--profile ofice`, `profile use`);
 * `transactions` is `tx`.
 */
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
    ]) {
      const r = await sb.run(args)
      expect(r.code, r.stderr).toBe(5)
      expect(r.stderr).toContain('no bank account is named "Chase Cheking" (did you mean "Chase Checking"?)')
    }
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
    // Other words still come from the tree alone.
    expect((await offered('tx', 'l')).map((l) => l.split('\t')[0])).toEqual(['list'])
  })
})

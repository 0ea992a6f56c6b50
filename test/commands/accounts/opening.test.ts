/**
 * The case, in process: an account opened with 25,000.00 on 2016-03-01 and a bank file
 * holding a row of 2013. The 2013 row is refused (a rejected line, exit 8) naming the opening date and
 * how to move it; the summary of 2013 shows no balance; the ledger export opens the account on its
 * date. `accounts update` moves the opening date and balance (and the account number), the row then
 * goes in, and every view agrees; a closed month refuses a change that would move it (exit 6).
 */
import { writeFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('opening balances hold at their date, in process', () => {
  let sb: InProcessSandbox
  let account: string
  let csv: string
  const balance2013 = async () =>
    (
      await sb.json<{ accounts: Array<{ id: string; balance: number }> }>([
        'reports',
        'summary',
        '--from',
        '2013-01-01',
        '--to',
        '2013-12-31',
        '--json',
      ])
    ).accounts.find((a) => a.id === account)!.balance

  beforeAll(async () => {
    sb = new InProcessSandbox('opening')
    await sb.ok(['init', '--company', 'Opening Co', '--currency', 'USD', '--password-stdin', '--no-input'], {
      input: 'password-for-opening\n',
    })
    sb.remember(sb.profiles().profiles.local.api_key)
    account = (
      await sb.json<{ id: string }>([
        'accounts',
        'create',
        '--name',
        'Savings',
        '--type',
        'savings',
        '--opening-balance',
        '25000',
        '--opening-balance-date',
        '2016-03-01',
        '--json',
      ])
    ).id
    csv = sb.path('savings.csv')
    writeFileSync(csv, 'Date,Description,Amount\n2013-05-01,Old fee,-10.00\n2016-03-05,New fee,-5.00\n')
  })
  afterAll(() => sb?.cleanup())

  it('tx create and tx import refuse a row dated before the opening date, naming it and the flag that moves it', async () => {
    const one = await sb.run([
      'tx',
      'create',
      '--account',
      account,
      '--date',
      '2013-05-01',
      '--description',
      'Old fee',
      '--amount',
      '-10.00',
    ])
    expect(one.code).toBe(6)
    expect(one.stderr).toContain('--date: 2013-05-01 is before the opening date 2016-03-01 of bank account "Savings"')
    expect(one.stderr).toContain(`finctl accounts update ${account} --opening-balance-date 2013-05-01 --opening-balance AMOUNT`)

    // The dry run knows it too: it tells what the import will do.
    const dry = await sb.run(['tx', 'import', csv, '--account', account, '--dry-run'])
    expect(dry.code).toBe(8)
    expect(dry.stderr).toMatch(/line 2: .*2013-05-01 is before the opening date 2016-03-01/)

    const r = await sb.run(['tx', 'import', csv, '--account', account])
    expect(r.code).toBe(8)
    expect(r.stderr).toMatch(/line 2: .*2013-05-01 is before the opening date 2016-03-01/)
    expect(Object.fromEntries(tsv(r.stdout).slice(1))).toMatchObject({ created: '1', rejected: '1' })
  })

  it('the summary of 2013 shows no balance, and the ledger export opens the account on its date', async () => {
    expect(await balance2013()).toBe(0)
    const summary2016 = await sb.json<{ accounts: Array<{ id: string; balance: number }> }>([
      'reports',
      'summary',
      '--from',
      '2016-01-01',
      '--to',
      '2016-12-31',
      '--json',
    ])
    expect(summary2016.accounts.find((a) => a.id === account)?.balance).toBe(24995)
    const ledger = (await sb.ok(['export', '--format', 'ledger', '--from', '2013-01-01', '--to', '2016-12-31'])).stdout
    expect(ledger).not.toContain('Opening balances | balances before 2013-01-01')
    const opening = ledger.indexOf('2016-03-01 * Opening balance | Assets:Bank:Savings at the start of 2016-03-01')
    expect(opening).toBeGreaterThan(0)
    expect(opening).toBeLessThan(ledger.indexOf('New fee'))
  })

  it('accounts update moves the opening date and balance and the account number; the row then goes in', async () => {
    const r = await sb.ok([
      'accounts',
      'update',
      account,
      '--opening-balance-date',
      '2013-05-01',
      '--opening-balance',
      '25010',
      '--account-number',
      'NL91 ABNA 0417 1643 00',
    ])
    expect(Object.fromEntries(tsv(r.stdout).slice(1))).toMatchObject({
      opening_balance: '25010.00 USD',
      opening_balance_date: '2013-05-01',
      account_number_last4: '4300',
      current_balance: '25005.00 USD',
    })
    const again = await sb.run(['tx', 'import', csv, '--account', account])
    expect(again.code, again.stderr).toBe(0)
    expect(Object.fromEntries(tsv(again.stdout).slice(1))).toMatchObject({ created: '1', 'already imported': '1', rejected: '0' })
    // At the end of 2013: the opening balance of 2013-05-01 and that day's fee.
    expect(await balance2013()).toBe(25000)
    expect((await sb.json<{ current_balance: number }>(['accounts', 'get', account, '--json'])).current_balance).toBe(24995)
    const ledger = (await sb.ok(['export', '--format', 'ledger', '--from', '2013-01-01', '--to', '2016-12-31'])).stdout
    const opening = ledger.indexOf('2013-05-01 * Opening balance | Assets:Bank:Savings at the start of 2013-05-01')
    expect(opening).toBeGreaterThan(0)
    expect(opening).toBeLessThan(ledger.indexOf('Old fee'))
    // Moving the date past the fee again: refused, naming the fee's date.
    const past = await sb.run(['accounts', 'update', account, '--opening-balance-date', '2014-01-01'])
    expect(past.code).toBe(6)
    expect(past.stderr).toContain('--opening-balance-date: bank account "Savings" has a transaction dated 2013-05-01, before 2014-01-01')
  })

  it('transactions dated before the opening date that were there already are named by accounts get and list', async () => {
    const legacy = (
      await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Legacy', '--type', 'cash', '--opening-balance', '500', '--json'])
    ).id
    await sb.ok(['tx', 'create', '--account', legacy, '--date', '2015-05-01', '--description', 'Held', '--amount', '-20.00'])
    // As a database written before that change holds them.
    const db = new Database(sb.database)
    db.prepare('UPDATE bank_accounts SET opening_balance_date = ? WHERE id = ?').run('2015-06-01', legacy)
    db.close()
    const got = await sb.run(['accounts', 'get', legacy])
    expect(Object.fromEntries(tsv(got.stdout).slice(1))).toMatchObject({ current_balance: '500.00 USD', transactions_before_opening: '1' })
    const note = `note: 1 transaction of "Legacy" is dated before its opening date 2015-06-01: its opening balance holds it`
    expect(got.stderr).toContain(note)
    expect((await sb.run(['accounts', 'list', '--quiet'])).stderr).toContain(note)
  })

  it('a closed month refuses a change that would move it (exit 6); nothing to change is a usage error naming the flags', async () => {
    await sb.ok(['close', '2014-01', '--force', '--reason', 'opening test'])
    const r = await sb.run(['accounts', 'update', account, '--opening-balance', '1'])
    expect(r.code).toBe(6)
    expect(r.stderr).toContain('the opening date 2013-05-01 of bank account "Savings" is in a closed period: the lock date is 2014-01-31')
    expect(await balance2013()).toBe(25000)
    const none = await sb.run(['accounts', 'update', account])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('--opening-balance, --opening-balance-date or --opening-rate')
  })
})

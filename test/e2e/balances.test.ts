/**
 * End-to-end, the case of #47 item 1 through `finctl serve`: in the demo company's USD account,
 * `tx create --amount -120 --currency EUR --exchange-rate 1.05` moves `accounts get`, `accounts list`
 * and `reports summary` alike, by -126.00 USD, as on the embedded target
 * (test/commands/accounts/balances.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, startServe, stopServeAndCleanup, type ServeProcess } from '../helpers/cli.js'

interface Account {
  id: string
  current_balance: number
  currency_code: string
  unconverted_transactions: unknown[]
}

/** Exact cents of a JSON amount. */
const cents = (x: number) => {
  const [w, f = ''] = String(x).split('.')
  return Number(w) * 100 + (w.startsWith('-') ? -1 : 1) * Number(f.padEnd(2, '0'))
}

describe('a EUR transaction on the demo USD account', () => {
  let sb: Sandbox
  let server: ServeProcess | undefined
  let account: string
  let before: number
  const today = new Date().toISOString().slice(0, 10)
  const from = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10)

  /** What the three views say of the account's balance, in cents, through a profile. */
  async function views(profile: string[]): Promise<{ get: number; list: number; summary: number }> {
    const [got, list, summary] = await Promise.all([
      sb.json<Account>([...profile, 'accounts', 'get', account, '--json']),
      sb.json<Account[]>([...profile, 'accounts', 'list', '--json']),
      sb.json<{ accounts: Array<{ id: string; balance: number; currency_code: string }> }>([
        ...profile,
        'reports',
        'summary',
        '--from',
        from,
        '--to',
        today,
        '--json',
      ]),
    ])
    expect(got.unconverted_transactions).toEqual([])
    const inSummary = summary.accounts.find((a) => a.id === account)!
    expect(inSummary.currency_code).toBe('USD')
    return {
      get: cents(got.current_balance),
      list: cents(list.find((a) => a.id === account)!.current_balance),
      summary: cents(inSummary.balance),
    }
  }

  beforeAll(async () => {
    sb = new Sandbox('balances')
    await sb.ok(['init', '--demo', '--no-input', '--currency', 'USD'])
    const [demo] = await sb.json<Account[]>(['accounts', 'list', '--json'])
    account = demo.id
    const was = await views([])
    expect(was.list).toBe(was.get)
    expect(was.summary).toBe(was.get)
    before = was.get
    await sb.ok([
      'tx',
      'create',
      '--account',
      account,
      '--date',
      today,
      '--description',
      'Conference Berlin',
      '--amount',
      '-120',
      '--currency',
      'EUR',
      '--exchange-rate',
      '1.05',
    ])
  })
  afterAll(() => stopServeAndCleanup(server, sb))

  it('through finctl serve: the same figures', async () => {
    server = await startServe(sb, sb.database)
    const key = sb.profiles().profiles.local.api_key!
    await sb.ok(['profile', 'add', 'remote', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
    expect(await views(['--profile', 'remote'])).toEqual({ get: before - 12600, list: before - 12600, summary: before - 12600 })
  })
})

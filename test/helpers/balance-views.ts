/**
 * The case, for both sandboxes (in process and spawning, the same API): the demo
 * company's USD account, what `accounts get`, `accounts list` and `reports summary` say of its
 * balance, and a EUR transaction at 1.05 that moves all three by -126.00 USD.
 */
import { expect } from 'vitest'

/** What both sandboxes have: run and parse JSON, run and expect exit 0. */
interface Runs {
  json<T = any>(args: string[]): Promise<T>
  ok(args: string[]): Promise<unknown>
}

export interface Account {
  id: string
  current_balance: number
  currency_code: string
  unconverted_transactions: unknown[]
}

/** Exact cents of a JSON amount. */
export const cents = (x: number) => {
  const [w, f = ''] = String(x).split('.')
  return Number(w) * 100 + (w.startsWith('-') ? -1 : 1) * Number(f.padEnd(2, '0'))
}

export const today = () => new Date().toISOString().slice(0, 10)

/** What the three views say of the account's balance, in cents, through a profile. */
export async function balanceViews(sb: Runs, account: string, profile: string[]): Promise<{ get: number; list: number; summary: number }> {
  const from = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10)
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
      today(),
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

/** `init --demo` in USD, the three views agreeing, then -120 EUR at 1.05 today: the account and its balance before. */
export async function eurOnTheDemoAccount(sb: Runs): Promise<{ account: string; before: number }> {
  await sb.ok(['init', '--demo', '--no-input', '--currency', 'USD'])
  const [demo] = await sb.json<Account[]>(['accounts', 'list', '--json'])
  const was = await balanceViews(sb, demo.id, [])
  expect(was.list).toBe(was.get)
  expect(was.summary).toBe(was.get)
  const args = ['--date', today(), '--description', 'Conference Berlin', '--amount', '-120', '--currency', 'EUR', '--exchange-rate', '1.05']
  await sb.ok(['tx', 'create', '--account', demo.id, ...args])
  return { account: demo.id, before: was.get }
}

/**
 * The data set of the tx verbs' tests (moved from test/e2e/tx.test.ts): 142 transactions with known
 * dates, amounts, categories, tags and statuses, created in one request through the batch endpoint
 * (`finctl api`, in process); every expectation of the tests is computed from it.
 */
import { expect } from 'vitest'
import { callApi } from '../../helpers/in-process-api.js'
import { InProcessSandbox, fastKey } from '../../helpers/in-process-cli.js'

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

export type AccountKey = 'main' | 'side' | 'bulk'

export interface Fixture {
  account: AccountKey
  date: string
  description: string
  /** Amount in cents. */
  minor: number
  category: string | null
  merchant: string | null
  tags: string[]
  status: 'pending' | 'posted'
  reconciled: boolean
  id: string
}

export interface Tx {
  id: string
  transaction_date: string
  description: string
  amount: number
  currency_code: string
  category: string | null
  accounting_category: string | null
  merchant_name: string | null
  status: string
  is_reconciled: boolean
  tags: string[]
  bank_account_id: string
}

/** Cents as the decimal text the CLI takes and prints: -1050 -> "-10.50". */
export function dec(minor: number): string {
  const abs = Math.abs(minor)
  return `${minor < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** 130 rows over three months in two accounts, then 12 rows in May in a third for bulk-update. */
function fixtures(): Array<Omit<Fixture, 'id'>> {
  const out: Array<Omit<Fixture, 'id'>> = []
  for (let i = 0; i < 130; i++) {
    out.push({
      account: i % 5 === 4 ? 'side' : 'main',
      date: addDays('2026-01-01', (i * 37) % 90),
      description: i === 5 ? 'Acme refund #5' : i % 10 === 3 ? `Coffee beans #${i}` : `Item #${i}`,
      minor: ((i * 7919) % 200_000) - 100_000,
      category: ['Software', 'Meals', 'Travel', null][i % 4],
      merchant: i % 7 === 0 ? 'Acme Corp' : i % 7 === 1 ? 'Globex' : null,
      tags: i % 6 === 0 ? ['q1', 'review'] : i % 6 === 1 ? ['review'] : [],
      status: i % 3 === 0 ? 'posted' : 'pending',
      reconciled: i % 8 === 0,
    })
  }
  for (let j = 0; j < 12; j++) {
    out.push({
      account: 'bulk',
      date: `2026-05-${String(j + 1).padStart(2, '0')}`,
      description: `Bulk #${j}`,
      minor: -(j + 1) * 1050,
      category: j % 2 === 0 ? 'Fuel' : 'Parking',
      merchant: null,
      tags: j < 4 ? ['keep'] : [],
      status: 'pending',
      reconciled: false,
    })
  }
  return out
}

/** The service's default order: transaction_date descending, then id descending. */
export const byDateDesc = (a: Fixture, b: Fixture) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id < b.id ? 1 : -1)
export const byAmount = (a: Fixture, b: Fixture) => a.minor - b.minor || (a.id < b.id ? -1 : 1)
export const sortedIds = (rows: Array<{ id: string }>) => rows.map((r) => r.id).sort()

export { callApi }

/** A transaction on the Scratch account dated 2026-06-01, made by `tx create`: its id. */
export async function createScratch(
  w: Pick<TxWorld, 'sb' | 'accounts'>,
  description: string,
  amount: string,
  extra: string[] = [],
): Promise<string> {
  const args = ['tx', 'create', '--account', w.accounts.scratch, '--date', '2026-06-01', '--description', description, '--amount', amount]
  return (await w.sb.json<Tx>([...args, ...extra, '--json'])).id
}

export interface TxWorld {
  sb: InProcessSandbox
  /** The id of the key the commands use (the actor of the history). */
  keyId: string
  accounts: Record<AccountKey | 'scratch', string>
  /** The data set with its ids; empty unless asked for. */
  fx: Fixture[]
}

/** `finctl init`, a fast key, the accounts Operating, Savings, Bulk and Scratch, and the data set when `rows`. */
export async function txWorld(name: string, o: { rows: boolean }): Promise<TxWorld> {
  const sb = new InProcessSandbox(name)
  await sb.ok(['init', '--password-stdin', '--no-input'], { input: `password-for-${name}\n` })
  sb.remember(sb.profiles().profiles.local.api_key)
  const fast = await fastKey(sb)
  const accounts = {} as TxWorld['accounts']
  const names = { main: 'Operating', side: 'Savings', bulk: 'Bulk', scratch: 'Scratch' } as const
  for (const [k, name] of Object.entries(names)) {
    const r = await callApi(sb, 'POST', '/api-v1/bank-accounts', { name, account_type: 'checking', currency_code: 'USD' })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    accounts[k as AccountKey] = r.body.data.id
  }
  if (!o.rows) return { sb, keyId: fast.id, accounts, fx: [] }
  const rows = fixtures()
  const batch = await callApi(sb, 'POST', '/api-v1/transactions/batch', {
    transactions: rows.map((f) => ({
      bank_account_id: accounts[f.account],
      transaction_date: f.date,
      description: f.description,
      amount: dec(f.minor),
      ...(f.category ? { category: f.category } : {}),
      ...(f.merchant ? { merchant_name: f.merchant } : {}),
      tags: f.tags,
    })),
  })
  expect(batch.status, JSON.stringify(batch.body)).toBe(201)
  expect(batch.body.data.errors).toEqual([])
  const created = batch.body.data.created as Tx[]
  expect(created).toHaveLength(rows.length)
  const fx = rows.map((f, i) => {
    expect(created[i].description).toBe(f.description)
    return { ...f, id: created[i].id }
  })
  for (const [updates, pick] of [
    [{ status: 'posted' }, (f: Fixture) => f.status === 'posted'],
    [{ is_reconciled: true }, (f: Fixture) => f.reconciled],
  ] as const) {
    const ids = fx.filter(pick).map((f) => f.id)
    const r = await callApi(sb, 'POST', '/api-v1/transactions/bulk-update', { transaction_ids: ids, updates })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.data.updated).toBe(ids.length)
  }
  return { sb, keyId: fast.id, accounts, fx }
}

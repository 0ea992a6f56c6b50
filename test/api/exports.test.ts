/**
 * Exports (docs/api.md section 7) through both transports on both stores: the page walk of
 * GET /exports/transactions (every row once, in date order, the exact rate and base amount), the
 * balances before a period, refusals; then `finctl export`'s job over the same client, its
 * journals read by the accounting tools themselves (CI installs them): hledger's balances equal
 * the reports to the cent over two thousand rows in four currencies with transfers, voids,
 * pending rows, reversals and half-cent ties.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { ExportTransaction } from '../../src/domain/exports/schemas.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { runExport } from '../../src/jobs/export/run.js'
import type { AppError } from '../../src/kernel/errors.js'
import { mulberry32 } from '../../src/kernel/random.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

// Without the tools their checks are skipped; under CI=true (which installs them) they fail instead.
const has = (cmd: string) => process.env.CI === 'true' || spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0
const HLEDGER = has('hledger')
const LEDGER = has('ledger')
const BEANCOUNT = has('bean-check')

/** Exact minor units of a decimal text or JSON number, at `exp` decimals. */
function minor(x: number | string, exp = 2): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(x))
  if (!m || (m[3] ?? '').length > exp) throw new Error(`not an amount of ${exp} decimals: ${x}`)
  const v = BigInt(m[2] + (m[3] ?? '').padEnd(exp, '0'))
  return m[1] ? -v : v
}

/** amount × rate in cents, half-even: the test's own conversion. */
function convert(amountMinor: bigint, fromExp: number, rate: string): bigint {
  const [w, f = ''] = rate.split('.')
  const num = amountMinor * BigInt(w + f) * 10n ** BigInt(2)
  const den = 10n ** BigInt(f.length + fromExp)
  const q = num / den
  const r = num - q * den
  const twice = 2n * (r < 0n ? -r : r)
  if (twice < den) return q
  const away = r < 0n ? q - 1n : q + 1n
  if (twice > den) return away
  return q % 2n === 0n ? q : away
}

/** Categories of the data, each with its accounting category and the account the default map gives it. */
const CATS = [
  { category: 'Sales', accounting: 'revenue', account: 'Income:Revenue:Sales', sign: 1 },
  { category: 'Software & SaaS', accounting: 'operating_expenses', account: 'Expenses:Operating-Expenses:Software-SaaS', sign: -1 },
  { category: 'Rent', accounting: 'operating_expenses', account: 'Expenses:Operating-Expenses:Rent', sign: -1 },
  { category: 'Salaries', accounting: 'payroll', account: 'Expenses:Payroll:Salaries', sign: -1 },
  { category: 'Laptops', accounting: 'capital_expenditure', account: 'Assets:Fixed-Assets:Laptops', sign: -1 },
  { category: null, accounting: 'taxes', account: 'Expenses:Taxes', sign: -1 },
] as const

const PARENTS: Record<string, string> = {
  revenue: 'Income:Revenue',
  operating_expenses: 'Expenses:Operating-Expenses',
  payroll: 'Expenses:Payroll',
  capital_expenditure: 'Assets:Fixed-Assets',
  taxes: 'Expenses:Taxes',
}

interface Books {
  accounts: Array<{ id: string; currency: string; exp: number; name: string }>
  rows: number
}

async function makeBooks(client: Client, t: Tenant): Promise<Books> {
  const accounts = [{ id: t.accountId, currency: 'USD', exp: 2, name: 'Assets:Bank:Operating' }]
  for (const [name, currency, exp, opening, rate, type, journal] of [
    ['Reserve EUR', 'EUR', 2, '500.00', '1.0825', 'savings', 'Assets:Bank:Reserve-EUR'],
    ['Tokyo Office', 'JPY', 0, '100000', '0.006701', 'checking', 'Assets:Bank:Tokyo-Office'],
    ['Card £', 'GBP', 2, '0', undefined, 'credit_card', 'Liabilities:Credit-Card:Card'],
  ] as const) {
    const a = await client.accounts.create({
      name,
      account_type: type,
      currency_code: currency,
      opening_balance: opening,
      ...(rate ? { opening_exchange_rate: rate } : {}),
    })
    accounts.push({ id: a.id, currency, exp, name: journal })
  }
  const rand = mulberry32(20261125)
  const items: CreateTransactionRequest[] = []
  const rateOf = (currency: string) =>
    currency === 'EUR'
      ? `1.0${800 + Math.floor(rand() * 90)}${Math.floor(rand() * 10)}`
      : currency === 'GBP'
        ? `1.2${Math.floor(rand() * 9000) + 1000}`
        : `0.00${660 + Math.floor(rand() * 30)}1`
  const dec = (m: bigint, exp: number) => {
    const s = (m < 0n ? -m : m).toString().padStart(exp + 1, '0')
    return `${m < 0n ? '-' : ''}${exp ? `${s.slice(0, -exp)}.${s.slice(-exp)}` : s}`
  }
  for (let i = 0; i < 2000; i++) {
    const day = new Date(Date.UTC(2025, 6, 1) + Math.floor(rand() * 540) * 86_400_000).toISOString().slice(0, 10)
    const a = accounts[Math.floor(rand() * accounts.length)]
    const c = CATS[Math.floor(rand() * CATS.length)]
    const size = BigInt(Math.floor(rand() * (a.exp ? 500_000 : 50_000)) + 1)
    const item: CreateTransactionRequest = {
      bank_account_id: a.id,
      transaction_date: day,
      description: `row ${i}; "quoted" | piped \\ ${c.category ?? 'tax'}`,
      amount: dec(size * BigInt(c.sign), a.exp),
      currency_code: a.currency,
      category: c.category ?? undefined,
      accounting_category: c.accounting,
      cash_flow_category: c.accounting === 'capital_expenditure' ? 'investing' : 'operations',
      merchant_name: i % 3 ? `Merchant ${i % 17}` : undefined,
      tags: i % 5 === 0 ? ['q review', 'needs:receipt'] : undefined,
    }
    if (a.currency !== 'USD') item.exchange_rate = rateOf(a.currency)
    items.push(item)
    // A reversal of one row in 25: the same amount the other way, same category.
    if (i % 25 === 0) items.push({ ...item, description: `reversal of row ${i}`, amount: dec(-size * BigInt(c.sign), a.exp) })
    // A transfer of one row in 40: out of USD, into EUR.
    if (i % 40 === 0) {
      const rate = rateOf('EUR')
      items.push({
        bank_account_id: accounts[0].id,
        transaction_date: day,
        description: 'to reserve',
        amount: '-1000.00',
        cash_flow_category: 'transfer',
      })
      items.push({
        bank_account_id: accounts[1].id,
        transaction_date: day,
        description: 'from operating',
        amount: '920.13',
        exchange_rate: rate,
        cash_flow_category: 'transfer',
      })
    }
  }
  // Half-cent ties, rounded half-even: 0.25 × 0.42 = 0.105 -> 0.10, 0.25 × 0.46 = 0.115 -> 0.12.
  for (const rate of ['0.42', '0.46'])
    items.push({
      bank_account_id: accounts[1].id,
      transaction_date: '2026-02-02',
      description: 'tie',
      amount: '-0.25',
      exchange_rate: rate,
      category: 'Rent',
      accounting_category: 'operating_expenses',
    })
  // Uncategorized both ways.
  items.push({ bank_account_id: accounts[0].id, transaction_date: '2026-03-03', description: 'unknown in', amount: '12.00' })
  items.push({ bank_account_id: accounts[0].id, transaction_date: '2026-03-04', description: 'unknown out', amount: '-7.50' })
  const ids: string[] = []
  for (let i = 0; i < items.length; i += 2500) {
    const r = await client.transactions.batch(items.slice(i, i + 2500))
    expect(r.errors).toEqual([])
    ids.push(...r.created.map((x) => x.id))
  }
  // Voids and pending rows.
  for (let i = 0; i < ids.length; i += 97) await client.transactions.update(ids[i], { status: 'void' })
  await client.transactions.bulkUpdate({ transaction_ids: ids.filter((_, i) => i % 13 === 5), updates: { is_reconciled: true } })
  return { accounts, rows: items.length }
}

class Text extends Writable {
  text = ''
  override _write(chunk: Buffer | string, _e: BufferEncoding, done: () => void): void {
    this.text += chunk.toString()
    done()
  }
}

/** hledger's flat balances at cost (-B) or in their own commodities: account -> commodity -> minor units. */
function hledgerBalances(file: string, atCost: boolean): Map<string, Map<string, string>> {
  const r = spawnSync('hledger', ['-f', file, 'balance', '--flat', '--no-total', '-O', 'csv', ...(atCost ? ['-B'] : [])], {
    encoding: 'utf8',
  })
  expect(r.status, r.stderr).toBe(0)
  const out = new Map<string, Map<string, string>>()
  for (const line of r.stdout.trim().split('\n').slice(1)) {
    const [, account, amounts] = /^"(.*)","(.*)"$/.exec(line) ?? []
    const m = new Map<string, string>()
    for (const part of amounts.split(', ')) {
      const [value, commodity] = part.split(' ')
      m.set(commodity, value)
    }
    out.set(account, m)
  }
  return out
}

describe.each(MATRIX)('exports via %s on %s', (kind, storeKind) => {
  let h: Harness
  let t: Tenant
  let client: Client
  let books: Books
  let dir: string
  const period = { from: '2026-01-01', to: '2026-12-31' }

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    t = await h.tenant()
    client = h.client({ apiKey: t.key })
    books = await makeBooks(client, t)
    dir = mkdtempSync(join(tmpdir(), 'finctl-exports-'))
  }, 480_000)
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true })
    await h?.close()
  })

  it('pages every row of the period once, in date order, with the exact rate and base amount', async () => {
    const seen: ExportTransaction[] = []
    let total = -1
    for await (const page of client.exports.transactions({ ...period, limit: 700 })) {
      seen.push(...page.data)
      total = page.pagination!.total
    }
    const listed = await client.transactions.list({ ...period, limit: 1, include_total: true })
    expect(total).toBe(listed.pagination!.total)
    expect(seen.length).toBe(total)
    expect(new Set(seen.map((r) => r.id)).size).toBe(total)
    for (let i = 1; i < seen.length; i++) expect(seen[i - 1].transaction_date <= seen[i].transaction_date).toBe(true)
    for (const r of seen) {
      const exp = r.currency_code === 'JPY' ? 0 : 2
      expect(minor(r.base_amount), r.id).toBe(
        r.currency_code === 'USD' ? minor(r.amount) : convert(minor(r.amount, exp), exp, r.exchange_rate_exact),
      )
    }
    const ties = seen.filter((r) => r.description === 'tie').map((r) => r.base_amount)
    expect(ties.sort((a, b) => a - b)).toEqual([-0.12, -0.1])
  })

  it('refuses a bad cursor, an unknown account and a credential without read', async () => {
    const e1 = await client.request('GET', '/api-v1/exports/transactions', { query: { cursor: 'nope' } }).catch((e: AppError) => e)
    expect(e1).toMatchObject({ code: 'validation_error', status: 400 })
    expect((e1 as AppError).details?.map((d) => d.path)).toEqual(['cursor'])
    const other = await h.tenant('Other')
    for (const q of [{ bank_account_id: other.accountId }, { bank_account_id: '00000000-0000-4000-8000-000000000000' }]) {
      await expect(client.exports.openingBalances({ from: '2026-01-01', ...q })).rejects.toMatchObject({ code: 'not_found', status: 404 })
      await expect(client.request('GET', '/api-v1/exports/transactions', { query: q })).rejects.toMatchObject({ code: 'not_found' })
    }
    const limited = await h.client({ token: t.token }).keys.create({ name: 'tx only', scopes: ['transactions'] })
    await expect(h.client({ apiKey: limited.key }).exports.openingBalances({ from: '2026-01-01' })).rejects.toMatchObject({ status: 403 })
    await expect(client.request('GET', '/api-v1/exports/opening-balances', { query: {} })).rejects.toMatchObject({ status: 400 })
  })

  it.skipIf(!HLEDGER)(
    "hledger's balances equal the reports to the cent; ledger and bean-check accept the journals",
    async () => {
      const files: Record<string, string> = {}
      for (const format of ['hledger', 'ledger', 'beancount'] as const) {
        const sink = new Text()
        const r = await runExport(client, { format, ...period, pageSize: 600 }, sink)
        expect(r.rows).toBeGreaterThan(1000)
        files[format] = join(dir, `books.${format}`)
        writeFileSync(files[format], sink.text)
      }
      expect(spawnSync('hledger', ['-f', files.hledger, 'check', '--strict'], { encoding: 'utf8' }).stderr).toBe('')
      if (LEDGER) {
        const r = spawnSync('ledger', ['-f', files.ledger, '--pedantic', 'balance'], { encoding: 'utf8' })
        expect(r.status, r.stderr).toBe(0)
        expect(r.stderr).toBe('')
      }
      if (BEANCOUNT)
        expect(spawnSync('bean-check', [files.beancount], { encoding: 'utf8' })).toMatchObject({ status: 0, stdout: '', stderr: '' })

      const atCost = hledgerBalances(files.hledger, true)
      const usd = (account: string) => minor(atCost.get(account)?.get('USD') ?? '0')
      const summary = await client.reports.summary(period)
      // Each category and each accounting category, and the transfers: the other side of the bank's.
      for (const c of CATS) {
        const row = summary.by_category.find((x) => x.category === c.category)
        if (c.category !== null) expect(-usd(c.account), c.account).toBe(minor(row!.amount))
      }
      for (const row of summary.by_accounting_category) {
        const accounts =
          row.accounting_category === 'uncategorized'
            ? ['Income:Uncategorized', 'Expenses:Uncategorized']
            : [PARENTS[row.accounting_category]]
        const sum = [...atCost.keys()]
          .filter((a) => accounts.some((p) => a === p || a.startsWith(`${p}:`)))
          .reduce((s, a) => s + usd(a), 0n)
        expect(-sum, row.accounting_category).toBe(minor(row.amount))
      }
      expect(-usd('Assets:Transfers')).toBe(minor(summary.transfers.net))
      // Each bank account: at cost, its base balance of the cash-flow report; in its own currency, its balance.
      const native = hledgerBalances(files.hledger, false)
      for (const a of books.accounts) {
        const flow = await client.reports.cashFlow({ ...period, bank_account_id: a.id })
        expect(usd(a.name), a.name).toBe(minor(flow.closing_balance))
        const account = await client.accounts.get(a.id)
        expect(minor(native.get(a.name)?.get(a.currency) ?? '0', a.exp), a.name).toBe(minor(account.current_balance, a.exp))
      }
    },
    240_000,
  )

  it('writes csv with every row of the period, and refuses an accounts map the format does not take', async () => {
    const sink = new Text()
    const r = await runExport(client, { format: 'csv', ...period }, sink)
    const lines = sink.text.trimEnd().split('\r\n')
    expect(lines.length - 1).toBe(r.rows)
    expect(lines[0].startsWith('id,date,description,amount,currency,category,status,')).toBe(true)
    await expect(
      runExport(client, { format: 'beancount', ...period, accountsMap: { categories: { Rent: 'expenses:rent' } } }, new Text()),
    ).rejects.toThrow(/categories\.Rent: "expenses:rent" must start with one of Assets/)
  })
})

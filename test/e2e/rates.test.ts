/**
 * End-to-end: with the built CLI, a company in EUR imports a year of ECB rates
 * (its published layout: Date, one column per currency, N/A, a trailing comma), then a CSV of a USD
 * account whose rows are in USD and GBP by their own currency column, over the same year, weekends
 * included. The summary report's base-currency totals are checked to the cent against amounts
 * converted here, by BigInt, from the rates the service lists. Before the rates, the rows are
 * rejected naming the currency, the date and `finctl rates import`. A statement and a seed of the
 * USD account go in without --exchange-rate.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox } from '../helpers/cli.js'

const YEAR = 2025
const day = (i: number) => new Date(Date.UTC(YEAR, 0, 1 + i)).toISOString().slice(0, 10)
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay()
const money = (minor: bigint) => {
  const neg = minor < 0n
  const abs = (neg ? -minor : minor).toString().padStart(3, '0')
  return `${neg ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`
}

/** Half-even rounding of n / d (BigInt), as the service rounds each row. */
function halfEven(n: bigint, d: bigint): bigint {
  const q = n / d
  const r = n - q * d
  const twice = 2n * (r < 0n ? -r : r)
  if (twice < d) return q
  const away = r < 0n ? q - 1n : q + 1n
  if (twice > d) return away
  return q % 2n === 0n ? q : away
}

/** The ECB history for YEAR, newest day first as published: weekdays only, USD and GBP per 1 EUR, N/A on two holidays. */
function ecbYear(): string {
  const lines = ['Date,USD,JPY,GBP,']
  for (let i = 364; i >= 0; i--) {
    const date = day(i)
    if (weekday(date) === 0 || weekday(date) === 6) continue
    // 1 January and 25 December: no fixing (TARGET holidays); 18 April a USD gap only
    if (date.endsWith('-01-01') || date.endsWith('-12-25')) continue
    const usd = (10500 + ((i * 37) % 900)) / 10000
    const gbp = (8300 + ((i * 53) % 500)) / 10000
    lines.push(`${date},${date === `${YEAR}-04-18` ? 'N/A' : usd.toFixed(4)},${(150 + (i % 20)).toFixed(2)},${gbp.toFixed(5)},`)
  }
  return `${lines.join('\n')}\n`
}

/** 300 rows from 2 January (the first rate) to the year's end, every day of the week, USD and GBP by their own Currency column. */
function statementYear(): Array<{ date: string; currency: string; minor: bigint; text: string }> {
  const rows = []
  for (let n = 0; n < 300; n++) {
    const date = day(1 + ((n * 97) % 364))
    const currency = n % 3 === 0 ? 'GBP' : 'USD'
    const minor = BigInt(((n * 7919) % 250000) - 120000 || 1)
    rows.push({ date, currency, minor, text: n % 2 ? `Invoice ${n}` : `Supplier ${n}` })
  }
  return rows
}

describe('rates end to end: a two-currency CSV over a year, rates imported first', () => {
  let sb: Sandbox
  let usd: string
  const rows = statementYear()
  let csv: string

  beforeAll(async () => {
    sb = new Sandbox('rates')
    await sb.ok(['init', '--company', 'Euro Co', '--currency', 'EUR', '--email', 'o@euro.test', '--password-stdin', '--no-input'], {
      input: 'password-for-rates\n',
    })
    usd = (
      await sb.json<{ id: string }>(['accounts', 'create', '--name', 'US account', '--type', 'checking', '--currency', 'USD', '--json'])
    ).id
    writeFileSync(join(sb.dir, 'eurofxref-hist.csv'), ecbYear())
    csv = join(sb.dir, 'us-two-currencies-year.csv')
    writeFileSync(
      csv,
      `Date,Description,Amount,Currency\n${rows.map((r) => `${r.date},${r.text},${money(r.minor)},${r.currency}`).join('\n')}\n`,
    )
  })
  afterAll(() => sb?.cleanup())

  it('before any rate, the rows are rejected naming the currency, the date and finctl rates import', async () => {
    const r = await sb.run(['tx', 'import', csv, '--account', usd, '--json'])
    expect(r.code).not.toBe(0)
    const s = JSON.parse(r.stdout)
    expect(s).toMatchObject({ created: 0, rejected: 300 })
    expect(s.rejects[0].reason).toMatch(/^--set exchange_rate is required for (USD|GBP) on \d{4}-\d{2}-\d{2}: .*`finctl rates import FILE`/)
    expect(r.stderr).not.toMatch(/\bexchange_rate:/)
  })

  it('before any rate, --dry-run and --atomic find the same rows the service will refuse, and write nothing', async () => {
    const dry = await sb.run(['tx', 'import', csv, '--account', usd, '--dry-run', '--json'])
    expect(dry.code, dry.stderr).toBe(8)
    const d = JSON.parse(dry.stdout)
    expect(d).toMatchObject({ read: 300, rejected: 300 })
    expect(d.rejects[0].reason).toMatch(/^--set exchange_rate is required for (USD|GBP) on \d{4}-\d{2}-\d{2}: .*`finctl rates import FILE`/)
    const atomic = await sb.run(['tx', 'import', csv, '--account', usd, '--atomic', '--json'])
    expect(atomic.code, atomic.stderr).toBe(6)
    expect(JSON.parse(atomic.stdout)).toMatchObject({ created: 0, rejected: 300, rolled_back: true })
    expect(await sb.json<unknown[]>(['tx', 'list', '--account', usd, '--all', '--json'])).toEqual([])
  })

  it('rates import reads the ECB file and converts to the EUR base (the verbs themselves: test/commands/rates)', async () => {
    const r = await sb.json(['rates', 'import', join(sb.dir, 'eurofxref-hist.csv'), '--json'])
    expect(r).toMatchObject({ replaced: 0, currencies: ['GBP', 'JPY', 'USD'], from: `${YEAR}-01-02`, to: `${YEAR}-12-31` })
    expect(r.skipped).toBe(1)
    const listed = await sb.json<Array<{ date: string; currency: string; rate: string }>>([
      'rates',
      'list',
      '--currency',
      'USD',
      '--from',
      `${YEAR}-01-02`,
      '--to',
      `${YEAR}-01-02`,
      '--json',
    ])
    // 1 / 1.0500 + ((363 * 37) % 900) / 10000 as published for 2 January: EUR per USD
    const published = (10500 + ((1 * 37) % 900)) / 10000
    expect(listed).toHaveLength(1)
    expect(Math.abs(Number(listed[0].rate) - 1 / published)).toBeLessThan(1e-12)
  })

  it('tx import converts each row by its own currency and date; the summary in EUR matches to the cent', async () => {
    // With the rates in, the dry run finds every row convertible.
    const dry = await sb.run(['tx', 'import', csv, '--account', usd, '--dry-run', '--json'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(JSON.parse(dry.stdout)).toMatchObject({ read: 300, rejected: 0 })
    const run = await sb.run(['tx', 'import', csv, '--account', usd, '--json'])
    const s = JSON.parse(run.stdout)
    expect(s.rejects.slice(0, 3)).toEqual([])
    expect(s).toMatchObject({ created: 300, rejected: 0 })
    expect(s.other_currencies).toEqual([expect.objectContaining({ currency: 'GBP', rows: 100 })])

    // The expected base amounts, from the rates the service lists: the rate of the row's date or the latest earlier within 7 days.
    const rates = await sb.json<Array<{ date: string; currency: string; rate: string }>>(['rates', 'list', '--all', '--json'])
    const rateOf = (currency: string, date: string) => {
      const found = rates.filter((r) => r.currency === currency && r.date <= date).at(-1)!
      expect((Date.parse(date) - Date.parse(found.date)) / 86_400_000).toBeLessThanOrEqual(7)
      return found.rate
    }
    let income = 0n
    let expenses = 0n
    for (const r of rows) {
      const [w, f = ''] = rateOf(r.currency, r.date).split('.')
      const base = halfEven(r.minor * BigInt(w + f), 10n ** BigInt(f.length))
      if (base > 0n) income += base
      else expenses -= base
    }
    const report = await sb.json<{ currency: string; income: number; expenses: number; net: number; transaction_count: number }>([
      'reports',
      'summary',
      '--from',
      `${YEAR}-01-01`,
      '--to',
      `${YEAR}-12-31`,
      '--json',
    ])
    expect(report.currency).toBe('EUR')
    expect(report.transaction_count).toBe(300)
    expect({ income: report.income.toFixed(2), expenses: report.expenses.toFixed(2), net: report.net.toFixed(2) }).toEqual({
      income: money(income),
      expenses: money(expenses),
      net: money(income - expenses),
    })
    // A weekend row keeps Friday's rate and says so.
    const sat = rows.find((r) => weekday(r.date) === 6 && r.currency === 'USD')!
    const txs = await sb.json<
      Array<{ transaction_date: string; exchange_rate: number; exchange_rate_date: string; currency_code: string }>
    >(['tx', 'list', '--account', usd, '--from', sat.date, '--to', sat.date, '--json'])
    const friday = new Date(Date.parse(sat.date) - 86_400_000).toISOString().slice(0, 10)
    expect(
      txs
        .filter((t) => t.currency_code === 'USD')
        .every((t) => t.exchange_rate_date === friday && t.exchange_rate === Number(rateOf('USD', friday))),
    ).toBe(true)
  })

  it('FINCTL_RATE_MAX_AGE_DAYS sets the reach: 0 is the same day only; a malformed value is exit 2', async () => {
    const sunday = `${YEAR}-06-08`
    const args = ['tx', 'create', '--account', usd, '--date', sunday, '--description', 'Reach', '--amount', '-1.00']
    const none = await sb.run(args, { env: { FINCTL_RATE_MAX_AGE_DAYS: '0' } })
    expect(none.code).toBe(6)
    expect(none.stderr).toMatch(/--exchange-rate is required for USD on 2025-06-08: the company's rates to EUR have none for that day;/)
    const bad = await sb.run(args, { env: { FINCTL_RATE_MAX_AGE_DAYS: 'a week' } })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('FINCTL_RATE_MAX_AGE_DAYS')
    const two = await sb.json<{ exchange_rate_date: string }>([...args, '--json'], { env: { FINCTL_RATE_MAX_AGE_DAYS: '2' } })
    expect(two.exchange_rate_date).toBe(`${YEAR}-06-06`)
  })

  it('an explicit --set exchange_rate still wins', async () => {
    const f = join(sb.dir, 'one-row-explicit-rate.csv')
    writeFileSync(f, `Date,Description,Amount\n${YEAR}-06-02,Explicit rate,-10.00\n`)
    await sb.json(['tx', 'import', f, '--account', usd, '--set', 'exchange_rate=0.5', '--json'])
    const [t] = await sb.json<Array<{ exchange_rate: number; exchange_rate_date: string | null }>>([
      'tx',
      'list',
      '--account',
      usd,
      '--search',
      'Explicit rate',
      '--json',
    ])
    expect(t).toMatchObject({ exchange_rate: 0.5, exchange_rate_date: null })
  })

  it('a statement of the USD account uploads without --exchange-rate, and a seed of it goes in the same way', async () => {
    const st = join(sb.dir, 'usd-statement-no-exchange-rate.csv')
    writeFileSync(st, `Date,Description,Amount\n${YEAR}-07-05,Statement line Saturday,-42.00\n${YEAR}-07-07,Statement line Monday,100.00\n`)
    const s = await sb.json<{ status: string; transaction_count: number; id: string }>([
      'statements',
      'upload',
      st,
      '--account',
      usd,
      '--json',
    ])
    expect(s).toMatchObject({ status: 'completed', transaction_count: 2 })
    const lines = await sb.json<Array<{ exchange_rate_date: string }>>(['statements', 'transactions', s.id, '--json'])
    expect(lines.map((l) => l.exchange_rate_date).sort()).toEqual([`${YEAR}-07-04`, `${YEAR}-07-07`])
    const seed = join(sb.dir, 'seed-usd-account-no-exchange-rate.json')
    writeFileSync(
      seed,
      JSON.stringify({
        version: 1,
        steps: [
          { account: 'us2', name: 'US seeded', account_type: 'checking', currency_code: 'USD' },
          {
            transactions: 'us2_rows',
            bank_account_id: '${accounts.us2.id}',
            items: [{ transaction_date: `${YEAR}-03-03`, description: 'Seeded in USD', amount: '-12.34' }],
          },
        ],
      }),
    )
    await sb.ok(['seed', seed])
    const [t] = await sb.json<Array<{ exchange_rate_date: string }>>(['tx', 'list', '--search', 'Seeded in USD', '--json'])
    expect(t.exchange_rate_date).toBe(`${YEAR}-03-03`)
  })
})

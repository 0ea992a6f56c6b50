/**
 * Account balances in the account's currency (docs/money.md), through both transports on
 * both stores: over random mixed-currency accounts (fast-check), `accounts get`, `accounts list` and
 * the summary report's balances agree to the cent with each other and with a model computed here
 * from the transactions created, at the last day and at a day in between; transactions in another
 * currency count by their base amount on an account in the base currency and are named
 * unconverted on one in another currency; statement lines reconcile by the amount in the account's
 * currency.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { BankAccount, CreateTransactionRequest } from '../../src/domain/schemas.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const EXP: Record<string, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0 }
const BASE = 'USD'

/** Exact minor units of a JSON amount (its shortest decimal text). */
function minor(x: number, currency: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(x))
  if (!m || (m[3] ?? '').length > EXP[currency]) throw new Error(`not an amount in ${currency}: ${x}`)
  const v = BigInt(m[2] + (m[3] ?? '').padEnd(EXP[currency], '0'))
  return m[1] ? -v : v
}
const text = (units: bigint, currency: string): string => {
  const e = EXP[currency]
  const abs = (units < 0n ? -units : units).toString().padStart(e + 1, '0')
  return `${units < 0n ? '-' : ''}${e ? `${abs.slice(0, -e)}.${abs.slice(-e)}` : abs}`
}

/** amount × rate into the base's minor units, rounded half to even once (the service's rule, written again). */
function toBase(amount: bigint, currency: string, rate: string): bigint {
  const [w, f = ''] = rate.split('.')
  let num = amount * BigInt(w + f)
  let den = 10n ** BigInt(f.length)
  const shift = EXP[BASE] - EXP[currency]
  if (shift >= 0) num *= 10n ** BigInt(shift)
  else den *= 10n ** BigInt(-shift)
  const q = num / den
  const r = num - q * den
  const twice = 2n * (r < 0n ? -r : r)
  if (twice < den) return q
  const away = r < 0n ? q - 1n : q + 1n
  return twice > den || q % 2n !== 0n ? away : q
}

interface Tx {
  account: number
  day: number
  currency: string
  units: bigint
  rate?: string
  void: boolean
}

/** The model: each account's balance in its currency and what it leaves out, counting days up to `upTo`. */
function model(accounts: Array<{ currency: string; opening: bigint }>, txs: Tx[], upTo: number) {
  return accounts.map((a, i) => {
    let balance = a.opening
    const out = new Map<string, { count: number; units: bigint }>()
    for (const t of txs) {
      if (t.account !== i || t.void || t.day > upTo) continue
      if (t.currency === a.currency) balance += t.units
      else if (a.currency === BASE) balance += toBase(t.units, t.currency, t.rate ?? '1')
      else {
        const u = out.get(t.currency) ?? { count: 0, units: 0n }
        u.count++
        u.units += t.units
        out.set(t.currency, u)
      }
    }
    const unconverted = [...out]
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([currency, u]) => ({ currency_code: currency, count: u.count, amount: text(u.units, currency) }))
    return { balance: text(balance, a.currency), unconverted }
  })
}

/** What a view says of an account, in the model's terms (exact decimal text). */
const seen = (currency: string, balance: number, unconverted: BankAccount['unconverted_transactions']) => ({
  balance: text(minor(balance, currency), currency),
  unconverted: unconverted.map((u) => ({
    currency_code: u.currency_code,
    count: u.count,
    amount: text(minor(u.amount, u.currency_code), u.currency_code),
  })),
})

const day = (i: number) => new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10)
const DAYS = 60

describe.each(MATRIX)('account balances over %s on %s', (kind, storeKind) => {
  let h: Harness
  let t: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    t = await h.tenant('Balances')
    c = h.client({ apiKey: t.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const rateArb = fc
    .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 9999 }))
    .filter(([w, f]) => w > 0 || f > 0)
    .map(([w, f]) => `${w}.${String(f).padStart(4, '0')}`)
  const txArb = (accounts: number) =>
    fc.record({
      account: fc.integer({ min: 0, max: accounts - 1 }),
      day: fc.integer({ min: 0, max: DAYS - 1 }),
      currency: fc.constantFrom('USD', 'EUR', 'GBP', 'JPY'),
      units: fc.bigInt({ min: -5_000_000n, max: 5_000_000n }).filter((x) => x !== 0n),
      rate: rateArb,
      void: fc.boolean().map((b) => b && Math.random() < 0.3),
    })
  const scenario = fc.integer({ min: 1, max: 3 }).chain((n) =>
    fc.record({
      accounts: fc.array(
        fc.record({ currency: fc.constantFrom('USD', 'EUR', 'JPY'), opening: fc.bigInt({ min: -1_000_000n, max: 1_000_000n }) }),
        { minLength: n, maxLength: n },
      ),
      txs: fc.array(txArb(n), { maxLength: 30 }),
      upTo: fc.integer({ min: 0, max: DAYS - 1 }),
    }),
  )

  it('accounts get, accounts list and the summary agree to the cent, with the model, in mixed-currency accounts (random data)', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(scenario, async ({ accounts, txs, upTo }) => {
        run++
        const ids: string[] = []
        for (const [i, a] of accounts.entries()) {
          const created = await c.accounts.create({
            name: `Run ${run} account ${i} ${Math.random().toString(36).slice(2, 8)}`,
            account_type: 'checking',
            currency_code: a.currency,
            opening_balance: text(a.opening, a.currency),
            ...(a.currency === BASE ? {} : { opening_exchange_rate: '1.5' }),
          })
          ids.push(created.id)
        }
        // A base-currency row takes no rate; the others give theirs.
        const items: CreateTransactionRequest[] = txs.map((x, i) => ({
          bank_account_id: ids[x.account],
          transaction_date: day(x.day),
          description: `row ${i}`,
          amount: text(x.units, x.currency),
          currency_code: x.currency,
          ...(x.currency === BASE ? {} : { exchange_rate: x.rate }),
        }))
        const rows: Tx[] = txs.map((x) => ({ ...x, rate: x.currency === BASE ? undefined : x.rate }))
        if (items.length) {
          const r = await c.transactions.batch(items)
          expect(r.errors).toEqual([])
          const voids = r.created.filter((_, i) => txs[i].void).map((x) => x.id)
          if (voids.length) await c.transactions.bulkUpdate({ transaction_ids: voids, updates: { status: 'void' } })
        }

        const all = model(accounts, rows, DAYS)
        const listed = new Map((await c.accounts.list()).data.map((a) => [a.id, a]))
        const summary = await c.reports.summary({ from: day(0), to: day(DAYS) })
        const byId = new Map(summary.accounts.map((a) => [a.id, a]))
        for (const [i, id] of ids.entries()) {
          const cur = accounts[i].currency
          const got = await c.accounts.get(id)
          expect(got.currency_code).toBe(cur)
          expect(seen(cur, got.current_balance, got.unconverted_transactions)).toEqual(all[i])
          const l = listed.get(id)!
          expect(seen(cur, l.current_balance, l.unconverted_transactions)).toEqual(all[i])
          const s = byId.get(id)!
          expect(s.currency_code).toBe(cur)
          expect(seen(cur, s.balance, s.unconverted_transactions)).toEqual(all[i])
          // The cash-flow report is in the base currency: for an account in it, it closes on the balance.
          if (cur === BASE) {
            const r = await c.reports.cashFlow({ from: day(0), to: day(DAYS), interval: 'quarter', bank_account_id: id })
            expect(text(minor(r.closing_balance, BASE), BASE)).toBe(all[i].balance)
          }
        }
        // At a day in between: the summary's balances at the end of `to` count the days up to it.
        const partial = model(accounts, rows, upTo)
        const earlier = new Map((await c.reports.summary({ from: day(0), to: day(upTo) })).accounts.map((a) => [a.id, a]))
        for (const [i, id] of ids.entries()) {
          const s = earlier.get(id)!
          expect(seen(accounts[i].currency, s.balance, s.unconverted_transactions)).toEqual(partial[i])
        }
      }),
      { numRuns: kind === 'embedded' && storeKind === 'sqlite' ? 25 : 10 },
    )
  })

  it('the issue’s case: EUR -120 at 1.05 on a USD account moves every view by -126.00 USD', async () => {
    const usd = await c.accounts.create({ name: 'Dollars', account_type: 'checking', currency_code: 'USD', opening_balance: '25799.75' })
    await c.transactions.create({
      bank_account_id: usd.id,
      transaction_date: day(3),
      description: 'Conference',
      amount: '-120',
      currency_code: 'EUR',
      exchange_rate: '1.05',
    })
    const got = await c.accounts.get(usd.id)
    expect([got.current_balance, got.unconverted_transactions]).toEqual([25673.75, []])
    expect((await c.accounts.list()).data.find((a) => a.id === usd.id)?.current_balance).toBe(25673.75)
    const s = await c.reports.summary({ from: day(0), to: day(DAYS), bank_account_id: usd.id })
    expect(s.accounts).toEqual([{ id: usd.id, name: 'Dollars', currency_code: 'USD', balance: 25673.75, unconverted_transactions: [] }])
    expect(s.net).toBe(-126)
  })

  it('an account in another currency than the base leaves out what has no rate into its currency, and names it', async () => {
    const eur = await c.accounts.create({
      name: 'Euros',
      account_type: 'checking',
      currency_code: 'EUR',
      opening_balance: '100.00',
      opening_exchange_rate: '1.1',
    })
    await c.transactions.batch([
      { bank_account_id: eur.id, transaction_date: day(1), description: 'Euro row', amount: '-10.00', exchange_rate: '1.1' },
      {
        bank_account_id: eur.id,
        transaction_date: day(2),
        description: 'Pound row',
        amount: '-5.00',
        currency_code: 'GBP',
        exchange_rate: '1.25',
      },
      {
        bank_account_id: eur.id,
        transaction_date: day(2),
        description: 'Pound row',
        amount: '-2.50',
        currency_code: 'GBP',
        exchange_rate: '1.3',
      },
      { bank_account_id: eur.id, transaction_date: day(4), description: 'Dollar row', amount: '7.00', currency_code: 'USD' },
    ])
    const got = await c.accounts.get(eur.id)
    expect(got.current_balance).toBe(90)
    expect(got.unconverted_transactions).toEqual([
      { currency_code: 'GBP', count: 2, amount: -7.5 },
      { currency_code: 'USD', count: 1, amount: 7 },
    ])
    const s = await c.reports.summary({ from: day(0), to: day(2), bank_account_id: eur.id })
    expect(s.accounts[0]).toMatchObject({
      balance: 90,
      currency_code: 'EUR',
      unconverted_transactions: [{ currency_code: 'GBP', count: 2, amount: -7.5 }],
    })
  })

  describe('statement lines reconcile by the amount in the account’s currency', () => {
    const csv = (rows: string[]) => Buffer.from(`Date,Description,Amount\n${rows.join('\n')}\n`).toString('base64')

    it('a USD line of -126.00 reconciles the EUR -120 at 1.05; a line of -120.00 does not', async () => {
      const usd = await c.accounts.create({ name: 'Reconciled', account_type: 'checking', currency_code: 'USD' })
      const tx = await c.transactions.create({
        bank_account_id: usd.id,
        transaction_date: '2025-03-10',
        description: 'Conference Berlin',
        amount: '-120',
        currency_code: 'EUR',
        exchange_rate: '1.05',
      })
      const wrong = await c.statements.upload({
        bank_account_id: usd.id,
        file_name: 'wrong.csv',
        content_base64: csv(['2025-03-10,Conference Berlin,-120.00']),
      })
      expect(await c.statements.wait(wrong.id)).toMatchObject({ status: 'completed', matched_count: 0, transaction_count: 1 })
      expect((await c.transactions.get(tx.id)).is_reconciled).toBe(false)

      const right = await c.statements.upload({
        bank_account_id: usd.id,
        file_name: 'right.csv',
        content_base64: csv(['2025-03-11,Conference Berlin,-126.00']),
      })
      expect(await c.statements.wait(right.id)).toMatchObject({ status: 'completed', matched_count: 1, transaction_count: 1 })
      expect(await c.transactions.get(tx.id)).toMatchObject({ is_reconciled: true, bank_statement_id: right.id })
      // -120.00 from the first statement, -126.00 the EUR row: nothing counted twice.
      expect((await c.accounts.get(usd.id)).current_balance).toBe(-246)
    })

    it('an imported EUR row pairs with the statement’s -126.00 line (match_statement_lines), the other way round', async () => {
      const usd = await c.accounts.create({ name: 'Paired', account_type: 'checking', currency_code: 'USD' })
      const st = await c.statements.upload({
        bank_account_id: usd.id,
        file_name: 'first.csv',
        content_base64: csv(['2025-04-02,Hotel Paris,-126.00']),
      })
      await c.statements.wait(st.id)
      const r = await c.transactions.batchMinimal(
        [
          {
            bank_account_id: usd.id,
            transaction_date: '2025-04-01',
            description: 'Hotel Paris',
            amount: '-120',
            currency_code: 'EUR',
            exchange_rate: '1.05',
            import_ref: 'hotel.1',
          },
        ],
        { matchStatementLines: true },
      )
      expect(r.created).toEqual([])
      expect(r.matched).toHaveLength(1)
      expect((await c.accounts.get(usd.id)).current_balance).toBe(-126)
    })
  })
})

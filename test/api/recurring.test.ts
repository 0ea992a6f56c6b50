/**
 * Recurring items and the forecast through both transports on both stores: detect (a rent, a
 * subscription whose latest payment is missing, noise left out), accept (twice: one event), list
 * with the missed payment named, add by hand, delete; the forecast's start (the cash flow's
 * balance), its items on their dates, the unspent budget spread exactly, a scenario, an item in
 * another currency as an estimate; scopes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const DAY = 86_400_000
const iso = (t: number) => new Date(t).toISOString().slice(0, 10)
/** The day `day` (clamped to 28) of the month `back` months before the month of `t`. */
function monthsBack(t: number, back: number, day: number): string {
  const d = new Date(t)
  return iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, Math.min(day, 28)))
}

async function refused(p: Promise<unknown>, status: number): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).status, (e as AppError).message).toBe(status)
  return e as AppError
}

describe.each(MATRIX)('recurring items and the forecast over %s on %s', (kind, storeKind) => {
  let h: Harness
  let t: Tenant
  let c: Client
  const now = Date.now()
  const today = iso(now)
  const rentBase = now - 2 * DAY
  const subBase = now - 10 * DAY

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    t = await h.tenant('Recurring')
    c = h.client({ apiKey: t.key })
    const rows = [
      ...Array.from({ length: 8 }, (_, k) => ({
        transaction_date: monthsBack(rentBase, k, new Date(rentBase).getUTCDate()),
        description: `RENT ${k} REF ${1000 + k}`,
        merchant_name: 'Landlord Ltd',
        amount: '-1500.00',
        category: 'Rent',
      })),
      // Paid monthly until last month: this month's payment is missing.
      ...Array.from({ length: 6 }, (_, k) => ({
        transaction_date: monthsBack(subBase, k + 1, new Date(subBase).getUTCDate()),
        description: `STREAMCO ${20000 + k} SUBSCRIPTION`,
        amount: '-15.99',
        category: 'Software',
      })),
      // Noise: a café at random-looking days.
      ...[3, 7, 8, 15, 19, 26, 33, 34, 41, 50, 52, 58].map((d, i) => ({
        transaction_date: iso(now - d * DAY),
        description: 'CAFE CORNER',
        amount: `-${(3.5 + (i % 5) * 0.7).toFixed(2)}`,
        category: 'Meals',
      })),
    ]
    const r = await c.transactions.batch(rows.map((x) => ({ bank_account_id: t.accountId, ...x })))
    expect(r.errors).toEqual([])
  })
  afterAll(async () => {
    await h?.close()
  })

  it('detects the rent and the subscription, not the café; the same ids again', async () => {
    const d = await c.recurring.detect()
    expect(d.scanned).toBe(8 + 6 + 12)
    expect(d.items.map((i) => [i.name, i.interval, i.amount, i.status])).toEqual([
      ['Landlord Ltd', 'monthly', -1500, 'suggested'],
      ['STREAMCO 20000 SUBSCRIPTION', 'monthly', -15.99, 'suggested'],
    ])
    const rent = d.items[0]
    expect(rent.transactions).toHaveLength(8)
    expect(rent.occurrences).toBe(8)
    expect(rent.category).toBe('Rent')
    expect(rent.bank_account_id).toBe(t.accountId)
    expect(rent.next_expected).toBe(monthsBack(rentBase, -1, new Date(rentBase).getUTCDate()))
    const again = await c.recurring.detect()
    expect(again.items.map((i) => i.id)).toEqual(d.items.map((i) => i.id))
    expect((await c.recurring.list({ status: 'suggested' })).map((i) => i.id)).toEqual(d.items.map((i) => i.id))
  })

  it('accepts once (again: the same, no second event); an overdue payment is named missed', async () => {
    const [rent, sub] = await c.recurring.list({ status: 'suggested' })
    const a = await c.recurring.accept(rent.id)
    expect(a).toMatchObject({ status: 'accepted', missed: null })
    expect(await c.recurring.accept(rent.id)).toEqual(a)
    const s = await c.recurring.accept(sub.id)
    const due = monthsBack(subBase, 0, new Date(subBase).getUTCDate())
    const by = iso(Date.parse(due) + 3 * DAY)
    expect(s.missed).toEqual({ expected: due, not_seen_by: by, message: `STREAMCO 20000 SUBSCRIPTION not seen by ${by}` })
    expect((await c.recurring.list()).map((i) => i.name)).toEqual(['Landlord Ltd', 'STREAMCO 20000 SUBSCRIPTION'])
    expect((await c.events.list({ type: 'recurring.accepted' })).data).toHaveLength(2)
    // Detecting again keeps what was accepted.
    const d = await c.recurring.detect()
    expect(d.items.map((i) => i.status)).toEqual(['accepted', 'accepted'])
    await refused(c.recurring.accept('00000000-0000-4000-8000-000000000000'), 404)
  })

  it('forecasts from the cash flow balance, with the items on their dates and the unspent budget spread exactly', async () => {
    await c.budgets.set({ category: 'Meals', monthly: '310.00', from: today.slice(0, 7), to: today.slice(0, 7) })
    const f = await c.forecast.run({ days: 45, items: true })
    expect(f.from).toBe(today)
    expect(f.days).toHaveLength(45)
    const flow = await c.reports.cashFlow({ from: today, to: today })
    expect(f.starting_balance).toBe(flow.opening_balance)
    const items = f.days.flatMap((d) => d.items.map((i) => ({ ...i, date: d.date })))
    const rentDue = monthsBack(rentBase, -1, new Date(rentBase).getUTCDate())
    expect(items.filter((i) => i.name === 'Landlord Ltd').map((i) => [i.date, i.amount])).toContainEqual([rentDue, -1500])
    // The missed subscription is expected on the first day, marked overdue.
    expect(items.find((i) => i.name.startsWith('STREAMCO'))).toMatchObject({ date: today, overdue: true, amount: -15.99 })
    // Meals: 310.00 less this month's café so far, spread to the month's end, to the cent.
    const summary = await c.reports.summary({
      from: `${today.slice(0, 7)}-01`,
      to: iso(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 0)),
    })
    const spent = -(summary.by_category.find((b) => b.category === 'Meals')?.amount ?? 0)
    const spread = items.filter((i) => i.name === 'budget: Meals' && i.date.slice(0, 7) === today.slice(0, 7))
    const cents = (n: number) => Math.round(n * 100)
    expect(spread.reduce((s, i) => s + cents(i.amount), 0)).toBe(-(31000 - cents(spent)))
    // The balance adds up day by day; the lowest day is the first with the least.
    let b = cents(f.starting_balance)
    for (const d of f.days) {
      b += d.items.reduce((s, i) => s + cents(i.amount), 0)
      expect(cents(d.balance)).toBe(b)
    }
    const least = Math.min(...f.days.map((d) => cents(d.balance)))
    expect(f.lowest).toEqual({ date: f.days.find((d) => cents(d.balance) === least)!.date, balance: least / 100 })
  })

  it('a scenario adds and removes items; a name it cannot find is refused', async () => {
    const start = iso(now + 5 * DAY)
    const f = await c.forecast.run({
      days: 40,
      items: true,
      scenario: {
        add: [{ name: 'new hire', amount: '-6000.00', interval: 'monthly', start }],
        remove: ['streamco 20000 subscription', 'budget:Meals'],
      },
    })
    const items = f.days.flatMap((d) => d.items.map((i) => ({ ...i, date: d.date })))
    expect(items.filter((i) => i.name === 'new hire').map((i) => i.date)).toContain(start)
    expect(items.some((i) => i.name.startsWith('STREAMCO') || i.name === 'budget: Meals')).toBe(false)
    const e = await refused(c.forecast.run({ days: 10, scenario: { remove: ['nothing like it'] } }), 400)
    expect(e.details?.[0].path).toBe('scenario.remove')
  })

  it('adds an item by hand; one in another currency is an estimate at the latest rate; deletes', async () => {
    await refused(
      c.recurring
        .add({ name: 'Cloud', amount: '-100.00', currency: 'EUR', interval: 'monthly', start: iso(now + 3 * DAY) })
        .then(() => c.forecast.run({ days: 10 })),
      400,
    )
    await c.rates.set(iso(now - 40 * DAY), 'EUR', { rate: '1.1' })
    await c.rates.set(iso(now - 5 * DAY), 'EUR', { rate: '1.25' })
    const f = await c.forecast.run({ days: 10, items: true })
    const cloud = f.days.flatMap((d) => d.items).find((i) => i.name === 'Cloud')
    expect(cloud).toMatchObject({ amount: -125, original: { amount: -100, currency: 'EUR' }, estimate: true })
    expect(f).toMatchObject({ estimate: true, rates: [{ currency: 'EUR', rate: '1.25', date: iso(now - 5 * DAY) }] })
    const id = (await c.recurring.list()).find((i) => i.name === 'Cloud')!.id
    expect(await c.recurring.delete(id)).toEqual({ id, deleted: true })
    expect((await c.recurring.list()).map((i) => i.name)).not.toContain('Cloud')
  })

  it('reads with read; detecting and accepting need write', async () => {
    const readKey = await h.client({ token: t.token }).keys.create({ name: 'reader', scopes: ['read'] })
    const reader = h.client({ apiKey: readKey.key })
    expect((await reader.recurring.list()).length).toBeGreaterThan(0)
    const quiet = await reader.forecast.run({ days: 5 })
    expect(quiet.days).toHaveLength(5)
    expect(quiet.days.every((d) => d.items.length === 0)).toBe(true)
    expect((await refused(reader.recurring.detect(), 403)).code).toBe('forbidden')
    await refused(reader.recurring.add({ name: 'x', amount: '-1', interval: 'weekly', start: today }), 403)
  })
})

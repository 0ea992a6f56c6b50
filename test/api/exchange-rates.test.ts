/**
 * Exchange rates through both transports on both stores: import (ECB and plain), list,
 * set, delete, and conversion by the transaction's date in create, batch, update and statements.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const FIXTURES = join(import.meta.dirname, '../fixtures/rates')
const file = (name: string) => readFileSync(join(FIXTURES, name))
const b64 = (name: string) => file(name).toString('base64')

async function rejects(p: Promise<unknown>, status: number): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).status, (e as AppError).message).toBe(status)
  return e as AppError
}

describe.each(MATRIX)('exchange rates over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let eur: string

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Rates')
    c = h.client({ apiKey: a.key })
    eur = (await c.accounts.create({ name: 'Berlin', account_type: 'checking', currency_code: 'EUR' })).id
  })
  afterAll(async () => {
    await h?.close()
  })

  it('imports the ECB history into the USD base through EUR cross rates; again, it replaces', async () => {
    const first = await c.rates.import({
      file_name: 'eurofxref-hist.csv',
      content_base64: b64('ecb-eurofxref-hist-sample-na-trailing-comma.csv'),
    })
    expect(first).toMatchObject({ replaced: 0, from: '2007-12-31', to: '2024-01-05' })
    expect(first.currencies).toContain('EUR')
    expect(first.currencies).toContain('LTL')
    expect(first.currencies).not.toContain('USD')
    expect(first.imported).toBeGreaterThan(100)
    expect(first.skipped).toBeGreaterThan(0)
    const list = await c.rates.list({ from: '2024-01-05', to: '2024-01-05', limit: 1000 })
    const on = (cur: string) => list.data.find((r) => r.currency === cur)
    // USD per EUR as published; USD per JPY = 1.0921 / 158.41; USD per LTL in 2014 = 1.2141 / 3.4528
    expect(on('EUR')).toMatchObject({ date: '2024-01-05', rate: '1.0921', source: 'ecb' })
    expect(on('JPY')?.rate).toBe('0.00689413547125')
    expect(on('CYP')).toBeUndefined()
    const ltl = await c.rates.list({ currency: 'LTL', from: '2014-12-31', to: '2014-12-31' })
    expect(ltl.data.map((r) => r.rate)).toEqual(['0.351627664504'])
    const again = await c.rates.import({
      file_name: 'eurofxref-hist.csv',
      format: 'ecb',
      content_base64: b64('ecb-eurofxref-hist-sample-na-trailing-comma.csv'),
    })
    expect(again).toMatchObject({ imported: 0, replaced: first.imported })
  })

  it('pages the list by date then currency, with a total', async () => {
    const p1 = await c.rates.list({ from: '2024-01-04', to: '2024-01-05', limit: 10 })
    expect(p1.pagination).toMatchObject({ limit: 10, has_more: true })
    const p2 = await c.rates.list({ from: '2024-01-04', to: '2024-01-05', limit: 10, cursor: p1.pagination!.next_cursor! })
    const keys = [...p1.data, ...p2.data].map((r) => `${r.date} ${r.currency}`)
    expect(keys).toEqual([...keys].sort())
    expect(new Set(keys).size).toBe(20)
  })

  it('refuses a plain file with bad lines whole, naming them', async () => {
    const before = (await c.rates.list({ currency: 'USD' })).pagination?.total
    const e = await rejects(c.rates.import({ file_name: 'bad.csv', content_base64: b64('plain-bad-lines-refused-whole.csv') }), 400)
    expect(e.message).toMatch(/3 bad lines, nothing was imported: line 3: date "2026-13-01" is not YYYY-MM-DD; line 4/)
    expect((await c.rates.list({ currency: 'USD' })).pagination?.total).toBe(before)
    await rejects(c.rates.import({ file_name: 'x.csv', content_base64: Buffer.from('a,b\n1,2\n').toString('base64') }), 400)
  })

  it('set, replace and delete one rate; the base currency and bad rates are 400, a missing one 404', async () => {
    const set = await c.rates.set('2025-06-02', 'GBP', { rate: '1.27' })
    expect(set).toMatchObject({ date: '2025-06-02', currency: 'GBP', rate: '1.27', source: 'manual' })
    expect(await c.rates.set('2025-06-02', 'GBP', { rate: 1.2705, source: 'bank' })).toMatchObject({ rate: '1.2705', source: 'bank' })
    expect((await c.rates.list({ currency: 'GBP', from: '2025-06-02' })).data.map((r) => r.rate)).toEqual(['1.2705'])
    expect((await rejects(c.rates.set('2025-06-02', 'USD', { rate: '1' }), 400)).message).toMatch(/base currency USD/)
    expect((await rejects(c.rates.set('2025-06-02', 'GBP', { rate: '-1' }), 400)).details?.[0].path).toBe('rate')
    await rejects(c.rates.set('2025-02-30', 'GBP', { rate: '1' }), 400)
    expect(await c.rates.delete('2025-06-02', 'GBP')).toEqual({ date: '2025-06-02', currency: 'GBP', deleted: true })
    await rejects(c.rates.delete('2025-06-02', 'GBP'), 404)
  })

  it("a create without exchange_rate takes the rate of its date, or of the latest earlier day within 7 days; the rate's date is kept", async () => {
    const fri = await c.transactions.create({
      bank_account_id: eur,
      transaction_date: '2024-01-05',
      description: 'Friday',
      amount: '-100.00',
    })
    expect(fri).toMatchObject({ currency_code: 'EUR', exchange_rate: 1.0921, exchange_rate_date: '2024-01-05' })
    const sun = await c.transactions.create({
      bank_account_id: eur,
      transaction_date: '2024-01-07',
      description: 'Sunday',
      amount: '-100.00',
    })
    expect(sun).toMatchObject({ exchange_rate: 1.0921, exchange_rate_date: '2024-01-05' })
    const given = await c.transactions.create({
      bank_account_id: eur,
      transaction_date: '2024-01-07',
      description: 'Given',
      amount: '-100.00',
      exchange_rate: '1.1',
    })
    expect(given).toMatchObject({ exchange_rate: 1.1, exchange_rate_date: null })
    const usd = await c.transactions.create({
      bank_account_id: a.accountId,
      transaction_date: '2024-01-07',
      description: 'Base',
      amount: '-1.00',
    })
    expect(usd).toMatchObject({ exchange_rate: 1, exchange_rate_date: null })
    // A row's own currency (JPY on the EUR account) converts at the JPY rate, by JPY's exponent
    const yen = await c.transactions.create({
      bank_account_id: eur,
      transaction_date: '2024-01-05',
      description: 'Yen',
      amount: '-1500',
      currency_code: 'JPY',
    })
    expect(yen).toMatchObject({ amount: -1500, exchange_rate: 0.00689413547125, exchange_rate_date: '2024-01-05' })
    const e = await rejects(
      c.transactions.create({ bank_account_id: eur, transaction_date: '2024-01-13', description: 'Too late', amount: '-1.00' }),
      400,
    )
    expect(e.message).toMatch(/EUR on 2024-01-13/)
    expect(e.message).toContain('finctl rates import')
    expect(e.details?.[0].path).toBe('exchange_rate')
    // 2024-01-12 is 7 days after 2024-01-05: still in reach
    expect(
      await c.transactions.create({ bank_account_id: eur, transaction_date: '2024-01-12', description: 'In reach', amount: '-1.00' }),
    ).toMatchObject({ exchange_rate_date: '2024-01-05' })
  })

  it('the base amount is exact: the summary report in USD adds amount x rate rounded half-even per row', async () => {
    const acct = (await c.accounts.create({ name: 'Report EUR', account_type: 'checking', currency_code: 'EUR' })).id
    await c.transactions.create({ bank_account_id: acct, transaction_date: '2007-12-31', description: 'One', amount: '-33.33' })
    await c.transactions.create({ bank_account_id: acct, transaction_date: '2007-12-31', description: 'Two', amount: '-0.05' })
    const s = await c.reports.summary({ from: '2007-12-31', to: '2007-12-31', bank_account_id: acct })
    // -33.33 x 1.4721 = -49.065093 -> -49.07; -0.05 x 1.4721 = -0.073605 -> -0.07
    expect(s.expenses).toBe(49.14)
  })

  it('a batch converts each row by its own date and currency; a row without a rate in reach is an error by index', async () => {
    const r = await c.transactions.batch([
      { bank_account_id: eur, transaction_date: '2024-01-04', description: 'B1', amount: '-1.00' },
      { bank_account_id: eur, transaction_date: '2024-02-01', description: 'B2', amount: '-2.00' },
      { bank_account_id: eur, transaction_date: '2024-01-06', description: 'B3', amount: '-3.00', currency_code: 'GBP' },
      { bank_account_id: eur, transaction_date: '2014-12-31', description: 'B4', amount: '-4.00', currency_code: 'LTL' },
    ])
    expect(r.created.map((t) => [t.description, t.exchange_rate, t.exchange_rate_date])).toEqual([
      ['B1', 1.0953, '2024-01-04'],
      ['B3', 1.26939662688, '2024-01-05'],
      ['B4', 0.351627664504, '2014-12-31'],
    ])
    expect(r.errors.map((e) => [e.index, e.message])).toEqual([[1, expect.stringMatching(/EUR on 2024-02-01/)]])
  })

  it('changing the currency without a rate takes the rate of the date', async () => {
    const t = await c.transactions.create({
      bank_account_id: a.accountId,
      transaction_date: '2024-01-05',
      description: 'Was USD',
      amount: '-10.00',
    })
    const u = await c.transactions.update(t.id, { currency_code: 'GBP' })
    expect(u).toMatchObject({ currency_code: 'GBP', exchange_rate: 1.26939662688, exchange_rate_date: '2024-01-05' })
    // The history says which rate, and of which day, the change brought.
    const audit = (await c.transactions.get(t.id)).history.at(-1)
    expect(audit?.changes).toMatchObject({
      currency_code: { before: 'USD', after: 'GBP' },
      exchange_rate_date: { before: null, after: '2024-01-05' },
    })
    await rejects(c.transactions.update(t.id, { currency_code: 'CHF', transaction_date: '2023-01-01' }), 400)
  })

  it("moving a transaction to another date converts it at that date's rate when its rate came from the table; a rate given by hand stays", async () => {
    const acct = (await c.accounts.create({ name: 'Moves EUR', account_type: 'checking', currency_code: 'EUR' })).id
    const t = await c.transactions.create({
      bank_account_id: acct,
      transaction_date: '2024-01-05',
      description: 'Moved',
      amount: '-100.00',
    })
    expect(t).toMatchObject({ exchange_rate: 1.0921, exchange_rate_date: '2024-01-05' })
    const moved = await c.transactions.update(t.id, { transaction_date: '2024-01-04' })
    expect(moved).toMatchObject({ transaction_date: '2024-01-04', exchange_rate: 1.0953, exchange_rate_date: '2024-01-04' })
    // The base amount moved with it: -100.00 x 1.0953
    expect((await c.reports.summary({ from: '2024-01-04', to: '2024-01-04', bank_account_id: acct })).expenses).toBe(109.53)
    const audit = (await c.transactions.get(t.id)).history.at(-1)
    expect(audit?.changes).toMatchObject({ exchange_rate_date: { before: '2024-01-05', after: '2024-01-04' } })
    // No rate in reach of the new date: refused, nothing changed.
    const e = await rejects(c.transactions.update(t.id, { transaction_date: '2024-03-01' }), 400)
    expect(e.message).toMatch(/EUR on 2024-03-01/)
    expect(await c.transactions.get(t.id)).toMatchObject({ transaction_date: '2024-01-04', exchange_rate: 1.0953 })
    const given = await c.transactions.create({
      bank_account_id: acct,
      transaction_date: '2024-01-05',
      description: 'Given rate',
      amount: '-100.00',
      exchange_rate: '1.2',
    })
    expect(await c.transactions.update(given.id, { transaction_date: '2024-03-01' })).toMatchObject({
      exchange_rate: 1.2,
      exchange_rate_date: null,
    })
    expect((await c.reports.summary({ from: '2024-03-01', to: '2024-03-01', bank_account_id: acct })).expenses).toBe(120)
  })

  it("a EUR account's statement uploads without exchange_rate: each line at its date's rate; a line out of reach fails it whole", async () => {
    const up = await c.statements.upload({
      bank_account_id: eur,
      file_name: 'eur.csv',
      content_base64: b64('eur-account-statement-weekend-line-no-exchange-rate.csv'),
    })
    const s = await c.statements.wait(up.id)
    expect(s.error).toBeNull()
    expect(s.status).toBe('completed')
    const txs = (await c.statements.transactions(s.id)).data
    expect(txs.map((t) => [t.transaction_date, t.exchange_rate, t.exchange_rate_date]).sort()).toEqual([
      ['2024-01-04', 1.0953, '2024-01-04'],
      ['2024-01-05', 1.0921, '2024-01-05'],
      ['2024-01-06', 1.0921, '2024-01-05'],
    ])
    const bad = await c.statements.wait(
      (
        await c.statements.upload({
          bank_account_id: eur,
          file_name: 'far.csv',
          content_base64: b64('eur-account-statement-line-without-rate-in-reach.csv'),
        })
      ).id,
    )
    expect(bad.status).toBe('failed')
    expect(bad.error).toMatch(/line 3: an exchange rate is required for EUR on 2024-03-01.*finctl rates import/)
    expect((await c.transactions.list({ bank_account_id: eur, from: '2024-03-01', to: '2024-03-01' })).data).toEqual([])
  })

  it('imports a plain file as multipart/form-data too; another media type is a 415', async () => {
    const boundary = 'rates-boundary-9f2'
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="format"\r\n\r\nplain\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="plain.csv"\r\nContent-Type: text/csv\r\n\r\n`),
      file('plain-date-currency-rate.csv'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const res = await h.fetch(`${h.baseUrl}/api-v1/exchange-rates/import`, {
      method: 'POST',
      headers: { 'x-api-key': a.key, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    })
    const json = (await res.json()) as { data: { imported: number; skipped: number; currencies: string[] } }
    expect(res.status, JSON.stringify(json)).toBe(200)
    // The two USD rows are the base currency's: left out (skipped), as its rate is always 1.
    expect(json.data).toMatchObject({ imported: 1, skipped: 2, currencies: ['JPY'] })
    const listed = await c.rates.list({ currency: 'JPY', from: '2026-01-02', to: '2026-01-02' })
    expect(listed.data).toEqual([expect.objectContaining({ rate: '0.0061', source: 'file:plain.csv' })])
    const text = await h.fetch(`${h.baseUrl}/api-v1/exchange-rates/import`, {
      method: 'POST',
      headers: { 'x-api-key': a.key, 'content-type': 'text/csv' },
      body: 'date,currency,rate\n',
    })
    expect(text.status).toBe(415)
  })

  it('rates are per company: another tenant sees none', async () => {
    const b = await h.tenant('Other')
    expect((await h.client({ apiKey: b.key }).rates.list()).data).toEqual([])
  })
})

/**
 * A company's exchange-rate table: list, set, delete, and import a file (ECB or plain). Rates are
 * stored as units of the base currency per 1 unit of a currency; ECB quotes (per 1 EUR) are turned
 * into that through EUR cross rates: rate(C -> B) = (B per EUR) / (C per EUR), to 12 significant
 * digits, half-even, in exact decimal arithmetic.
 */
import { AppError, notFound, validation } from '../../kernel/errors.js'
import { divideRates, parseRate } from '../../kernel/money.js'
import { parseRatesFile, RatesFileError, type RateFileFormat } from '../../import/rates.js'
import type { ExchangeRateRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { baseCurrency } from '../accounts/companies.js'
import type { ExchangeRate, ExchangeRateListQuery, RatesImportResult, SetExchangeRateRequest } from './schemas.js'
import { eventRow, recordEvents } from '../events.js'
import { count } from '../../kernel/words.js'

/** Significant digits of a rate computed from ECB quotes. */
export const CROSS_RATE_DIGITS = 12
const INSERT_CHUNK = 500

function toRate(r: ExchangeRateRow): ExchangeRate {
  return { date: r.rate_date, currency: r.currency_code, rate: r.rate, source: r.source, created_at: r.created_at }
}

function cursorOf(r: ExchangeRateRow): string {
  return Buffer.from(`${r.rate_date}|${r.currency_code}`).toString('base64url')
}

function readCursor(cursor: string): [string, string] {
  const [date, currency] = Buffer.from(cursor, 'base64url').toString('utf8').split('|')
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date ?? '') || !/^[A-Z]{3}$/.test(currency ?? ''))
    throw validation('cursor', 'is not a cursor of this list')
  return [date, currency]
}

/** Rates by date, then currency; `currency`, `from` and `to` narrow the list. */
export async function listRates(store: Store, companyId: string, q: ExchangeRateListQuery) {
  const limit = q.limit ?? 50
  let base = store.db.selectFrom('exchange_rates').where('company_id', '=', companyId)
  if (q.currency) base = base.where('currency_code', '=', q.currency)
  if (q.from) base = base.where('rate_date', '>=', q.from)
  if (q.to) base = base.where('rate_date', '<=', q.to)
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
  let page = base.selectAll()
  if (q.cursor) {
    const [date, currency] = readCursor(q.cursor)
    page = page.where((eb) => eb.or([eb('rate_date', '>', date), eb.and([eb('rate_date', '=', date), eb('currency_code', '>', currency)])]))
  }
  const rows = await page
    .orderBy('rate_date')
    .orderBy('currency_code')
    .limit(limit + 1)
    .execute()
  const more = rows.length > limit
  const data = rows.slice(0, limit)
  return {
    data: data.map(toRate),
    pagination: { limit, next_cursor: more ? cursorOf(data[data.length - 1]) : null, has_more: more, total },
  }
}

async function checkCurrency(store: Store, companyId: string, currency: string): Promise<string> {
  const base = await baseCurrency(store, companyId)
  if (currency === base) throw validation('currency', `is the company's base currency ${base}: its rate is always 1`)
  return base
}

/** Set (or replace) the rate of one currency on one day. */
export async function setRate(
  store: Store,
  actor: Actor,
  date: string,
  currency: string,
  body: SetExchangeRateRequest,
  now: Date,
): Promise<ExchangeRate> {
  await checkCurrency(store, actor.companyId, currency)
  const rate = parseRate(body.rate)
  if (!rate) throw validation('rate', 'must be a positive decimal number')
  const ts = now.toISOString()
  const row = {
    company_id: actor.companyId,
    currency_code: currency,
    rate_date: date,
    rate,
    source: body.source ?? 'manual',
    created_at: ts,
    updated_at: ts,
  }
  await store.db
    .insertInto('exchange_rates')
    .values(row)
    .onConflict((oc) => oc.columns(['company_id', 'currency_code', 'rate_date']).doUpdateSet({ rate, source: row.source, updated_at: ts }))
    .execute()
  const stored = await store.db
    .selectFrom('exchange_rates')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('currency_code', '=', currency)
    .where('rate_date', '=', date)
    .executeTakeFirstOrThrow()
  return toRate(stored)
}

export async function deleteRate(
  store: Store,
  actor: Actor,
  date: string,
  currency: string,
): Promise<{ date: string; currency: string; deleted: true }> {
  const r = await store.db
    .deleteFrom('exchange_rates')
    .where('company_id', '=', actor.companyId)
    .where('currency_code', '=', currency)
    .where('rate_date', '=', date)
    .executeTakeFirst()
  if (Number(r.numDeletedRows) === 0) throw notFound(`exchange rate of ${currency} on ${date}`)
  return { date, currency, deleted: true }
}

interface RateInput {
  date: string
  currency: string
  rate: string
}

/** The rates of an ECB file in the base currency: (base per EUR) / (currency per EUR) for every quote of a day that has the base. */
function fromEcb(days: Array<{ date: string; perEur: Map<string, string> }>, base: string): { rates: RateInput[]; skipped: number } {
  const rates: RateInput[] = []
  let skipped = 0
  for (const day of days) {
    const quotes = new Map(day.perEur)
    quotes.set('EUR', '1')
    const basePerEur = quotes.get(base)
    if (!basePerEur) {
      // No quote of the base that day: none of the day's rates can be expressed in it.
      skipped += day.perEur.size
      continue
    }
    for (const [currency, perEur] of quotes) {
      if (currency === base) continue
      rates.push({ date: day.date, currency, rate: currency === 'EUR' ? basePerEur : divideRates(basePerEur, perEur, CROSS_RATE_DIGITS) })
    }
  }
  return { rates, skipped }
}

/**
 * Import a rates file: every rate is written, or none (one database transaction); a bad line refuses
 * the file, naming up to five of them. Rates of the base currency itself are left out (always 1).
 */
export async function importRates(
  store: Store,
  actor: Actor,
  file: { name: string; text: string; format?: RateFileFormat },
  now: Date,
): Promise<RatesImportResult> {
  const base = await baseCurrency(store, actor.companyId)
  let parsed: ReturnType<typeof parseRatesFile>
  try {
    parsed = parseRatesFile(file.text, file.format)
  } catch (e) {
    if (e instanceof RatesFileError) throw validation('file', e.message)
    throw e
  }
  if (parsed.errors.length) {
    const more = parsed.errors.length > 5 ? ` (and ${parsed.errors.length - 5} more)` : ''
    throw new AppError(
      'validation_error',
      `the rates file has ${count(parsed.errors.length, 'bad line')}, nothing was imported: ${parsed.errors.slice(0, 5).join('; ')}${more}`,
      {
        details: parsed.errors.slice(0, 20).map((m) => ({ path: 'file', message: m })),
      },
    )
  }
  let rates: RateInput[]
  let skipped = parsed.missing
  let source: string
  if (parsed.format === 'ecb') {
    const r = fromEcb(parsed.days, base)
    rates = r.rates
    skipped += r.skipped
    source = 'ecb'
  } else {
    rates = parsed.rates.filter((r) => r.currency !== base)
    skipped += parsed.rates.length - rates.length
    source = `file:${file.name}`.slice(0, 100)
  }
  // One rate per currency and day: the last one of the file wins.
  const unique = new Map<string, RateInput>()
  for (const r of rates) unique.set(`${r.currency}|${r.date}`, r)
  rates = [...unique.values()]
  const dates = rates.map((r) => r.date).sort()
  const from = dates[0] ?? null
  const to = dates[dates.length - 1] ?? null
  const currencies = [...new Set(rates.map((r) => r.currency))].sort()
  const ts = now.toISOString()
  let replaced = 0
  await store.writeTransaction(async (trx) => {
    if (from && to) {
      const existing = new Set<string>()
      const rows = await trx
        .selectFrom('exchange_rates')
        .select(['currency_code', 'rate_date'])
        .where('company_id', '=', actor.companyId)
        .where('rate_date', '>=', from)
        .where('rate_date', '<=', to)
        .execute()
      for (const r of rows) existing.add(`${r.currency_code}|${r.rate_date}`)
      for (const r of rates) if (existing.has(`${r.currency}|${r.date}`)) replaced++
    }
    for (let i = 0; i < rates.length; i += INSERT_CHUNK) {
      const values = rates.slice(i, i + INSERT_CHUNK).map((r) => ({
        company_id: actor.companyId,
        currency_code: r.currency,
        rate_date: r.date,
        rate: r.rate,
        source,
        created_at: ts,
        updated_at: ts,
      }))
      await trx
        .insertInto('exchange_rates')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['company_id', 'currency_code', 'rate_date']).doUpdateSet((eb) => ({
            rate: eb.ref('excluded.rate'),
            source: eb.ref('excluded.source'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute()
    }
    const result = { imported: rates.length - replaced, replaced, skipped, currencies, from, to, notes: parsed.notes }
    if (rates.length) await recordEvents(store, trx, [eventRow(actor, 'rate.imported', null, { ...result, source }, now)])
  })
  return { imported: rates.length - replaced, replaced, skipped, currencies, from, to, notes: parsed.notes }
}

/**
 * What each bank layout pins that detection alone gets wrong or cannot decide, on the
 * files of test/fixtures/csv-layouts (bank-layouts.test.ts reads each one's count and sum), and that
 * no file is recognised by two layouts.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BANK_LAYOUTS } from '../../src/import/bank-layouts.js'
import { layoutsOf } from '../../src/import/layouts.js'
import { accountRefusal } from '../../src/import/own-account.js'
import { planImport } from '../../src/import/plan.js'
import { readRecords, sniffLayout } from '../../src/import/read-rows.js'
import { bankFile, HAS_BANK_FILES, listBankFiles } from '../helpers/bank-files.js'
import { readLayoutBytes, readLayoutFile } from '../helpers/layout-read.js'

const LAYOUTS = join(import.meta.dirname, '..', 'fixtures', 'csv-layouts')
const file = (name: string) => join(LAYOUTS, readdirSync(LAYOUTS).find((f) => f.startsWith(name))!)
const amounts = (r: Awaited<ReturnType<typeof readLayoutFile>>) => r.rows.map((x) => [x.line, x.request.amount, x.request.currency_code])

/** The layouts that would recognise a file, each by itself. */
async function recognisers(path: string): Promise<string[]> {
  const records = []
  for await (const rec of readRecords(path, await sniffLayout(path))) if (records.push(rec) > 50) break
  return layoutsOf(records).map((l) => l.name)
}

describe('one layout a file', () => {
  it.each(readdirSync(LAYOUTS).filter((f) => f.endsWith('.csv')))('%s is recognised by one layout at most', async (name) => {
    expect((await recognisers(join(LAYOUTS, name))).length).toBeLessThanOrEqual(1)
  })

  it.skipIf(!HAS_BANK_FILES).each(listBankFiles('csv'))('the corpus file %s is recognised by one layout at most', async (name) => {
    expect((await recognisers(bankFile('csv', name))).length).toBeLessThanOrEqual(1)
  })

  it('every layout has a name of its own and an id of its own', () => {
    expect(new Set(BANK_LAYOUTS.map((l) => l.name)).size).toBe(BANK_LAYOUTS.length)
    expect(new Set(BANK_LAYOUTS.map((l) => l.id)).size).toBe(BANK_LAYOUTS.length)
  })

  it('docs/csv-mapping.md lists every layout, and no other, in "Bank layouts finctl knows"', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'csv-mapping.md'), 'utf8')
    const section = doc.slice(doc.indexOf('## Bank layouts finctl knows'), doc.indexOf('## How the encoding rule was chosen'))
    const listed = [...section.matchAll(/^\| ([^|]+?) \| .+ \|$/gm)].map((m) => m[1]).filter((n) => !/^(layout |---)/.test(n))
    expect(listed.sort()).toEqual(BANK_LAYOUTS.map((l) => l.name).sort())
  })
})

describe('what a layout pins', () => {
  it('PayPal: the net (the gross less its fee, the fee not taken off again), a memo no movement, each currency its own sum', async () => {
    const r = await readLayoutFile(file('us-paypal-activity'))
    expect(amounts(r)).toEqual([
      [2, '1206.07', 'EUR'],
      [3, '-45.90', 'EUR'],
      [5, '-25.00', 'USD'],
      [6, '25.00', 'USD'],
      [7, '-23.12', 'EUR'],
      [8, '-1000.00', 'EUR'],
    ])
    expect(r.skipped).toEqual([{ line: 4, reason: expect.stringMatching(/^Balance Impact is "Memo": an authorization or a hold/) }])
    // The payment in dollars and its conversion leave the dollar balance as it was; the euros paid are the euro row.
    expect(r.sum).toBe('137.05 EUR, 0.00 USD')
  })

  it('PayPal, older export: a quoted amount after a space (`, "20,00"`) is one field, its decimal comma kept', async () => {
    const r = await readLayoutFile(file('de-paypal-older'))
    expect(amounts(r).map(([, a]) => a)).toEqual(['82.26', '-120.00', '1158.85', '-2000.00', '-82.47'])
    expect(r.notes).not.toContain('ragged')
  })

  it('DKB: "-1.000" is a thousand euros and "3.150" three thousand, which two rows alone cannot show', async () => {
    const header = readFileSync(file('de-dkb-giro'), 'utf8').split('\n').slice(0, 5)
    const two = [
      ...header,
      '"15.05.24";"15.05.24";"Gebucht";"Jana Falk";"Wohnbau Süd eG";"Miete";"Ausgang";"DE12500105170648489890";"-1.000";"";"";""',
      '"27.05.24";"27.05.24";"Gebucht";"Firma Nordlicht GmbH";"Jana Falk";"Gehalt";"Eingang";"DE44500105175407324931";"3.150";"";"";""',
    ].join('\n')
    const bytes = new TextEncoder().encode(two)
    expect(amounts(await readLayoutBytes(bytes)).map(([, a]) => a)).toEqual(['-1000.00', '3150.00'])
    // Without the layout the dates are refused as ambiguous; given them, the amounts read as -1.00 and 3.15.
    await expect(readLayoutBytes(bytes, { layouts: false })).rejects.toThrow(/the dates could be/)
    const guessed = await readLayoutBytes(bytes, { layouts: false, dateFormat: 'DD.MM.YY' })
    expect(guessed.rows.map((x) => x.request.amount)).toEqual(['-1.00', '3.15'])
  })

  it.each([
    ['gb-monzo', 'DD/MM/YYYY'],
    ['us-chase-checking', 'MM/DD/YYYY'],
    ['us-chase-card', 'MM/DD/YYYY'],
    ['gb-wise', 'DD-MM-YYYY'],
  ])('%s: a month whose days are all under 13 is refused without the layout, read as %s with it', async (name, layout) => {
    await expect(planImport(file(name), { layouts: false })).rejects.toThrow(/the dates could be/)
    expect((await planImport(file(name))).dateFormat.name).toBe(layout)
  })

  it('American Express: a charge written positive is money out, a payment negative money in; a flag given wins', async () => {
    const r = await readLayoutFile(file('us-amex-charges'), {}, 'USD')
    expect(amounts(r).slice(0, 2)).toEqual([
      [2, '-6.75', 'USD'],
      [7, '300.00', 'USD'],
    ])
    expect(r.notes).toContain("every amount's sign flipped (the American Express (US) layout's")
    // Without the layout every charge reads as money in, and nothing in the plan says so.
    const bare = await readLayoutFile(file('us-amex-charges'), { layouts: false, dateFormat: 'MM/DD/YYYY' }, 'USD')
    expect(bare.sum).toBe('110.14')
    const asWritten = await readLayoutFile(file('us-amex-charges'), { invertSign: false }, 'USD')
    expect({ sum: asWritten.sum, flipped: asWritten.notes.includes('sign flipped') }).toEqual({ sum: '110.14', flipped: false })
  })

  it("Wise: the fees are in the amount already; a card payment abroad stays in the balance's currency", async () => {
    const r = await readLayoutFile(file('gb-wise'))
    expect(amounts(r)[2]).toEqual([4, '-35.21', 'EUR'])
    expect(r.plan.map.fee).toBeUndefined()
  })

  it("N26: the amount in euros, never the card payment's own; a space's rows are read too unless --where chooses", async () => {
    const r = await readLayoutFile(file('de-n26'))
    expect(amounts(r)[2]).toEqual([4, '-9.92', 'EUR'])
    // The transfer to the space "Urlaub" is in the file twice, once a row of each: names, not account numbers.
    const main = await readLayoutFile(file('de-n26'), { where: [['Account Name', 'Main Account']] })
    expect({ count: main.count, sum: main.sum }).toEqual({ count: 6, sum: '1630.91' })
  })

  it("Nordea: the payee is the name, not the payer's account number; a reservation (Varaus) is no movement", async () => {
    const r = await readLayoutFile(file('fi-nordea'))
    expect(r.rows.map((x) => x.request.merchant_name)).toEqual([
      'Nordea Bank Abp',
      'HSL MOBIILI',
      'Asunto Oy Vaahtera',
      'Työnantaja Oy',
      'Alko Helsinki',
    ])
    expect(r.skipped.map((s) => s.line)).toEqual([2])
    const bare = await readLayoutFile(file('fi-nordea'), { layouts: false })
    expect(bare.rows[0].request.merchant_name).toBe('FI12 3456 7890 1234 56')
  })

  it("ING (DE): the amount's currency is the last column, not the balance's before it", async () => {
    const text = readFileSync(file('de-ing-latin1'), 'latin1').replace(';4.512,62;EUR;-6,80;EUR', ';4.512,62;USD;-6,80;EUR')
    const bytes = Buffer.from(text, 'latin1')
    expect((await readLayoutBytes(bytes)).rows[0].request.currency_code).toBe('EUR')
    expect((await readLayoutBytes(bytes, { layouts: false })).rows[0].request.currency_code).toBe('USD')
  })

  it.each([
    ['nl-rabobank', 'latin1', 'NL11RABO0104955479', 'NL26RABO0112233445'],
    ['de-commerzbank', 'utf8', 'DE27500400000123456701', 'DE27500400000123456799'],
  ] as const)("%s: the file's own account is its IBAN column, so a file of two accounts is refused", async (name, encoding, own, other) => {
    const text = readFileSync(file(name), encoding)
    expect((await readLayoutBytes(Buffer.from(text, encoding))).notes).toContain(`account ${own}`)
    const lines = text.split(/(?<=\n)/)
    const two = [...lines.slice(0, -1), lines.at(-1)!.replace(own, other)].join('')
    const plan = (await readLayoutBytes(Buffer.from(two, encoding))).plan
    expect(accountRefusal(plan.accounts, { name: 'Giro', last4: own.slice(-4) }, [])).toMatch(/^the file holds the rows of 2 accounts/)
  })

  it('Deutsche Bank / Postbank: dates without leading zeros, and the balance line after the rows no movement', async () => {
    const r = await readLayoutFile(file('de-deutsche-bank'))
    expect(r.rows.map((x) => x.request.transaction_date).at(-1)).toBe('2024-06-03')
    expect(r.skipped).toEqual([{ line: 14, reason: expect.stringContaining('Kontostand') }])
  })
})

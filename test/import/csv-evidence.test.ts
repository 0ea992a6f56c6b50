/**
 * Bank CSVs read by their own evidence (issue classes of test/fixtures/csv-evidence, its README):
 * a running balance that tells money out from money in and checks every row, a column's values
 * over its name, --map that keeps the header and the preamble's facts, signs and amounts, the
 * world's headers and dates. Each count and sum was added up by hand from the file; each file was
 * read wrong (a balance for the amount, kroner as dollars, a row lost) before.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { balanceNote, balanceRefusal, checkBalance } from '../../src/import/balance-check.js'
import { currencyRefusal } from '../../src/import/file-currency.js'
import { RowMapper } from '../../src/import/map-rows.js'
import { ImportError, planImport, planImportBytes, type CsvMapping, type ImportPlan } from '../../src/import/plan.js'
import { readRecordChunks, readRecordChunksBytes, readRecords, readRecordsBytes, type CsvRecord } from '../../src/import/read-rows.js'
import { currencyExponent } from '../../src/kernel/currencies.js'
import { formatMinor } from '../../src/kernel/money.js'

const DIR = join(import.meta.dirname, '..', 'fixtures', 'csv-evidence')

async function read(plan: ImportPlan, records: AsyncIterable<CsvRecord>, currency: string) {
  const mapper = new RowMapper(plan, { accountId: 'acct', currency })
  const rows = []
  const rejects = []
  for await (const rec of records) {
    const r = mapper.map(rec)
    if (r?.ok) rows.push(r)
    else if (r) rejects.push({ line: r.line, reason: r.reason })
  }
  const currencies = [...new Set(rows.map((r) => r.request.currency_code ?? currency))]
  const exponent = currencyExponent(currencies[0] ?? currency)
  return {
    plan,
    notes: plan.notes.join('\n'),
    rows,
    rejects,
    count: rows.length,
    sum: formatMinor(
      rows.reduce((s, r) => s + r.minor, 0),
      exponent,
    ),
    currencies,
    dates: rows.map((r) => r.request.transaction_date),
    balance: mapper.balanceResult(),
  }
}

const file = async (name: string, o: CsvMapping = {}, currency = 'USD') => {
  const path = join(DIR, name)
  const plan = await planImport(path, o, true)
  return read(plan, readRecords(path, plan.layout), currency)
}
const text = async (csv: string, o: CsvMapping = {}, currency = 'EUR') => {
  const bytes = new TextEncoder().encode(csv)
  const plan = await planImportBytes(bytes, o)
  return read(plan, readRecordsBytes(bytes, plan.layout), currency)
}

describe('1. a running balance tells money out from money in, and checks every row', () => {
  it.each([
    [
      'ca-td-chequing-no-header-withdrawal-deposit-balance.csv',
      6,
      '1840.30',
      'money out <- column 3, money in <- column 4: column 5 is a running balance that chains on all 6 rows (the balance after each row, the oldest row first)',
    ],
    [
      'de-no-header-out-in-balance-newest-first-decimal-comma.csv',
      6,
      '2293.53',
      'money out <- column 3, money in <- column 4: column 5 is a running balance that chains on all 6 rows (the balance after each row, the newest row first)',
    ],
  ])('%s: no header, the balance the one column filled on every row', async (name, count, sum, evidence) => {
    const r = await file(name)
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count, sum, rejects: [] })
    expect(r.notes).toContain(evidence)
    expect(r.notes).toContain('balance <- column 5 (a running balance: every row is checked against it)')
    expect(r.balance).toMatchObject({ rows: count, balanced: count })
    expect(r.balance?.firstBreak).toBeUndefined()
    expect(balanceNote(r.plan, r.balance)).toBe(`balance checked on ${count} of ${count} rows (column 5)`)
  })

  it("a card's balance owed: charges are money out on a credit card account, and the statement's ends are money held", async () => {
    const card = await file('ca-td-visa-no-header-charges-payments-balance-owed.csv', { liability: true }, 'CAD')
    expect({ count: card.count, sum: card.sum }).toEqual({ count: 5, sum: '173.93' })
    expect(card.rows.map((r) => r.request.amount)).toEqual(['-56.20', '-71.05', '420.00', '-16.49', '-102.33'])
    expect(card.notes).toContain('written as the amount owed')
    expect(card.balance?.ends).toEqual({ opening: -42000, closing: -24607 })
  })

  it('a row where the balance does not follow is refused before anything is written, naming the line and the reading', async () => {
    const csv =
      '03/02/2026,COFFEE,4.85,,2495.15\n03/03/2026,PAYROLL,,2150.00,4645.15\n03/05/2026,RENT,300.00,,4345.15\n03/09/2026,HYDRO,112.40,,4232.75\n03/12/2026,GST,,124.50,4375.25\n03/16/2026,FEE,16.95,,4358.30\n'
    const bytes = new TextEncoder().encode(csv)
    // The balance jumps by 142.50 at line 5 where the row says 124.50 came in: four pairs of five chain, so it is the balance.
    await expect(planImportBytes(bytes)).rejects.toThrow(
      /^column 5 is a running balance of money out <- column 3, money in <- column 4 on 4 of 5 pairs of rows, but breaks \(row 5 of the data: "03\/12\/2026 GST 124.50 4375.25"\): nothing was imported; .*--no-balance-check/,
    )
    // --no-balance-check: read so, and the break is no refusal.
    const plan = await planImportBytes(bytes, { noBalanceCheck: true })
    expect(plan.map).toMatchObject({ debit: 2, credit: 3, balance: 4 })
    const outcome = await checkBalance(readRecordChunksBytes(bytes, plan.layout), plan, { accountId: 'a', currency: 'CAD' })
    expect(outcome?.firstBreak).toEqual({ line: 5, balance: '4375.25', expected: '4357.25', found: '4375.25' })
    expect(balanceRefusal(plan, outcome)).toBeUndefined()
  })

  it('a break after the rows the plan reads is refused by the pass over the whole file, naming its line', async () => {
    const rows = ['Date,Description,Amount,Balance']
    let balance = 100_000
    for (let i = 0; i < 2_500; i++) {
      const minor = i % 3 === 0 ? 2_500 : -1_234
      balance += minor
      // Line 2,402 (the 2,401st row) writes a balance 1.00 off: past the plan's 2,000 rows of evidence.
      const shown = i === 2_400 ? balance + 100 : balance
      rows.push(`2026-01-${String((i % 28) + 1).padStart(2, '0')},Row ${i},${formatMinor(minor, 2)},${formatMinor(shown, 2)}`)
    }
    // Dates that do not rise row by row: the order is told by the chain alone.
    const bytes = new TextEncoder().encode(`${rows.join('\n')}\n`)
    const plan = await planImportBytes(bytes)
    expect(plan.balance).toMatchObject({ column: 3, check: true })
    const outcome = await checkBalance(readRecordChunksBytes(bytes, plan.layout), plan, { accountId: 'a', currency: 'USD' })
    expect(outcome?.firstBreak?.line).toBe(2_402)
    expect(balanceRefusal(plan, outcome)).toMatch(
      /^line 2402: the balance "[\d.]+" in Balance is not the balance before it plus the amounts since/,
    )
  })

  it('two columns taking turns with no balance and no signs: refused, naming both readings and the flags', async () => {
    await expect(text('2026-03-02,Coffee,3.50,\n2026-03-03,Salary,,2000.00\n2026-03-04,Rent,900.00,\n')).rejects.toThrow(
      new ImportError(
        'column 3 and column 4 hold amounts on alternate rows and no column is a running balance of them, so nothing in the file says which is money out: give --map debit=3 --map credit=4, or --map debit=4 --map credit=3',
      ),
    )
    // Money out written with a minus says which is which.
    const signed = await text('2026-03-02,Coffee,-3.50,\n2026-03-03,Salary,,2000.00\n2026-03-04,Rent,-900.00,\n')
    expect({ count: signed.count, sum: signed.sum }).toEqual({ count: 3, sum: '1096.50' })
  })

  it('--map that the balance contradicts is refused; the balance checks a --map reading it follows', async () => {
    const path = join(DIR, 'ca-td-chequing-no-header-withdrawal-deposit-balance.csv')
    await expect(
      planImport(path, {
        map: [
          ['debit', '4'],
          ['credit', '3'],
        ],
      }),
    ).rejects.toThrow(
      /^column 5 is a running balance of money out <- column 3, money in <- column 4, not of money out <- column 4, money in <- column 3 as --map says/,
    )
    const given = await file('ca-td-chequing-no-header-withdrawal-deposit-balance.csv', {
      map: [
        ['debit', '3'],
        ['credit', '4'],
      ],
    })
    expect({ count: given.count, sum: given.sum }).toEqual({ count: 6, sum: '1840.30' })
    expect(given.plan.balance).toMatchObject({ column: 4, check: true })
  })

  it('a header the balance overrules: "Debits" and "Credits" named the other way round are read as the balance says', async () => {
    const r = await text(
      'Date,Description,Credits,Debits,Balance\n2026-03-02,Coffee,3.50,,96.50\n2026-03-03,Salary,,2000.00,2096.50\n2026-03-04,Rent,900.00,,1196.50\n',
    )
    expect({ count: r.count, sum: r.sum }).toEqual({ count: 3, sum: '1096.50' })
    expect(r.notes).toContain(
      'amount: the header says money out <- Debits, money in <- Credits, but Balance is a running balance of money out <- Credits, money in <- Debits only',
    )
  })
})

describe('2. a column of currency codes is the currency, whatever its header says', () => {
  it.each([
    ['no-valuta-column-of-currency-codes-nok.csv', 6, '22388.05', 'NOK'],
    ['se-tab-valuta-column-of-currency-codes-sek.csv', 5, '21517.35', 'SEK'],
    ['dk-pipe-valuta-column-of-currency-codes-dkk.csv', 5, '-4310.75', 'DKK'],
  ])('%s: %s rows in %s, and a USD account refuses the file whole', async (name, count, sum, code) => {
    const r = await file(name)
    expect({ count: r.count, sum: r.sum, currencies: r.currencies }).toEqual({ count, sum, currencies: [code] })
    expect(r.notes).toContain('currency_code <- Valuta (its values are currency codes)')
    expect(currencyRefusal(r.plan.currency, { name: 'Checking', currency: 'USD' })).toMatch(
      new RegExp(`^the file is in ${code} \\(its column "Valuta"\\) but bank account "Checking" is in USD`),
    )
  })

  it('a German "Valuta" of dates stays the value date', async () => {
    const r = await file('de-preamble-four-lines-betrag-in-eur.csv', {}, 'EUR')
    expect(r.notes).toContain('posted_date <- Valuta')
    expect(r.rows[2].request.posted_date).toBe('2026-10-07')
  })
})

describe('3. --map keeps the header and the preamble, by number and by name', () => {
  const preamble = 'de-preamble-four-lines-betrag-in-eur.csv'
  it.each([
    ['by number', [['amount', '5']] as CsvMapping['map']],
    ['by name', [['description', 'Verwendungszweck']] as CsvMapping['map']],
  ])('%s: the header on line 5, the currency of "Betrag in EUR", 7 rows', async (_how, map) => {
    const r = await file(preamble, { map }, 'EUR')
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count: 7, sum: '2445.90', rejects: [] })
    expect(r.plan.headerLine).toBe(5)
    expect(r.plan.currency.stated).toEqual({ code: 'EUR', from: 'the header "Betrag in EUR"' })
    expect(r.dates[0]).toBe('2026-10-01')
    expect(r.rows[0].request.posted_date).toBe('2026-10-01')
  })

  it('a first row of values is never a header: --map by number on a file without one reads both rows', async () => {
    const r = await text(
      '03/2026/11,Client payment,1200,\n04/2026/11,Office rent,,950\n',
      {
        map: [
          ['date', '1'],
          ['description', '2'],
          ['credit', '3'],
          ['debit', '4'],
        ],
        dateFormat: 'DD/YYYY/MM',
      },
      'USD',
    )
    expect({ count: r.count, sum: r.sum, dates: r.dates }).toEqual({ count: 2, sum: '250.00', dates: ['2026-11-03', '2026-11-04'] })
    expect(r.notes).toContain('no header: line 1 is a transaction')
  })
})

describe('4. a header-less ING export whose first row is longer loses no row', () => {
  it('3 rows, all money out by the Af/Bij column', async () => {
    const r = await file('nl-ing-no-header-first-row-longer.csv', {}, 'EUR')
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count: 3, sum: '-123.05', rejects: [] })
    expect(r.rows[0].line).toBe(1)
  })
})

describe('6. Chinese, Japanese and Korean bank exports', () => {
  it.each([
    ['cn-amount-with-code-balance-currency-column.csv', 'CNY', 5, '6031.32'],
    ['cn-jie-dai-indicator-online-balance.csv', 'CNY', 5, '458.31'],
    ['tw-out-in-balance-whole-amounts.csv', 'TWD', 5, '42447.00'],
    ['jp-out-in-balance-yen.csv', 'JPY', 5, '210002'],
    ['kr-out-in-zero-other-side-balance-won.csv', 'KRW', 5, '2017350'],
  ])('%s: %s, %s rows, sum %s, checked by the balance', async (name, currency, count, sum) => {
    const r = await file(name, {}, currency)
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count, sum, rejects: [] })
    expect(r.balance).toMatchObject({ rows: count, balanced: count })
    expect(r.balance?.firstBreak).toBeUndefined()
  })
})

describe('6. the same files in their legacy encodings, told by the bank terms they read as', () => {
  it.each([
    ['cn-gbk-jie-dai-indicator-online-balance.csv', 'gb18030', 'CNY', 5, '458.31'],
    ['tw-big5-out-in-balance-whole-amounts.csv', 'big5', 'TWD', 5, '42447.00'],
    ['jp-shift-jis-out-in-balance-yen.csv', 'shift_jis', 'JPY', 5, '210002'],
    ['kr-euc-kr-out-in-zero-other-side-balance-won.csv', 'euc-kr', 'KRW', 5, '2017350'],
  ])('%s is read as %s', async (name, encoding, currency, count, sum) => {
    const r = await file(name, {}, currency)
    expect(r.plan.layout.encoding.encoding).toBe(encoding)
    expect(r.notes).toMatch(new RegExp(`^encoding ${encoding} \\(detected: not utf-8; \\d+ bank terms read in it\\)`))
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count, sum, rejects: [] })
  })
})

describe('7. a column named for a field whose values say otherwise', () => {
  it('an empty "Amount details" beside "Debit CHF" and "Credit CHF" is no amount', async () => {
    const r = await file('ch-empty-amount-details-beside-debit-credit-chf.csv', {}, 'CHF')
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count: 5, sum: '3990.60', rejects: [] })
    expect(r.notes).toContain('amount: "Amount details" is empty on every row, so it is not the amount')
    expect(r.plan.currency.stated?.code).toBe('CHF')
  })

  it('"Value Dat" (a header cut short) holds dates: the withdrawal and deposit columns are read, checked by the balance', async () => {
    const r = await file('in-value-dat-cut-header-withdrawal-deposit.csv', {}, 'INR')
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count: 5, sum: '77551.90', rejects: [] })
    expect(r.notes).toContain('amount: "Value Dat" holds dates, not amounts ("02/11/2026"), so it is not the amount')
  })
})

describe('8. signs and amounts', () => {
  it('an indicator of "CR" or nothing: a blank is money out', async () => {
    const r = await file('indicator-cr-credit-blank-debit.csv', {}, 'EUR')
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count: 5, sum: '2055.50', rejects: [] })
    expect(r.notes).toContain('"CR" money in, a blank money out')
  })

  it('parentheses for money out, a dollar sign, no leading digit', async () => {
    const r = await file('us-no-header-parentheses-dollar-no-leading-digit.csv')
    expect(r.rows.map((x) => x.request.amount)).toEqual(['-4.85', '2150.00', '0.23', '-85.00', '-200.00'])
  })

  it('a tab after each quoted amount', async () => {
    const r = await file('tab-after-each-quoted-amount.csv')
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count: 4, sum: '1860.15', rejects: [] })
  })

  it('"Billing Amount" in the card\'s currency, not the "Original Amount" of the purchase', async () => {
    const r = await file('card-billing-amount-beside-original-amount.csv')
    expect({ count: r.count, sum: r.sum, currencies: r.currencies }).toEqual({ count: 5, sum: '233.40', currencies: ['USD'] })
  })
})

describe('9. headers over several lines, and dates written otherwise', () => {
  it('"Transaction" above "date,Value date,...": one header, the balance checks the debits and credits', async () => {
    const r = await file('gb-header-over-two-lines-debits-credits-balance.csv', {}, 'GBP')
    expect({ count: r.count, sum: r.sum }).toEqual({ count: 5, sum: '2911.35' })
    expect(r.plan.header[0]).toBe('Transaction date')
    expect(r.notes).toContain('date <- Transaction date')
  })

  it('a header written over three lines, and one whose names are quoted over two', async () => {
    const three = await text(
      'Transaction\ndate,Value\ndate,Description,Debits,Credits,Balance\n02 Nov 2026,02 Nov 2026,Tesco,23.40,,1976.60\n04 Nov 2026,04 Nov 2026,Salary,,2850.00,4826.60\n09 Nov 2026,09 Nov 2026,Council tax,154.00,,4672.60\n',
      {},
      'GBP',
    )
    expect(three.plan.header.slice(0, 2)).toEqual(['Transaction date', 'Value date'])
    expect({ count: three.count, sum: three.sum }).toEqual({ count: 3, sum: '2672.60' })
    const quoted = await text(
      '"Transaction\ndate","Value\ndate",Description,Debits,Credits,Balance\n02 Nov 2026,02 Nov 2026,Tesco,23.40,,1976.60\n04 Nov 2026,04 Nov 2026,Salary,,2850.00,4826.60\n09 Nov 2026,09 Nov 2026,Council tax,154.00,,4672.60\n',
      {},
      'GBP',
    )
    expect({ count: quoted.count, sum: quoted.sum }).toEqual({ count: 3, sum: '2672.60' })
  })

  it('OFX timestamps in a date column', async () => {
    const r = await file('ofx-timestamps-in-date-column.csv')
    expect({ count: r.count, sum: r.sum, dates: r.dates }).toEqual({
      count: 3,
      sum: '416.80',
      dates: ['2026-03-02', '2026-03-05', '2026-03-11'],
    })
  })

  it('Italian month abbreviations with a dot after the year and a time', async () => {
    const r = await file('it-month-abbreviation-dot-after-year-time.csv', {}, 'EUR')
    expect({ count: r.count, sum: r.sum, dates: r.dates }).toEqual({
      count: 4,
      sum: '2191.90',
      dates: ['2026-10-02', '2026-10-05', '2026-10-12', '2026-10-20'],
    })
  })

  it.each([
    ['5 ene. 2026', '2026-01-05'],
    ['5 fev. 2026', '2026-02-05'],
    ['5 févr. 2026', '2026-02-05'],
    ['24 lug 2024. 02:59:45', '2024-07-24'],
    ['7 set. 2026 10:00', '2026-09-07'],
  ])('%s reads as %s', async (date, iso) => {
    const r = await text(`Data;Descrizione;Importo\n${date};A;-1,00\n${date};B;-2,00\n`)
    expect(r.dates).toEqual([iso, iso])
  })
})

// The file's own rows read without a bank layout: the evidence rule alone, on the layouts' fixtures too.
describe('the bank layouts of test/fixtures/csv-layouts by detection alone keep their sums', () => {
  it.each([
    ['dk-danske-bank-latin1-quoted-thousands-dot.csv', 'DKK', 7, '12180.00'],
    ['pt-cgd-cp1252-preamble-trailing-spaces-debit-credit-footer.csv', 'EUR', 6, '1562.71'],
    ['nl-asn-no-header-balance-before.csv', 'EUR', 6, '1940.55'],
  ])('%s', async (name, currency, count, sum) => {
    const path = join(import.meta.dirname, '..', 'fixtures', 'csv-layouts', name)
    const plan = await planImport(path, { layouts: false }, true)
    const r = await read(plan, readRecords(path, plan.layout), currency)
    expect({ count: r.count, sum: r.sum }).toEqual({ count, sum })
    const outcome = await checkBalance(readRecordChunks(path, plan.layout), plan, { accountId: 'a', currency })
    expect(outcome?.firstBreak).toBeUndefined()
    expect(outcome?.balanced).toBe(count)
  })
})

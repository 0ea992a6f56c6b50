/**
 * The classes of bank CSV once read wrong, each on a file built in test/fixtures/csv-layouts
 * from the bank's published layout (its README says where from), read as `tx import` reads it:
 * header-less files (easybank, Raiffeisen, ASN), the file's own currency, rows of amount 0, a
 * description composed from the next text column, a sign column found by its values, and the rows
 * of two accounts in one file. Each count and sum was added up by hand from the file.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseUpload } from '../../src/domain/statements/parse.js'
import { currencyRefusal } from '../../src/import/file-currency.js'
import { RowMapper } from '../../src/import/map-rows.js'
import { accountRefusal } from '../../src/import/own-account.js'
import { ImportError, planImport, planImportBytes, type CsvMapping } from '../../src/import/plan.js'
import { rowsNote } from '../../src/import/plan-words.js'
import { readRecords, readRecordsBytes, type CsvRecord } from '../../src/import/read-rows.js'
import { detectDelimiter } from '../../src/import/sniff.js'
import { formatMinor } from '../../src/kernel/money.js'

const LAYOUTS = join(import.meta.dirname, '..', 'fixtures', 'csv-layouts')

async function read(plan: Awaited<ReturnType<typeof planImport>>, records: AsyncIterable<CsvRecord>, currency = 'EUR') {
  const mapper = new RowMapper(plan, { accountId: 'acct', currency })
  const rows = []
  const rejects = []
  for await (const rec of records) {
    const r = mapper.map(rec)
    if (r?.ok) rows.push(r)
    else if (r) rejects.push({ line: r.line, reason: r.reason })
  }
  return {
    plan,
    notes: plan.notes.join('\n'),
    rows,
    rejects,
    skipped: mapper.skipped,
    zero: mapper.zeroLines,
    count: rows.length,
    sum: formatMinor(
      rows.reduce((s, r) => s + r.minor, 0),
      2,
    ),
    descriptions: rows.map((r) => r.request.description),
  }
}

const file = async (name: string, o: CsvMapping = {}) => {
  const path = join(LAYOUTS, name)
  const plan = await planImport(path, o, true)
  return read(plan, readRecords(path, plan.layout))
}
const text = async (csv: string, o: CsvMapping = {}) => {
  const bytes = new TextEncoder().encode(csv)
  const plan = await planImportBytes(bytes, o)
  return read(plan, readRecordsBytes(bytes, plan.layout))
}

describe('1. a file without a header row loses no row', () => {
  it.each([
    ['at-easybank-no-header-latin1.csv', 5, '986.63', 'column 5 (its values are amounts', 'column 2'],
    ['at-raiffeisen-no-header-timestamp.csv', 5, '1139.25', 'column 4 (its values are amounts', 'column 2'],
    ['nl-asn-no-header-balance-before.csv', 6, '1940.55', 'column 11 (checked against the balance)', 'column 18'],
  ])('%s: every line is a transaction, the columns found by their values', async (name, count, sum, amount, description) => {
    // Read by detection alone; the bank layouts that know these files are tested in csv-layouts.test.ts.
    const r = await file(name, { layouts: false })
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count, sum, rejects: [] })
    expect(r.rows[0].line).toBe(1)
    expect(r.notes).toContain('no header: line 1 is a transaction (it has a date and an amount, as the lines after it)')
    expect(r.notes).toContain(`amount <- ${amount}`)
    expect(r.notes).toContain(`description <- ${description} (its values are words`)
    expect(r.notes).toContain('currency_code <- column')
    expect(rowsNote(r.plan)).toBe(`no header; ${count} transaction rows`)
  })

  it("ASN's balance before each row is told from its amount by the running sum", async () => {
    const r = await file('nl-asn-no-header-balance-before.csv', { layouts: false })
    expect(r.notes).toContain(
      'amount <- column 11: column 9 is a running balance that chains on all 6 rows (the balance before each row, the oldest row first)',
    )
    expect(r.rows.map((x) => x.request.amount)).toEqual(['-25.00', '-3.50', '2100.00', '-89.00', '-40.00', '-1.95'])
  })

  it('--map by number on a header-less file takes line 1 too; --no-header says so itself', async () => {
    const byNumber = await file('at-easybank-no-header-latin1.csv', {
      map: [
        ['date', '3'],
        ['amount', '5'],
        ['description', '2'],
      ],
    })
    expect({ count: byNumber.count, sum: byNumber.sum }).toEqual({ count: 5, sum: '986.63' })
    const given = await file('at-easybank-no-header-latin1.csv', { noHeader: true, map: [['amount', '5']] })
    expect({ count: given.count, sum: given.sum }).toEqual({ count: 5, sum: '986.63' })
    expect(given.notes).toContain('no header: line 1 is a transaction (--no-header)')
    // A name is no column of a file without names.
    await expect(file('at-easybank-no-header-latin1.csv', { noHeader: true, map: [['amount', 'Betrag']] })).rejects.toThrow(
      '--map amount=Betrag: no column "Betrag": the file has no header row, so its columns are named by their number from 1 (1 to 6)',
    )
  })

  it('--map by number on a file with a header still skips the header; a header in unknown words is still one', async () => {
    const r = await text('Datum;Text;Betrag\n13.03.2024;Shop;-1,50\n14.03.2024;Gehalt;100,00\n', {
      map: [
        ['date', '1'],
        ['amount', '3'],
      ],
    })
    expect({ count: r.count, sum: r.sum }).toEqual({ count: 2, sum: '98.50' })
    const unknown = await text('Kuupäev X;Selgitus Y;Summa Z\n13.03.2024;Pood;-1,50\n14.03.2024;Palk;100,00\n')
    expect({ count: unknown.count, sum: unknown.sum }).toEqual({ count: 2, sum: '98.50' })
    expect(unknown.notes).toContain('header on line 1: no name in it is one finctl knows, so the columns are taken by their values')
  })

  it('two amount columns that are no running balance of each other are refused, naming them', async () => {
    await expect(text('13.03.2024;Shop;-1,50;7,00\n14.03.2024;Pay;100,00;3,10\n15.03.2024;Tax;-5,00;1,00\n')).rejects.toThrow(
      new ImportError(
        'cannot tell which column holds the amount: column 3, column 4 all hold amounts and none is a running balance of another; give --map amount=Column (or --map debit=Column --map credit=Column)',
      ),
    )
  })
})

describe("2. the file's currency against the account's", () => {
  it('a header that names the currency ("Betrag in EUR") is the file\'s, and an account in USD refuses it whole', async () => {
    const r = await text('Buchungstag;Text;Betrag in EUR\n13.03.2024;Shop;-1,50\n')
    expect(r.plan.currency.stated).toEqual({ code: 'EUR', from: 'the header "Betrag in EUR"' })
    expect(r.notes).toContain('currency EUR (the header "Betrag in EUR")')
    expect(currencyRefusal(r.plan.currency, { name: 'Checking', currency: 'USD' })).toBe(
      'the file is in EUR (the header "Betrag in EUR") but bank account "Checking" is in USD: import it into an account in EUR (--account), or give --set currency_code=EUR to keep its rows in EUR on this account (each converted at the company\'s rate of its date, or --set exchange_rate=RATE); nothing was imported',
    )
    expect(currencyRefusal(r.plan.currency, { name: 'Giro', currency: 'EUR' })).toBeUndefined()
    expect(currencyRefusal(r.plan.currency, { name: 'Checking', currency: 'USD' }, 'EUR')).toBeUndefined()
    expect(currencyRefusal(r.plan.currency, { name: 'Checking', currency: 'USD' }, 'USD')).toContain(
      'not USD as --set currency_code says: give --set currency_code=EUR',
    )
  })

  it('a preamble line, or a currency column of another currency on every row, says the same', async () => {
    const preamble = await text('Konto;DE12 3456\nWährung;EUR\n\nDatum;Text;Betrag\n13.03.2024;Shop;-1,50\n')
    expect(preamble.plan.currency.stated).toEqual({ code: 'EUR', from: 'line 2 ("Währung EUR")' })
    const column = await text('Datum;Text;Betrag;Währung\n13.03.2024;Shop;-1,50;EUR\n14.03.2024;Bar;-3,00;EUR\n')
    expect(currencyRefusal(column.plan.currency, { name: 'Checking', currency: 'USD' })).toContain(
      'the file is in EUR (its column "Währung") but bank account "Checking" is in USD',
    )
    // Rows of several currencies, some of them the account's: each keeps its own (and converts at a rate, or is rejected).
    const mixed = await text('Datum;Text;Betrag;Währung\n13.03.2024;Shop;-1,50;USD\n14.03.2024;Bar;-3,00;EUR\n15.03.2024;Tee;-2,00;USD\n')
    expect(currencyRefusal(mixed.plan.currency, { name: 'Checking', currency: 'USD' })).toBeUndefined()
    expect(mixed.notes).toContain('currency <- Währung: USD on 2 rows, EUR on 1 row; each row keeps its own')
    expect(mixed.rows.map((x) => x.request.currency_code)).toEqual(['USD', 'EUR', 'USD'])
  })
})

describe('3. rows of amount 0', () => {
  it('a card hold and a waived fee are bookings: imported as 0.00 and named', async () => {
    const revolut = await file('gb-revolut-zero-card-hold.csv')
    expect({ count: revolut.count, sum: revolut.sum, zero: revolut.zero }).toEqual({ count: 5, sum: '113.56', zero: [4] })
    const ing = await file('nl-ing-zero-fee-af-bij.csv')
    expect({ count: ing.count, sum: ing.sum, zero: ing.zero }).toEqual({ count: 4, sum: '1926.83', zero: [4] })
    expect(ing.rows.find((x) => x.line === 4)?.request.amount).toBe('0.00')
  })

  it("a 0,00 closing line (Sparkasse's ABSCHLUSS) is skipped with why; its fee line of -6,90 is a movement", async () => {
    const r = await file('de-sparkasse-csv-camt-zero-abschluss.csv', { dateFormat: 'DD.MM.YY' })
    expect({ count: r.count, sum: r.sum, zero: r.zero }).toEqual({ count: 4, sum: '1555.62', zero: [] })
    expect(r.skipped).toEqual([
      { line: 6, reason: 'an amount of 0 on a closing or balance line, not a movement (its text: "Abrechnung 29.10.2021 siehe Anlage")' },
    ])
  })
})

describe('3. the same rule in a statement upload', () => {
  it('a QIF 0.00 closing line is skipped with a warning; a 0.00 card check is a line of the statement', async () => {
    const qif = [
      '!Type:Bank',
      'D03/31/2024',
      'T0.00',
      'PABSCHLUSS',
      'MAbrechnung 31.03.2024',
      '^',
      'D03/30/2024',
      'T0.00',
      'PUber',
      'MCard check',
      '^',
      'D03/29/2024',
      'T-12.50',
      'PBakery',
      '^',
      '',
    ].join('\n')
    const upload = await parseUpload(new TextEncoder().encode(qif), { fileName: 'x.qif', format: 'qif', currency: 'USD', exponent: 2 }, {})
    expect(upload.parts[0].lines.map((l) => [l.description, l.amountMinor])).toEqual([
      ['Uber / Card check', 0],
      ['Bakery', -1250],
    ])
    expect(upload.warnings).toEqual([
      expect.stringMatching(
        /: an amount of 0 on a closing or balance line, not a movement \(its text: "Abrechnung 31.03.2024"\), skipped$/,
      ),
    ])
  })

  it('a CSV statement keeps the 0,00 card hold and skips the ABSCHLUSS line, as tx import does', async () => {
    const bytes = new Uint8Array(readFileSync(join(LAYOUTS, 'de-sparkasse-csv-camt-zero-abschluss.csv')))
    const upload = await parseUpload(bytes, { fileName: 's.csv', format: 'csv', currency: 'EUR', exponent: 2 }, {})
    expect(upload.parts[0].lines).toHaveLength(4)
    expect(upload.warnings).toEqual([
      'line 6: an amount of 0 on a closing or balance line, not a movement (its text: "Abrechnung 29.10.2021 siehe Anlage")',
    ])
  })
})

describe('4. the description composed from the text columns', () => {
  it('an empty purpose takes the next text column; the plan names them in order', async () => {
    const r = await file('nl-knab-creditdebet-empty-omschrijving.csv')
    expect(r.rejects).toEqual([])
    expect(r.notes).toMatch(/description <- Omschrijving \(else [^)]*Tegenrekeninghouder/)
    expect(r.descriptions).toContain('Salaris augustus 2021')
    expect(r.descriptions).toContain('Kosten Knab Basis september')
    // The cash machine's row has no purpose and no counterparty: the way it was paid describes it.
    expect(r.rows.find((x) => x.line === 7)?.request.description).toBe('Geldautomaat')
  })

  it('a row is rejected only when every text column is empty, naming them', async () => {
    const r = await text('Date;Payee;Memo;Amount\n2024-01-02;Shop;Pens;-1.00\n2024-01-03;;Fee;-0.50\n2024-01-04;;;-2.00\n')
    expect(r.descriptions).toEqual(['Pens', 'Fee'])
    expect(r.rejects).toEqual([{ line: 4, reason: 'no description: "Memo" and "Payee" are empty on this row' }])
  })

  it('a file with no text column imports, each row described so', async () => {
    const r = await text('Date;Amount;Balance\n2024-01-02;-1.00;9.00\n2024-01-03;5.00;14.00\n')
    expect(r.descriptions).toEqual(['(no description)', '(no description)'])
    expect(r.notes).toContain('description: the file has no text column (no payee, purpose, type or reference)')
  })
})

describe('5. the sign column', () => {
  it("Knab's CreditDebet gives the unsigned amounts their sign", async () => {
    const r = await file('nl-knab-creditdebet-empty-omschrijving.csv')
    expect({ count: r.count, sum: r.sum }).toEqual({ count: 6, sum: '1664.60' })
    expect(r.notes).toContain('debit/credit indicator "CreditDebet": "D" money out, "C" money in')
  })

  it('under a header of no language, by its values: D and C on every row, one money out and one money in', async () => {
    const r = await text(
      'Datum;Bedrag;Richting X;Omschrijving\n13-03-2024;12,95;D;Winkel\n14-03-2024;1850,00;C;Salaris\n15-03-2024;4,50;D;Koffie\n',
    )
    expect(r.sum).toBe('1832.55')
    expect(r.notes).toContain(
      'debit/credit indicator "Richting X": the amounts are unsigned, so it gives each row\'s sign: "D" money out, "C" money in',
    )
  })
})

describe('7. the delimiter', () => {
  it('a ; file of decimal-comma amounts whose rows carry more fields than the header is read with ;', async () => {
    const r = await file('de-semicolon-decimal-comma-ragged-rows.csv')
    expect(r.plan.layout.delimiter).toBe(';')
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count: 5, sum: '1186.22', rejects: [] })
    expect(detectDelimiter('Datum;Text;Betrag\n13.03.2024;Shop;-1,50\n14.03.2024;Pay;100,00;x\n')).toBe(';')
    // A comma file's amounts keep their commas inside quotes, and a comma between words is still one.
    expect(detectDelimiter('Date,Description,Amount\n2024-03-13,"Shop, Inc.","1,234.50"\n2024-03-14,Pay,100.00\n')).toBe(',')
  })
})

describe('9. the rows of two accounts in one file', () => {
  it('are counted apart; --account-number keeps one of them', async () => {
    const both = await file('nl-ing-two-own-accounts.csv')
    expect(both.plan.accounts).toEqual({
      column: 'Rekening',
      numbers: [
        { number: 'NL69INGB0123456789', rows: 3, line: 2 },
        { number: 'NL91INGB0002445588', rows: 2, line: 4 },
      ],
    })
    expect(accountRefusal(both.plan.accounts, { name: 'Betaal', last4: '6789' }, [])).toBe(
      'the file holds the rows of 2 accounts (NL69INGB0123456789: 3 rows, NL91INGB0002445588: 2 rows, in its column "Rekening"): import one at a time with --account-number NUMBER (its last digits are enough) or --where "Rekening=NUMBER"; nothing was imported',
    )
    const savings = await file('nl-ing-two-own-accounts.csv', { accountNumber: '2445588' })
    expect({ count: savings.count, sum: savings.sum }).toEqual({ count: 2, sum: '503.12' })
    const current = await file('nl-ing-two-own-accounts.csv', { accountNumber: 'NL69INGB0123456789' })
    expect({ count: current.count, sum: current.sum }).toEqual({ count: 3, sum: '1576.83' })
  })

  it("a file of one account is another account's, or is refused for an account of another number", async () => {
    const savings = await file('nl-ing-two-own-accounts.csv', { where: [['Rekening', 'NL91INGB0002445588']] })
    const accounts = savings.plan.accounts
    expect(accountRefusal(accounts, { name: 'Betaal', last4: '6789' }, [{ name: 'Spaar', last4: '5588' }])).toContain(
      'they are bank account "Spaar"\'s, import them there (--account "Spaar")',
    )
    expect(accountRefusal(accounts, { name: 'New', last4: null }, [{ name: 'Spaar', last4: '5588' }])).toContain(
      'which is bank account "Spaar" (it ends in 5588)',
    )
    expect(accountRefusal(accounts, { name: 'Spaar', last4: '5588' }, [])).toBeUndefined()
    expect(accountRefusal(accounts, { name: 'New', last4: null }, [])).toBeUndefined()
  })
})

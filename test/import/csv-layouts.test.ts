/**
 * Bank CSV layouts of ten more languages: one file a language in
 * test/fixtures/csv-layouts, built in the project from the bank's published layout (its README says
 * where each is described), read as `finctl tx import` reads it: the plan, then every row through
 * the RowMapper; the count, sum and date range, the encoding, and the column each field came from.
 * Then the header reading itself: names with a leading space, Nordic letters, Cyrillic, and the
 * debit/credit indicator's names and values in those languages.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RowMapper } from '../../src/import/map-rows.js'
import { isKnownHeader, normalizeHeader } from '../../src/import/mapping.js'
import { planImport, planImportBytes, type CsvMapping, type ImportPlan } from '../../src/import/plan.js'
import { readRecords, readRecordsBytes, type CsvRecord } from '../../src/import/read-rows.js'
import { formatMinor } from '../../src/kernel/money.js'

const DIR = join(import.meta.dirname, '..', 'fixtures', 'csv-layouts')

async function convert(plan: ImportPlan, records: AsyncIterable<CsvRecord>) {
  const conv = new RowMapper(plan, { accountId: 'acct', currency: 'EUR' })
  const ok = []
  const rejected = []
  for await (const rec of records) {
    const r = conv.map(rec)
    if (!r) continue
    if (r.ok) ok.push(r)
    else rejected.push(`${r.line}: ${r.reason}`)
  }
  const dates = ok.map((r) => r.request.transaction_date).sort()
  return {
    plan,
    notes: plan.notes.join('\n'),
    rows: ok,
    rejected,
    count: ok.length,
    sum: formatMinor(
      ok.reduce((s, r) => s + r.minor, 0),
      2,
    ),
    from: dates[0],
    to: dates[dates.length - 1],
  }
}

/** A fixture, planned and read as `tx import` does. */
async function layout(file: string, o: CsvMapping = {}) {
  const path = join(DIR, file)
  const plan = await planImport(path, o)
  return convert(plan, readRecords(path, plan.layout))
}

/** An inline UTF-8 file, through the same planning (as a statement upload reads it). */
async function text(csv: string, o: CsvMapping = {}) {
  const bytes = new TextEncoder().encode(csv)
  const plan = await planImportBytes(bytes, o)
  return convert(plan, readRecordsBytes(bytes, plan.layout))
}

interface Want {
  encoding: string
  columns: string
  count: number
  sum: string
  from: string
  to: string
}

const CASES: Array<[string, CsvMapping, Want]> = [
  [
    'no-dnb-quoted-text-unquoted-out-in-columns.csv',
    {},
    {
      encoding: 'utf-8',
      columns: 'date <- Dato, posted_date <- Rentedato, debit <- Ut fra konto, credit <- Inn på konto, description <- Forklaring',
      count: 6,
      sum: '31553.15',
      from: '2024-09-10',
      to: '2024-09-28',
    },
  ],
  [
    'dk-danske-bank-latin1-quoted-thousands-dot.csv',
    {},
    {
      encoding: 'windows-1252',
      columns:
        'date <- Dato, amount <- Beløb (checked against the balance), description <- Tekst, balance <- Saldo (a running balance: every row is checked against it)',
      count: 7,
      sum: '12180.00',
      from: '2024-04-02',
      to: '2024-04-22',
    },
  ],
  [
    'se-swedbank-latin9-preamble-comma-three-dates.csv',
    {},
    {
      encoding: 'windows-1252',
      columns:
        'date <- Transaktionsdag, posted_date <- Valutadag, amount <- Belopp (checked against the balance), description <- Beskrivning (else Referens), currency_code <- Valuta (its values are currency codes), reference <- Referens, balance <- Bokfört saldo (a running balance: every row is checked against it)',
      count: 7,
      sum: '20119.60',
      from: '2024-03-01',
      to: '2024-03-27',
    },
  ],
  [
    'pl-mbank-cp1250-preamble-hash-headers-amount-with-currency.csv',
    {},
    {
      encoding: 'windows-1250',
      columns: 'date <- #Data operacji, amount <- #Kwota, description <- #Opis operacji, category <- #Kategoria',
      count: 7,
      sum: '4065.44',
      from: '2024-02-01',
      to: '2024-02-27',
    },
  ],
  [
    // Alfa-Bank writes two-digit years; "31.05.24" reads as YY.MM.DD too, so the format is given (dates are not this change's).
    'ru-alfabank-cp1251-income-expense-columns-short-years.csv',
    { dateFormat: 'DD.MM.YY' },
    {
      encoding: 'windows-1251',
      columns:
        'date <- Дата операции, debit <- Расход, credit <- Приход, description <- Описание операции (else Референс проводки), reference <- Референс проводки, account <- Номер счета',
      count: 6,
      sum: '79516.40',
      from: '2024-05-03',
      to: '2024-05-31',
    },
  ],
  [
    'ua-monobank-utf8-comma-latin-i-card-currency-header.csv',
    {},
    {
      encoding: 'utf-8',
      columns:
        'date <- Дата i час операції, amount <- Сума в валюті картки (UAH) (checked against the balance), description <- Деталі операції, balance <- Залишок після операції (a running balance: every row is checked against it)',
      count: 6,
      sum: '25212.65',
      from: '2024-09-05',
      to: '2024-09-28',
    },
  ],
  [
    'pt-cgd-cp1252-preamble-trailing-spaces-debit-credit-footer.csv',
    {},
    {
      encoding: 'windows-1252',
      columns:
        'date <- Data mov., posted_date <- Data valor, debit <- Débito (checked against the balance), credit <- Crédito (checked against the balance), description <- Descrição, category <- Categoria, balance <- Saldo contabilístico (a running balance: every row is checked against it)',
      count: 6,
      sum: '1562.71',
      from: '2024-09-27',
      to: '2024-10-04',
    },
  ],
  [
    'it-unicredit-trailing-semicolon-dotted-dates-padded-text.csv',
    {},
    {
      encoding: 'utf-8',
      columns: 'date <- Data Registrazione, posted_date <- Data valuta, amount <- Importo (EUR), description <- Descrizione',
      count: 7,
      sum: '789.30',
      from: '2024-05-02',
      to: '2024-05-31',
    },
  ],
]

describe('a bank layout of each new language, read by its header', () => {
  it.each(CASES)('%s', async (file, opts, want) => {
    const r = await layout(file, opts)
    expect(r.rejected).toEqual([])
    expect(r.plan.layout.encoding.encoding).toBe(want.encoding)
    expect(r.notes).toContain(`columns: ${want.columns}; change one with --map FIELD=Column`)
    expect({ count: r.count, sum: r.sum, from: r.from, to: r.to }).toEqual({
      count: want.count,
      sum: want.sum,
      from: want.from,
      to: want.to,
    })
  })

  it('Danske Bank in ISO-8859-1 reads "Beløb" and "Hævet", and is sure of its code page', async () => {
    const r = await layout('dk-danske-bank-latin1-quoted-thousands-dot.csv')
    expect(r.plan.notes[0]).toBe(
      'encoding windows-1252 (detected: not utf-8; its letters read as German, French, Spanish, Dutch, Norwegian, Danish, Swedish, Finnish, Portuguese or Italian), delimiter ";"',
    )
    expect(r.rows.map((x) => x.request.description)).toContain('Hævet i automat Nørreport')
  })

  it('Alfa-Bank in windows-1251 reads its Cyrillic without --encoding, and "RUR" in Валюта is not taken as a currency', async () => {
    const r = await layout('ru-alfabank-cp1251-income-expense-columns-short-years.csv', { dateFormat: 'DD.MM.YY' })
    expect(r.plan.notes[0]).toBe('encoding windows-1251 (detected: not utf-8; its letters read as Russian or Ukrainian), delimiter ";"')
    expect(r.rows[0].request).toMatchObject({
      transaction_date: '2024-05-31',
      amount: '85000.00',
      description: '{VO11111} Перечисление ден. средств (зарплата за май 2024 г.)',
    })
    expect(r.rows.map((x) => x.request.amount)).toContain('-1234.50')
    expect(r.rows.every((x) => x.request.currency_code === 'EUR')).toBe(true)
  })

  it('Swedbank: the line before the header is skipped, and "Valuta" (SEK) is not taken for the value date', async () => {
    const r = await layout('se-swedbank-latin9-preamble-comma-three-dates.csv')
    expect(r.plan.headerLine).toBe(2)
    expect(r.rows[0].request).toMatchObject({ transaction_date: '2024-03-27', posted_date: '2024-03-28', description: 'ICA Nära Kortköp' })
  })

  it('monobank: the card-currency amount, not the operation one beside its currency, and "Валюта" is no row currency', async () => {
    const r = await layout('ua-monobank-utf8-comma-latin-i-card-currency-header.csv')
    const steam = r.rows.find((x) => x.request.description === 'Steam')
    expect(steam?.request).toMatchObject({ amount: '-412.35', currency_code: 'EUR', transaction_date: '2024-09-20' })
  })

  it('CGD: its footer lines of balances are skipped, not rejected, and its header names lose their trailing spaces', async () => {
    const r = await layout('pt-cgd-cp1252-preamble-trailing-spaces-debit-credit-footer.csv')
    expect(r.plan.headerLine).toBe(7)
    expect(r.plan.skipped.map((s) => s.line)).toEqual([14, 15])
    expect(r.rows.map((x) => x.request.amount)).toEqual(['-45.20', '-100.00', '1850.00', '-62.10', '-39.99', '-40.00'])
  })

  it('mBank: a description quoted over two lines is one row, and "-23,97 PLN" is read with its code', async () => {
    const r = await layout('pl-mbank-cp1250-preamble-hash-headers-amount-with-currency.csv')
    expect(r.plan.headerLine).toBe(15)
    expect(r.rows.map((x) => x.request.amount)).toEqual(['-23.97', '5300.00', '-14.00', '-780.50', '-255.09', '-7.00', '-154.00'])
    expect(r.rows[2].request.description).toBe('Skycash WWW.SKYCASH.COM BLIK ZAKUP E-COMMERCE')
  })
})

describe('layouts whose rows a column of text leaves without a description', () => {
  // Fio's interest row (line 19) and OP's service fee (line 5) have nothing in the message column
  // taken as the description: it is composed from the next text column that holds something.
  it('Fio: every other row, by the header of each field, and "Měna" as the row currency', async () => {
    const r = await layout('cz-fio-utf8-preamble-key-value-signed-objem.csv')
    expect(r.plan.headerLine).toBe(13)
    expect(r.notes).toContain(
      'columns: date <- Datum, amount <- Objem, description <- Zpráva pro příjemce (else Název protiúčtu, Uživatelská identifikace, Typ, Komentář, ID pohybu), merchant_name <- Název protiúčtu, currency_code <- Měna, reference <- ID pohybu; change one with --map FIELD=Column',
    )
    expect(r.rejected).toEqual([])
    expect({ count: r.count, sum: r.sum, from: r.from, to: r.to }).toEqual({
      count: 6,
      sum: '8852.13',
      from: '2021-06-01',
      to: '2021-06-30',
    })
    expect(r.rows.every((x) => x.request.currency_code === 'CZK')).toBe(true)
  })

  it('OP: every other row, with "Määrä EUROA" as the amount and Saaja/Maksaja as the merchant', async () => {
    const r = await layout('fi-op-latin1-trailing-semicolon-maara-euroa.csv')
    expect(r.plan.layout.encoding.encoding).toBe('windows-1252')
    expect(r.notes).toContain(
      'columns: date <- Kirjauspäivä, posted_date <- Arvopäivä, amount <- Määrä EUROA, description <- Viesti (else Saaja/Maksaja, Selitys, Arkistointitunnus), merchant_name <- Saaja/Maksaja, reference <- Arkistointitunnus; change one with --map FIELD=Column',
    )
    expect(r.rejected).toEqual([])
    expect({ count: r.count, sum: r.sum, from: r.from, to: r.to }).toEqual({
      count: 6,
      sum: '2232.15',
      from: '2024-01-02',
      to: '2024-01-20',
    })
  })
})

describe('header names as files write them', () => {
  it.each([
    [' Gross', 'gross'],
    ['Beløp', 'belop'],
    ['Beløb', 'belob'],
    ['Inn på konto', 'inn pa konto'],
    ['Hævet', 'haevet'],
    ['Bokföringsdag', 'bokfoeringsdag'],
    ['Määrä EUROA', 'maeaerae euroa'],
    ['Сумма операции', 'сумма операции'],
    ['Kwota', 'kwota'],
    ['Obciążenia/Uznania', 'obciazenia uznania'],
    ['Částka', 'castka'],
    ['Descrição ', 'descricao'],
    ['Importo (EUR)', 'importo eur'],
    ['Auftraggeber/Empfänger', 'auftraggeber empfaenger'],
  ])('%j normalises to %j, a name the mapping knows', (header, norm) => {
    expect(normalizeHeader(header)).toBe(norm)
    expect(isKnownHeader(header) || isKnownHeader(header.replace(/ \(EUR\)| EUROA/, ''))).toBe(true)
  })

  it('a PayPal export whose names carry a leading space: amount <- Net (what the balance moves by, fee off), date, name, currency', async () => {
    const r = await text(
      [
        'Date, Time, Time Zone, Name, Type, Status, Currency, Gross, Fee, Net, Balance',
        '01/15/2024, 10:02:11, PST, Acme Supplies, Express Checkout Payment, Completed, USD, -25.00, 0.00, -25.00, 75.00',
        '01/16/2024, 08:45:00, PST, Jane Client, Payment Received, Completed, USD, 100.00, -3.20, 96.80, 171.80',
      ].join('\n'),
    )
    expect(r.notes).toContain(
      'columns: date <- Date, amount <- Net, description <- Name (else Type), merchant_name <- Name, currency_code <- Currency; change one with --map FIELD=Column',
    )
    expect(r.sum).toBe('71.80')
    expect(r.rows.map((x) => x.request.currency_code)).toEqual(['USD', 'USD'])
  })

  it('Nordic letters: "Bokføringsdato", "Beløp" and "Tekst" map without --map', async () => {
    const r = await text('Bokføringsdato;Beløp;Tekst\n13.10.2024;-163,80;Varekjøp KIWI\n15.10.2024;17 250,00;Lønn\n')
    expect(r.notes).toContain('columns: date <- Bokføringsdato, amount <- Beløp, description <- Tekst; change one with --map FIELD=Column')
    expect(r.sum).toBe('17086.20')
  })

  it('Cyrillic: "Дата операции", "Сумма операции" and "Описание операции" map without --map', async () => {
    const r = await text('Дата операции;Сумма операции;Описание операции\n14.03.2024;-1500,00;Пятёрочка\n25.03.2024;45000,00;Зарплата\n')
    expect(r.notes).toContain(
      'columns: date <- Дата операции, amount <- Сумма операции, description <- Описание операции; change one with --map FIELD=Column',
    )
    expect(r.sum).toBe('43500.00')
  })

  it('--map finds a column by its name however the file accents or spaces it', async () => {
    const r = await text('Data mov. ;Descrição ;Montante ;Saldo\n27-09-2024;LEV ATM;-40,00;1.160,00\n', {
      map: [['description', 'descricao']],
    })
    expect(r.notes).toContain('description <- Descrição')
  })
})

describe('the debit/credit indicator in the languages the mapping knows', () => {
  /** A two-row file: 10.00 out and 4.00 in, unsigned, the direction in `column`. */
  const twoRows = (column: string, debit: string, credit: string) =>
    `Date,Description,Amount,${column}\n2024-05-02,Shop,10.00,${debit}\n2024-05-03,Refund,4.00,${credit}\n`

  it.each([
    ['CreditDebet', 'D', 'C'],
    ['Debet/Kredit', 'Debet', 'Kredit'],
    ['Type', 'Ut', 'Inn'],
    ['Tapahtumalaji', 'Veloitus', 'Hyvitys'],
    ['Obciążenia/Uznania', 'Obciążenie', 'Uznanie'],
    ['Typ operacji', 'Obciążenie', 'Uznanie'],
    ['Směr úhrady', 'Odchozí', 'Příchozí'],
    ['Typ', 'Výdaj', 'Příjem'],
    ['Дебет/Кредит', 'Д', 'К'],
    ['Приход/Расход', 'Расход', 'Приход'],
    ['Направление', 'Списание', 'Зачисление'],
    ['Тип операції', 'Дебет', 'Кредит'],
    ['Débito/Crédito', 'D', 'C'],
    ['Natureza', 'Débito', 'Crédito'],
    ['Dare/Avere', 'Dare', 'Avere'],
  ])('"%s" with %s / %s gives each unsigned amount its sign', async (column, debit, credit) => {
    const r = await text(twoRows(column, debit, credit))
    expect(r.sum).toBe('-6.00')
    expect(r.notes).toContain(`indicator <- ${column}`)
  })

  it("Knab's CreditDebet is the sign column of its unsigned Bedrag (D money out, C money in)", async () => {
    const r = await text(
      [
        '"Transactiedatum";"Valutacode";"CreditDebet";"Bedrag";"Tegenrekeninghouder";"Omschrijving"',
        '"22-04-2024";"EUR";"D";"12,50";"Albert Heijn";"Boodschappen"',
        '"23-04-2024";"EUR";"C";"1500,00";"Werkgever BV";"Salaris maart"',
        '"25-04-2024";"EUR";"D";"850,00";"Verhuurder";"Huur april"',
      ].join('\n'),
    )
    expect(r.notes).toContain('indicator <- CreditDebet')
    expect(r.rows.map((x) => x.request.amount)).toEqual(['-12.50', '1500.00', '-850.00'])
    expect(r.sum).toBe('637.50')
  })
})

/**
 * Bank CSV layouts finctl knows: each bank's export recognised by its header (the names it starts
 * with, in order) or, for a bank that writes no header, by the shape of its first line, and read
 * with the choices that export always needs (its date layout, decimal mark, which column is which),
 * so that even a file of two rows whose days are all 12 or less reads right. Flags win over a
 * layout, field by field. The plan says which layout it read a file as (layouts.ts). A layout is
 * added here (German exports in bank-layouts-de.ts, more in bank-layouts-world.ts) with a file built
 * from the bank's published format in test/fixtures/csv-layouts, and named in docs/csv-mapping.md.
 */
import type { BankLayout } from './bank-layout.js'
import { GERMAN_LAYOUTS } from './bank-layouts-de.js'
import { WORLD_LAYOUTS } from './bank-layouts-world.js'

export type { BankLayout } from './bank-layout.js'

const D = /^\d{2}\.\d{2}\.\d{4}$/
const AMOUNT_COMMA = /^[+-]?\d{1,3}(\.?\d{3})*,\d{2}$/
const CODE = /^[A-Z]{3}$/
const ANY = /^/

export const BANK_LAYOUTS: BankLayout[] = [
  {
    id: 'at-easybank',
    name: 'easybank (AT)',
    firstLine: [/^AT\d{18}$/, /\S/, D, D, AMOUNT_COMMA, CODE],
    map: [
      ['account', '1'],
      ['description', '2'],
      ['date', '3'],
      ['posted_date', '4'],
      ['amount', '5'],
      ['currency_code', '6'],
    ],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
  {
    id: 'at-raiffeisen',
    name: 'Raiffeisen ELBA (AT)',
    firstLine: [D, /\S/, D, AMOUNT_COMMA, CODE, /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}:\d{3}$/],
    map: [
      ['date', '1'],
      ['description', '2'],
      ['posted_date', '3'],
      ['amount', '4'],
      ['currency_code', '5'],
    ],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
  {
    id: 'nl-asn',
    name: 'ASN Bank (NL)',
    firstLine: [
      /^\d{2}-\d{2}-\d{4}$/,
      /^NL\d{2}[A-Z]{4}\d{10}$/,
      ...Array<RegExp>(5).fill(ANY),
      CODE,
      /^-?\d+\.\d{2}$/,
      CODE,
      /^-?\d+\.\d{2}$/,
      /^\d{2}-\d{2}-\d{4}$/,
      /^\d{2}-\d{2}-\d{4}$/,
      /^\d+$/,
      /^[A-Z]{3}$/,
      /^\d+$/,
      ANY,
      ANY,
      /^\d+$/,
    ],
    map: [
      ['date', '1'],
      ['account', '2'],
      ['merchant_name', '4'],
      ['currency_code', '10'],
      ['amount', '11'],
      ['posted_date', '13'],
      ['reference', '16'],
      ['description', '18'],
    ],
    dateFormat: 'DD-MM-YYYY',
  },
  {
    id: 'nl-knab',
    name: 'Knab (NL)',
    header: ['Rekeningnummer', 'Transactiedatum', 'Valutacode', 'CreditDebet', 'Bedrag', 'Tegenrekeningnummer', 'Tegenrekeninghouder'],
    map: [
      ['indicator', 'CreditDebet'],
      ['merchant_name', 'Tegenrekeninghouder'],
    ],
    dateFormat: 'DD-MM-YYYY',
    decimalComma: true,
  },
  {
    id: 'nl-ing',
    name: 'ING (NL)',
    header: ['Datum', 'Naam / Omschrijving', 'Rekening', 'Tegenrekening', 'Code', 'Af Bij', 'Bedrag (EUR)', 'Mutatiesoort', 'Mededelingen'],
    map: [
      ['description', 'Mededelingen'],
      ['merchant_name', 'Naam / Omschrijving'],
      ['indicator', 'Af Bij'],
    ],
    dateFormat: 'YYYYMMDD',
    decimalComma: true,
  },
  {
    id: 'gb-revolut',
    name: 'Revolut',
    header: ['Type', 'Product', 'Started Date', 'Completed Date', 'Description', 'Amount', 'Fee', 'Currency', 'State'],
    map: [
      ['date', 'Started Date'],
      ['posted_date', 'Completed Date'],
      ['fee', 'Fee'],
    ],
    dateFormat: 'YYYY-MM-DD',
    exclude: { column: 'State', values: ['REVERTED', 'DECLINED', 'FAILED'], why: 'never booked' },
  },
  {
    id: 'de-sparkasse-camt',
    name: 'Sparkasse CSV-CAMT (DE)',
    header: ['Auftragskonto', 'Buchungstag', 'Valutadatum', 'Buchungstext', 'Verwendungszweck', 'Glaeubiger ID', 'Mandatsreferenz'],
    map: [['merchant_name', 'Beguenstigter/Zahlungspflichtiger']],
    dateFormat: 'DD.MM.YY',
    decimalComma: true,
  },
  {
    id: 'de-dab',
    name: 'DAB BNP Paribas (DE)',
    header: ['Buchungstag', 'Valuta', 'Buchungstext', 'Auftraggeber / Empfänger', 'Verwendungszweck', 'Betrag in EUR'],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
  {
    id: 'de-dkb-card',
    name: 'DKB credit card (DE)',
    header: ['Umsatz abgerechnet', 'Wertstellung', 'Belegdatum', 'Umsatzbeschreibung', 'Betrag (EUR)'],
    map: [
      ['date', 'Belegdatum'],
      ['posted_date', 'Wertstellung'],
    ],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
  { id: 'no-dnb', name: 'DNB (NO)', header: ['Dato', 'Forklaring', 'Rentedato', 'Ut fra konto', 'Inn på konto'], dateFormat: 'DD.MM.YYYY' },
  {
    id: 'dk-danske',
    name: 'Danske Bank (DK)',
    header: ['Dato', 'Tekst', 'Beløb', 'Saldo', 'Status', 'Afstemt'],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
  {
    id: 'se-swedbank',
    name: 'Swedbank (SE)',
    header: ['Radnummer', 'Clearingnummer', 'Kontonummer', 'Produkt', 'Valuta', 'Bokföringsdag', 'Transaktionsdag', 'Valutadag'],
    dateFormat: 'YYYY-MM-DD',
  },
  {
    id: 'fi-op',
    name: 'OP (FI)',
    header: ['Kirjauspäivä', 'Arvopäivä', 'Määrä EUROA', 'Laji', 'Selitys', 'Saaja/Maksaja'],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
  {
    id: 'pl-mbank',
    name: 'mBank (PL)',
    header: ['#Data operacji', '#Opis operacji', '#Rachunek', '#Kategoria', '#Kwota'],
    dateFormat: 'YYYY-MM-DD',
    decimalComma: true,
  },
  {
    id: 'cz-fio',
    name: 'Fio banka (CZ)',
    header: ['ID pohybu', 'Datum', 'Objem', 'Měna', 'Protiúčet', 'Název protiúčtu'],
    dateFormat: 'DD.MM.YYYY',
  },
  {
    id: 'ru-alfabank',
    name: 'Alfa-Bank (RU)',
    header: ['Тип счёта', 'Номер счета', 'Валюта', 'Дата операции', 'Референс проводки', 'Описание операции', 'Приход', 'Расход'],
    map: [['account', 'Номер счета']],
    dateFormat: 'DD.MM.YY',
  },
  {
    id: 'ua-monobank',
    name: 'monobank (UA)',
    header: ['Дата i час операції', 'Деталі операції', 'MCC', 'Сума в валюті картки (UAH)'],
    dateFormat: 'DD.MM.YYYY',
  },
  {
    id: 'pt-cgd',
    name: 'Caixa Geral de Depósitos (PT)',
    header: ['Data mov.', 'Data valor', 'Descrição', 'Débito', 'Crédito'],
    dateFormat: 'DD-MM-YYYY',
    decimalComma: true,
  },
  {
    id: 'it-unicredit',
    name: 'UniCredit (IT)',
    header: ['Data Registrazione', 'Data valuta', 'Descrizione', 'Importo (EUR)'],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
  ...GERMAN_LAYOUTS,
  ...WORLD_LAYOUTS,
]

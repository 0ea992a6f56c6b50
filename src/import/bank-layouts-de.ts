/**
 * German banks' CSV exports (bank-layouts.ts has the others and says how a layout is used). Most
 * write dates whose days a short file cannot tell from months, and amounts whose decimal comma a
 * file of round sums cannot show (`-1.000` is a thousand euros at DKB): the layouts pin both. Each
 * header here is long enough that an older export of the same bank, with other columns, is not
 * taken for it (its columns named in `map` would be missing); such a file is read by detection.
 */
import type { BankLayout } from './bank-layout.js'

export const GERMAN_LAYOUTS: BankLayout[] = [
  {
    id: 'de-dkb-giro',
    name: 'DKB Girokonto (DE)',
    header: ['Buchungsdatum', 'Wertstellung', 'Status', 'Zahlungspflichtige*r', 'Zahlungsempfänger*in', 'Verwendungszweck', 'Umsatztyp'],
    map: [
      ['date', 'Buchungsdatum'],
      ['posted_date', 'Wertstellung'],
      ['description', 'Verwendungszweck'],
    ],
    dateFormat: 'DD.MM.YY',
    decimalComma: true,
    // A pending card payment is written again when booked, under its booking date: both would be imported.
    exclude: { column: 'Status', values: ['Vorgemerkt'], why: 'pending, to come again booked in a later export' },
  },
  {
    id: 'de-ing',
    name: 'ING (DE)',
    header: ['Buchung', 'Wertstellungsdatum', 'Auftraggeber/Empfänger', 'Buchungstext'],
    // Two columns are named Währung: the balance's, then the amount's, always last.
    map: [
      ['date', 'Buchung'],
      ['posted_date', 'Wertstellungsdatum'],
      ['currency_code', '-1'],
    ],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
  {
    id: 'de-ing-valuta',
    name: 'ING (DE), older export',
    header: ['Buchung', 'Valuta', 'Auftraggeber/Empfänger', 'Buchungstext'],
    map: [
      ['date', 'Buchung'],
      ['posted_date', 'Valuta'],
      ['currency_code', '-1'],
    ],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
  {
    id: 'de-commerzbank',
    name: 'Commerzbank (DE)',
    header: ['Buchungstag', 'Wertstellung', 'Umsatzart', 'Buchungstext', 'Betrag', 'Währung', 'IBAN Kontoinhaber'],
    map: [['account', 'IBAN Kontoinhaber']],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
  {
    id: 'de-comdirect',
    name: 'comdirect (DE)',
    header: ['Buchungstag', 'Wertstellung (Valuta)', 'Vorgang', 'Buchungstext'],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
  {
    id: 'de-deutsche-bank',
    name: 'Deutsche Bank / Postbank (DE)',
    header: ['Buchungstag', 'Wert', 'Umsatzart', 'Begünstigter / Auftraggeber', 'Verwendungszweck', 'IBAN / Kontonummer'],
    // Betrag is signed; Soll and Haben repeat it, each on its side.
    map: [
      ['amount', 'Betrag'],
      ['posted_date', 'Wert'],
    ],
    dateFormat: 'D.M.YYYY',
    decimalComma: true,
  },
  {
    id: 'de-atruvia',
    name: 'Volksbank Raiffeisenbank (DE)',
    header: [
      'Bezeichnung Auftragskonto',
      'IBAN Auftragskonto',
      'BIC Auftragskonto',
      'Bankname Auftragskonto',
      'Buchungstag',
      'Valutadatum',
    ],
    map: [
      ['account', 'IBAN Auftragskonto'],
      ['merchant_name', 'Name Zahlungsbeteiligter'],
    ],
    dateFormat: 'DD.MM.YYYY',
    decimalComma: true,
  },
]

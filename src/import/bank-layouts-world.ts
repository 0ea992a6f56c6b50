/**
 * More banks' and payment services' CSV exports (bank-layouts.ts has the others and says how a
 * layout is used). Where an export carries a second amount beside the one the balance moves by (a
 * gross before its fee, an amount in the card's or the payment's own currency), the layout names
 * the right one; where its dates are a locale's, the layout pins them so that a month of days under
 * 13 reads right. PayPal writes its dates and decimals in the account's locale: not pinned.
 */
import type { BankLayout } from './bank-layout.js'

export const WORLD_LAYOUTS: BankLayout[] = [
  {
    id: 'us-paypal',
    name: 'PayPal',
    header: ['Date', 'Time', 'TimeZone', 'Name', 'Type', 'Status', 'Currency', 'Gross', 'Fee', 'Net'],
    // Net is what the balance moves by: Gross less the Fee, which is not taken off again.
    map: [['amount', 'Net']],
    exclude: { column: 'Balance Impact', values: ['Memo'], why: 'an authorization or a hold, which the balance is not moved by' },
  },
  {
    id: 'us-paypal-older',
    name: 'PayPal, older export',
    header: ['Date', 'Time', 'Time Zone', 'Name', 'Type', 'Status', 'Currency', 'Gross', 'Fee', 'Net'],
    map: [['amount', 'Net']],
  },
  {
    id: 'de-n26',
    name: 'N26',
    header: ['Booking Date', 'Value Date', 'Partner Name', 'Partner Iban', 'Type', 'Payment Reference', 'Account Name', 'Amount (EUR)'],
    // Original Amount is the card payment's own, unsigned, in Original Currency: never the row's.
    map: [
      ['date', 'Booking Date'],
      ['posted_date', 'Value Date'],
      ['amount', 'Amount (EUR)'],
      ['merchant_name', 'Partner Name'],
      ['description', 'Payment Reference'],
    ],
    dateFormat: 'YYYY-MM-DD',
  },
  {
    id: 'gb-monzo',
    name: 'Monzo',
    header: ['Transaction ID', 'Date', 'Time', 'Type', 'Name', 'Emoji', 'Category', 'Amount', 'Currency'],
    // Local amount is in the currency paid abroad; Money Out and Money In repeat Amount.
    map: [
      ['amount', 'Amount'],
      ['currency_code', 'Currency'],
      ['merchant_name', 'Name'],
      ['reference', 'Transaction ID'],
    ],
    dateFormat: 'DD/MM/YYYY',
  },
  {
    id: 'us-chase-checking',
    name: 'Chase checking (US)',
    header: ['Details', 'Posting Date', 'Description', 'Amount', 'Type', 'Balance', 'Check or Slip #'],
    map: [['reference', 'Check or Slip #']],
    dateFormat: 'MM/DD/YYYY',
  },
  {
    id: 'us-chase-card',
    name: 'Chase credit card (US)',
    header: ['Transaction Date', 'Post Date', 'Description', 'Category', 'Type', 'Amount'],
    dateFormat: 'MM/DD/YYYY',
  },
  {
    id: 'us-amex',
    name: 'American Express (US)',
    header: ['Date', 'Description', 'Amount', 'Extended Details', 'Appears On Your Statement As'],
    // A charge is written positive and a payment or a credit negative: the other way round from an account's.
    map: [['reference', 'Reference']],
    dateFormat: 'MM/DD/YYYY',
    invertSign: true,
  },
  {
    id: 'us-amex-card-member',
    name: 'American Express (US), with card members',
    header: ['Date', 'Description', 'Card Member', 'Account #', 'Amount', 'Extended Details'],
    map: [['reference', 'Reference']],
    dateFormat: 'MM/DD/YYYY',
    invertSign: true,
  },
  {
    id: 'gb-wise',
    name: 'Wise',
    header: ['TransferWise ID', 'Date'],
    // Amount has the fees in it already (Total fees only says how much of it they were).
    map: [
      ['date', 'Date'],
      ['amount', 'Amount'],
      ['currency_code', 'Currency'],
      ['description', 'Description'],
      ['reference', 'TransferWise ID'],
    ],
    dateFormat: 'DD-MM-YYYY',
  },
  {
    id: 'fi-nordea',
    name: 'Nordea (FI)',
    header: ['Kirjauspäivä', 'Määrä', 'Maksaja', 'Maksunsaaja', 'Nimi', 'Otsikko'],
    // Maksaja and Maksunsaaja are account numbers (the holder's own on one side), not names.
    map: [
      ['merchant_name', 'Nimi'],
      ['description', 'Otsikko'],
    ],
    dateFormat: 'YYYY/MM/DD',
    decimalComma: true,
  },
  {
    id: 'nl-rabobank',
    name: 'Rabobank (NL)',
    header: ['IBAN/BBAN', 'Munt', 'BIC', 'Volgnr', 'Datum', 'Rentedatum', 'Bedrag', 'Saldo na trn'],
    // Oorspr bedrag and Oorspr munt are a card payment's own amount abroad, not the row's.
    map: [
      ['account', 'IBAN/BBAN'],
      ['currency_code', 'Munt'],
      ['reference', 'Volgnr'],
      ['merchant_name', 'Naam tegenpartij'],
      ['description', 'Omschrijving-1'],
      ['description', 'Omschrijving-2'],
      ['description', 'Omschrijving-3'],
    ],
    dateFormat: 'YYYY-MM-DD',
    decimalComma: true,
  },
]

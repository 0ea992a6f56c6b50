/**
 * The bank layouts finctl knows (src/import/bank-layouts.ts), each on a file built in the project
 * from the bank's published export (test/fixtures/csv-layouts, its README) or a real export of the
 * corpus (../shared/fixtures/bank-files): recognised by its header or first line, the plan naming
 * the layout, and every row read with the count and sum the file was built with. Flags still win.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BANK_LAYOUTS } from '../../src/import/bank-layouts.js'
import { planImportBytes } from '../../src/import/plan.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'
import { readLayoutFile } from '../helpers/layout-read.js'

const LAYOUTS = join(import.meta.dirname, '..', 'fixtures', 'csv-layouts')

/** [file, layout name, how recognised, rows, sum]: each sum added up by hand from the file. */
const BUILT: Array<[string, string, 'its header' | 'its first line', number, string]> = [
  ['at-easybank-no-header-latin1.csv', 'easybank (AT)', 'its first line', 5, '986.63'],
  ['at-raiffeisen-no-header-timestamp.csv', 'Raiffeisen ELBA (AT)', 'its first line', 5, '1139.25'],
  ['nl-asn-no-header-balance-before.csv', 'ASN Bank (NL)', 'its first line', 6, '1940.55'],
  ['nl-knab-creditdebet-empty-omschrijving.csv', 'Knab (NL)', 'its header', 6, '1664.60'],
  ['nl-ing-zero-fee-af-bij.csv', 'ING (NL)', 'its header', 4, '1926.83'],
  ['gb-revolut-zero-card-hold.csv', 'Revolut', 'its header', 5, '113.56'],
  ['gb-revolut-fee-reverted-row.csv', 'Revolut', 'its header', 4, '190.65'],
  ['de-sparkasse-csv-camt-zero-abschluss.csv', 'Sparkasse CSV-CAMT (DE)', 'its header', 4, '1555.62'],
  ['no-dnb-quoted-text-unquoted-out-in-columns.csv', 'DNB (NO)', 'its header', 6, '31553.15'],
  ['dk-danske-bank-latin1-quoted-thousands-dot.csv', 'Danske Bank (DK)', 'its header', 7, '12180.00'],
  ['se-swedbank-latin9-preamble-comma-three-dates.csv', 'Swedbank (SE)', 'its header', 7, '20119.60'],
  ['fi-op-latin1-trailing-semicolon-maara-euroa.csv', 'OP (FI)', 'its header', 6, '2232.15'],
  ['pl-mbank-cp1250-preamble-hash-headers-amount-with-currency.csv', 'mBank (PL)', 'its header', 7, '4065.44'],
  ['cz-fio-utf8-preamble-key-value-signed-objem.csv', 'Fio banka (CZ)', 'its header', 6, '8852.13'],
  ['ru-alfabank-cp1251-income-expense-columns-short-years.csv', 'Alfa-Bank (RU)', 'its header', 6, '79516.40'],
  ['ua-monobank-utf8-comma-latin-i-card-currency-header.csv', 'monobank (UA)', 'its header', 6, '25212.65'],
  ['pt-cgd-cp1252-preamble-trailing-spaces-debit-credit-footer.csv', 'Caixa Geral de Depósitos (PT)', 'its header', 6, '1562.71'],
  ['it-unicredit-trailing-semicolon-dotted-dates-padded-text.csv', 'UniCredit (IT)', 'its header', 7, '789.30'],
  ['us-paypal-activity-bom-net-memo-currency-conversion.csv', 'PayPal', 'its header', 6, '137.05 EUR, 0.00 USD'],
  ['de-paypal-older-leading-space-names-decimal-comma.csv', 'PayPal, older export', 'its header', 5, '-961.36'],
  ['de-dkb-giro-bom-preamble-short-years-pending-thousands-no-decimals.csv', 'DKB Girokonto (DE)', 'its header', 5, '2224.15'],
  ['de-ing-latin1-preamble-saldo-two-currency-columns.csv', 'ING (DE)', 'its header', 5, '2004.30'],
  ['de-ing-older-latin1-valuta-kategorie-column.csv', 'ING (DE), older export', 'its header', 6, '-322.64'],
  ['de-commerzbank-bom-dropped-decimals-own-iban-column.csv', 'Commerzbank (DE)', 'its header', 5, '1667.85'],
  ['de-comdirect-latin1-preamble-offen-rows-trailing-semicolon.csv', 'comdirect (DE)', 'its header', 5, '1524.27'],
  ['de-deutsche-bank-postbank-bom-preamble-unpadded-dates-footer.csv', 'Deutsche Bank / Postbank (DE)', 'its header', 5, '2361.06'],
  ['de-vr-atruvia-bom-own-iban-columns-abschluss-fee.csv', 'Volksbank Raiffeisenbank (DE)', 'its header', 5, '2089.99'],
  ['de-n26-booking-value-dates-original-amount-spaces.csv', 'N26', 'its header', 7, '1830.91'],
  ['gb-monzo-days-under-13-local-currency-money-out-in.csv', 'Monzo', 'its header', 6, '1575.89'],
  ['us-chase-checking-days-under-13-details-check-dslip-trailing-comma.csv', 'Chase checking (US)', 'its header', 6, '2247.35'],
  ['us-chase-card-days-under-13-sale-negative-payment-positive.csv', 'Chase credit card (US)', 'its header', 6, '319.05'],
  ['us-amex-charges-positive-multiline-details-apostrophe-reference.csv', 'American Express (US)', 'its header', 6, '-110.14'],
  ['us-amex-card-member-account-columns-two-cards.csv', 'American Express (US), with card members', 'its header', 5, '-591.40'],
  ['gb-wise-statement-days-under-13-total-fees-inside-amount.csv', 'Wise', 'its header', 5, '995.34'],
  ['fi-nordea-bom-varaus-rows-slashed-iso-dates-payer-iban.csv', 'Nordea (FI)', 'its header', 5, '1566.80'],
  ['nl-rabobank-latin1-comma-quoted-plus-signs-original-amount.csv', 'Rabobank (NL)', 'its header', 6, '1510.17'],
]

describe('bank layouts, each on a file built from its published format', () => {
  it.each(BUILT)('%s is read as the %s layout, by %s: %i rows, %s', async (file, name, by, count, sum) => {
    const r = await readLayoutFile(join(LAYOUTS, file))
    expect(r.notes).toContain(`read as the ${name} layout (recognised by ${by})`)
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count, sum, rejects: [] })
  })

  it('every layout has a file here that it recognises', async () => {
    const names = new Set<string>()
    for (const [file, name] of BUILT)
      if ((await readLayoutFile(join(LAYOUTS, file))).notes.includes(`read as the ${name} layout`)) names.add(name)
    const corpus = new Set(['DAB BNP Paribas (DE)', 'DKB credit card (DE)'])
    expect(BANK_LAYOUTS.map((l) => l.name).filter((n) => !names.has(n) && !corpus.has(n))).toEqual([])
  })

  it('Revolut: a fee is money out beside the amount, and a reverted payment no movement; the balance column agrees', async () => {
    const r = await readLayoutFile(join(LAYOUTS, 'gb-revolut-fee-reverted-row.csv'))
    expect(r.rows.map((x) => [x.line, x.request.amount])).toEqual([
      [2, '500.00'],
      [3, '-100.50'],
      [4, '-6.85'],
      [6, '-202.00'],
    ])
    expect(r.skipped).toEqual([{ line: 5, reason: 'State is "REVERTED": never booked, not a movement' }])
    expect(r.notes).toContain('fee "Fee": each row\'s amount is less its fee, what the balance moves by')
  })

  it('a layout pins what a small file cannot show: two Sparkasse rows whose days are all 12 or less', async () => {
    const two = [
      '"Auftragskonto";"Buchungstag";"Valutadatum";"Buchungstext";"Verwendungszweck";"Glaeubiger ID";"Mandatsreferenz";"Kundenreferenz (End-to-End)";"Sammlerreferenz";"Lastschrift Ursprungsbetrag";"Auslagenersatz Ruecklastschrift";"Beguenstigter/Zahlungspflichtiger";"Kontonummer/IBAN";"BIC (SWIFT-Code)";"Betrag";"Waehrung";"Info"',
      '"DE44500105175407324931";"02.03.24";"02.03.24";"LASTSCHRIFT";"Miete";"";"";"";"";"";"";"Vermieter";"DE02120300000000202051";"BYLADEM1001";"-850,00";"EUR";"Umsatz gebucht"',
      '"DE44500105175407324931";"05.03.24";"05.03.24";"GUTSCHRIFT";"Gehalt";"";"";"";"";"";"";"Firma";"DE89370400440532013000";"COBADEFFXXX";"2.000,00";"EUR";"Umsatz gebucht"',
    ].join('\n')
    const plan = await planImportBytes(new TextEncoder().encode(two))
    expect(plan.dateFormat.name).toBe('DD.MM.YY')
    expect(plan.notes).toContain("dates DD.MM.YY (the Sparkasse CSV-CAMT (DE) layout's)")
    expect(plan.decimal).toBe(',')
    // Without the layout the two dates read as DD.MM.YY, MM.DD.YY and YY.MM.DD alike: refused, never guessed.
    await expect(planImportBytes(new TextEncoder().encode(two), { layouts: false })).rejects.toThrow(/the dates could be/)
  })

  it('flags win over the layout, field by field', async () => {
    const r = await readLayoutFile(join(LAYOUTS, 'nl-knab-creditdebet-empty-omschrijving.csv'), { map: [['description', 'Betaalwijze']] })
    expect(r.notes).toContain('read as the Knab (NL) layout')
    expect(r.rows[0].request.description).toBe('Betaalautomaat')
    expect(r.notes).toContain('indicator <- CreditDebet')
  })

  it.skipIf(!HAS_BANK_FILES).each([
    ['de-dab-bnp-bom-semicolon-decimal-comma.csv', 'DAB BNP Paribas (DE)', 7, '10053.90'],
    ['de-dkb-creditcard-latin1-preamble-lines.csv', 'DKB credit card (DE)', 7, '-184.70'],
    ['us-chase-style-checking-signed-balance.csv', 'Chase checking (US)', 6, '-1490.16'],
  ])('the real export %s is read as the %s layout: %i rows, %s', async (file, name, count, sum) => {
    const r = await readLayoutFile(bankFile('csv', file))
    expect(r.notes).toContain(`read as the ${name} layout`)
    expect({ count: r.count, sum: r.sum, rejects: r.rejects }).toEqual({ count, sum, rejects: [] })
  })
})

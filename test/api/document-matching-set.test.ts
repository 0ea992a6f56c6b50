/**
 * The labelled set of docs/documents.md, "How matching scored": 26 documents built here (PDFs with
 * text, CII and UBL invoices, a ZUGFeRD PDF, scans named by date and amount) added one by one with
 * auto-linking on, against a month of transactions with decoys (the same amount on another date,
 * the same merchant with another amount, another currency, two equal candidates). Each document
 * is labelled with the transaction it proves, or none. Auto-links must never be wrong; the counts
 * are printed and pinned, so a change of the rule that moves them changes the page too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { ciiInvoice, textPdf, tinyPng, ublInvoiceOf } from '../helpers/document-files.js'
import { createHarness, type Harness } from '../helpers/harness.js'

type TxKey = `t${number}` | `e${number}`

/** A month of transactions: [key, date, amount, description, account (USD unless EUR)]. */
const MONTH: Array<[TxKey, string, string, string, ('EUR' | 'USD')?]> = [
  ['t1', '2026-10-02', '-45.90', 'CARD Hardware Store Meier'],
  ['t2', '2026-10-03', '-119.00', 'SEPA ACME Tools GmbH INV-1001'],
  ['t3', '2026-10-05', '-23.40', 'Taxi Berlin 4711'],
  ['t4', '2026-10-06', '-1234.50', 'Transfer Office Rent Kruger'],
  ['t5', '2026-10-07', '-12.99', 'Spotify'],
  ['t6', '2026-10-09', '-89.00', 'Amazon Marketplace'],
  ['t7', '2026-10-09', '-89.00', 'Amazon Marketplace'],
  ['t8', '2026-10-12', '-250.00', 'Lufthansa booking LH123'],
  ['t9', '2026-10-14', '-75.00', 'Stadtwerke Strom'],
  ['t11', '2026-10-16', '-19.90', 'PAYPAL *NETFLIX'],
  ['t12', '2026-10-18', '-64.20', 'REWE Markt 1234'],
  ['t13', '2026-10-25', '-64.20', 'Shell Tankstelle'],
  ['t14', '2026-10-21', '-300.00', 'Consulting Partners LLC'],
  ['t15', '2026-10-22', '500.00', 'Customer payment Nordwind'],
  ['t16', '2026-10-23', '-42.00', 'Deutsche Bahn'],
  ['t17', '2026-10-25', '-15.00', 'Parking garage City'],
  ['t18', '2026-10-27', '-99.99', 'Adobe Creative Cloud'],
  ['t19', '2026-10-28', '-8.50', 'Bakery Sonnenschein'],
  ['t20', '2026-10-29', '-149.00', 'Office Depot'],
  ['t21', '2026-10-30', '-75.00', 'Stadtwerke Strom'],
  ['t22', '2026-10-04', '-35.00', 'Restaurant Da Luigi'],
  ['t23', '2026-10-11', '-35.00', 'Restaurant Da Luigi'],
  ['e1', '2026-10-13', '-99.99', 'Adobe Systems Ireland', 'EUR'],
  ['e2', '2026-10-19', '-210.00', 'Hotel Adlon', 'EUR'],
]

const inv = (seller: string, amount: string, date: string, currency = 'USD') => ({ id: `INV-${seller}`, seller, amount, date, currency })

/** [name, bytes, the transaction it proves or null]. */
const DOCUMENTS: Array<[string, Buffer, TxKey | null]> = [
  ['meier.pdf', textPdf(['Hardware Store Meier', 'Receipt 2026-10-02', 'TOTAL USD 45.90']), 't1'],
  ['acme.xml', ciiInvoice(inv('ACME Tools GmbH', '119.00', '2026-09-28')), 't2'],
  ['2026-10-05 Taxi 23.40 USD.png', tinyPng(), 't3'],
  ['kruger.xml', ublInvoiceOf(inv('Kruger Immobilien', '1234.50', '2026-10-01')), 't4'],
  ['spotify.pdf', textPdf(['Spotify AB', 'Receipt', 'Date: 2026-10-07', 'Total $12.99']), 't5'],
  ['amazon.pdf', textPdf(['Amazon Marketplace', 'Order 2026-10-09', 'Order Total: USD 89.00']), null],
  ['lh.xml', ublInvoiceOf(inv('Lufthansa', '250.00', '2026-10-12')), 't8'],
  [
    'strom.pdf',
    textPdf(['Stadtwerke München'], { name: 'factur-x.xml', bytes: ciiInvoice(inv('Stadtwerke München', '75.00', '2026-10-14')) }),
    't9',
  ],
  ['netflix.pdf', textPdf(['Netflix', 'Your receipt', '16/10/2026', 'Total 19.90 USD']), 't11'],
  ['rewe.pdf', textPdf(['REWE Markt GmbH', 'Datum 18.10.2026', 'SUMME USD 64,20']), 't12'],
  ['consulting.pdf', textPdf(['Consulting Partners LLC', 'Invoice date: 2026-09-25', 'Amount due: USD 300.00']), 't14'],
  ['2026-10-23_deutsche-bahn_42.00USD.pdf', textPdf(['Online-Ticket']), 't16'],
  ['parking 15,00.png', Buffer.concat([tinyPng(), Buffer.from('second')]), 't17'],
  ['adobe-usd.xml', ublInvoiceOf(inv('Adobe', '99.99', '2026-10-27')), 't18'],
  ['bakery.pdf', textPdf(['Bakery Sonnenschein', '28.10.2026', 'Total 8.50 USD']), 't19'],
  ['depot.xml', ciiInvoice(inv('Office Depot', '149.00', '2026-10-29')), 't20'],
  ['luigi-1.pdf', textPdf(['Restaurant Da Luigi', '2026-10-04', 'Totale USD 35.00']), 't22'],
  ['adlon.pdf', textPdf(['Hotel Adlon Kempinski', 'Rechnungsdatum 19.10.2026', 'Gesamtbetrag 210,00 EUR']), 'e2'],
  ['adobe-eur.xml', ublInvoiceOf(inv('Adobe', '99.99', '2026-10-13', 'EUR')), 'e1'],
  ['unknown.pdf', textPdf(['Unknown Shop', '2026-10-10', 'Total 77.77 USD']), null],
  ['parking.pdf', textPdf(['Parking garage City', '2026-10-25', 'Total USD 15.00']), 't17'],
  ['amazon-undated.pdf', textPdf(['Amazon Marketplace', 'Total USD 89.00']), null],
  ['spotify-family.pdf', textPdf(['Spotify AB', 'Date: 2026-10-07', 'Total USD 9.99']), null],
  ['adlon-usd.pdf', textPdf(['Hotel Adlon Kempinski', '2026-10-19', 'Total USD 210.00']), null],
  ['strom-nov.xml', ublInvoiceOf(inv('Stadtwerke München', '75.00', '2026-10-30')), 't21'],
  ['luigi-2.pdf', textPdf(['Restaurant Da Luigi', '2026-10-11', 'Totale USD 35.00']), 't23'],
]

describe('how matching scores on the labelled set', () => {
  let h: Harness
  let c: Client
  const ids = new Map<TxKey, string>()

  beforeAll(async () => {
    h = await createHarness('embedded', 'sqlite')
    const a = await h.tenant('Matching set')
    c = h.client({ apiKey: a.key })
    const eur = await c.accounts.create({ name: 'Euro', account_type: 'checking', currency_code: 'EUR' })
    for (const [key, date, amount, description, currency] of MONTH) {
      const t = await c.transactions.create({
        bank_account_id: currency === 'EUR' ? eur.id : a.accountId,
        transaction_date: date,
        amount,
        description,
        ...(currency === 'EUR' ? { exchange_rate: '1.1' } : {}),
      })
      ids.set(key, t.id)
    }
  })
  afterAll(async () => {
    await h?.close()
  })

  it('links by itself only what it is sure of: no wrong link', async () => {
    const key = new Map([...ids].map(([k, v]) => [v, k]))
    const outcome = { right: 0, wrong: 0, unlinked: 0, unlinkedRightFirst: 0 }
    const lines: string[] = []
    for (const [name, bytes, want] of DOCUMENTS) {
      const d = await c.documents.add({ file_name: name, content_base64: bytes.toString('base64') })
      const got = d.auto_linked ? key.get(d.auto_linked) : null
      if (got === undefined) throw new Error(`${name}: linked to a transaction of no label`)
      if (got === null) {
        outcome.unlinked++
        const first = (await c.documents.suggestion(d.id)).candidates[0]
        if (want && first && key.get(first.transaction_id) === want) outcome.unlinkedRightFirst++
      } else if (got === want) outcome.right++
      else outcome.wrong++
      lines.push(`${name}: want ${want ?? 'none'}, linked ${got ?? 'none'}`)
    }
    console.log(`matching set: ${DOCUMENTS.length} documents\n${lines.join('\n')}\n${JSON.stringify(outcome)}`)
    expect(outcome.wrong).toBe(0)
    // Pinned: docs/documents.md, "How matching scored", gives these numbers.
    expect(outcome).toEqual({ right: 19, wrong: 0, unlinked: 7, unlinkedRightFirst: 2 })
  })
})

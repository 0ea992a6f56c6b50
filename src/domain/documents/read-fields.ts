/**
 * What a document says it is about (docs/documents.md, "Matching"): its amount (integer minor units
 * of its currency, never a float), currency, date and merchant, read from an e-invoice's fields
 * exactly (CII as in ZUGFeRD / Factur-X, UBL), else from a PDF's text, else from the file's name
 * ("2026-10-03_acme_119.00EUR.pdf"). Pure: the PDF's text and embedded files are read elsewhere
 * (read-pdf.ts) and handed in.
 */
import { XMLParser } from 'fast-xml-parser'
import { currencyExponent, isCurrency } from '../../kernel/currencies.js'
import { parseAmount } from '../../kernel/money.js'
import { parseLocaleAmount } from '../../import/amount.js'

export const FIELD_SOURCES = ['cii', 'ubl', 'pdf_xml', 'pdf_text', 'file_name'] as const
export type FieldSource = (typeof FIELD_SOURCES)[number]

export interface DocumentFields {
  /** Minor units of `currency`, as the document writes it (an invoice's total is positive, a credit note's too). */
  amount_minor: number | null
  currency: string | null
  /** YYYY-MM-DD. */
  date: string | null
  merchant: string | null
  /** Where each found field came from, in order of trust: "pdf_text+file_name". */
  source: string | null
}

export const NO_FIELDS: DocumentFields = { amount_minor: null, currency: null, date: null, merchant: null, source: null }

type Node = Record<string, unknown>

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
})

/** A child by path; the first of a repeated element. */
function at(node: unknown, ...path: string[]): unknown {
  let n = node
  for (const p of path) {
    if (Array.isArray(n)) n = n[0]
    if (n === null || typeof n !== 'object') return undefined
    n = (n as Node)[p]
  }
  return Array.isArray(n) ? n[0] : n
}

const text = (n: unknown): string | undefined => {
  const t = typeof n === 'string' ? n : n && typeof n === 'object' ? (n as Node)['#text'] : undefined
  return typeof t === 'string' && t.trim() !== '' ? t.trim() : undefined
}
const attr = (n: unknown, name: string): string | undefined =>
  n && typeof n === 'object' ? (text((n as Node)[`@_${name}`]) ?? undefined) : undefined

function isoDate(y: string, m: string, d: string): string | null {
  const iso = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`
  const t = Date.parse(`${iso}T00:00:00Z`)
  return Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== iso ? null : iso
}

/** An e-invoice's decimal amount ("119.00") in minor units of `currency`; null when it has more decimals than the currency. */
function xmlAmount(value: string | undefined, currency: string | null): number | null {
  if (!value || !currency) return null
  const r = parseAmount(value, currencyExponent(currency))
  return r.ok ? r.minor : null
}

const currencyOf = (code: string | undefined) => (code && isCurrency(code.toUpperCase()) ? code.toUpperCase() : null)

/** CII (rsm:CrossIndustryInvoice): DuePayableAmount, else GrandTotalAmount; IssueDateTime; SellerTradeParty's Name. */
function readCii(root: unknown): DocumentFields {
  const trade = at(root, 'SupplyChainTradeTransaction')
  const settlement = at(trade, 'ApplicableHeaderTradeSettlement')
  const sums = at(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation')
  const amountNode = text(at(sums, 'DuePayableAmount')) !== undefined ? at(sums, 'DuePayableAmount') : at(sums, 'GrandTotalAmount')
  const currency = currencyOf(attr(amountNode, 'currencyID')) ?? currencyOf(text(at(settlement, 'InvoiceCurrencyCode')))
  const when = at(root, 'ExchangedDocument', 'IssueDateTime', 'DateTimeString')
  const digits = /^(\d{4})(\d{2})(\d{2})$/.exec(text(when) ?? '')
  return {
    amount_minor: xmlAmount(text(amountNode), currency),
    currency,
    date: digits ? isoDate(digits[1], digits[2], digits[3]) : null,
    merchant: text(at(trade, 'ApplicableHeaderTradeAgreement', 'SellerTradeParty', 'Name')) ?? null,
    source: 'cii',
  }
}

/** UBL (Invoice or CreditNote): LegalMonetaryTotal's PayableAmount and its currencyID; IssueDate; AccountingSupplierParty's name. */
function readUbl(root: unknown): DocumentFields {
  const total = at(root, 'LegalMonetaryTotal')
  const amountNode = text(at(total, 'PayableAmount')) !== undefined ? at(total, 'PayableAmount') : at(total, 'TaxInclusiveAmount')
  const currency = currencyOf(attr(amountNode, 'currencyID')) ?? currencyOf(text(at(root, 'DocumentCurrencyCode')))
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text(at(root, 'IssueDate')) ?? '')
  const party = at(root, 'AccountingSupplierParty', 'Party')
  return {
    amount_minor: xmlAmount(text(amountNode), currency),
    currency,
    date: iso ? isoDate(iso[1], iso[2], iso[3]) : null,
    merchant: text(at(party, 'PartyName', 'Name')) ?? text(at(party, 'PartyLegalEntity', 'RegistrationName')) ?? null,
    source: 'ubl',
  }
}

/** The fields of an XML e-invoice, or null when the XML is no CII or UBL invoice (or cannot be read). */
export function readInvoiceXml(bytes: Uint8Array, source?: FieldSource): DocumentFields | null {
  let doc: Node
  try {
    doc = xml.parse(Buffer.from(bytes).toString('utf8')) as Node
  } catch {
    return null
  }
  const read = doc.CrossIndustryInvoice
    ? readCii(doc.CrossIndustryInvoice)
    : doc.Invoice
      ? readUbl(doc.Invoice)
      : doc.CreditNote
        ? readUbl(doc.CreditNote)
        : null
  return read && source ? { ...read, source } : read
}

const SYMBOLS: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY', CHF: 'CHF' }
const NUMBER = /(?<![\d.,])(\d{1,3}(?:[.,' \u00a0]\d{3})+(?:[.,]\d{1,3})?|\d+(?:[.,]\d{1,3})?)(?![\d.,]*\d)/g
const TOTAL_WORDS =
  /\b(amount due|total due|balance due|grand total|total|gesamtbetrag|gesamt|rechnungsbetrag|endbetrag|summe|zu zahlen|betrag|montant|totale|importe)\b/i
const DATE_WORDS = /\b(date|datum|dated|issued|rechnungsdatum|invoice date|belegdatum)\b/i
const NOT_MERCHANT =
  /\b(invoice|rechnung|receipt|quittung|beleg|facture|fattura|factura|bill|date|datum|total|summe|gesamt|page|seite|tax|vat|mwst|ust|customer|kunde|to:|an:|thank|thanks|danke|dank|merci|gracias|grazie|welcome|willkommen)\b/i

/** A number as written on a receipt ("1.234,50", "1,234.50", "119.00", "12,5"), in minor units. */
export function readNumber(raw: string, currency: string): number | null {
  const t = raw.replace(/[' \u00a0]/g, '')
  const lastDot = t.lastIndexOf('.')
  const lastComma = t.lastIndexOf(',')
  const last = Math.max(lastDot, lastComma)
  // The mark followed by 1 or 2 digits (or both marks given) is the decimal one; 3 digits after a lone mark are thousands.
  const decimals = last < 0 ? 0 : t.length - last - 1
  const decimal: '.' | ',' =
    last < 0
      ? '.'
      : lastDot >= 0 && lastComma >= 0
        ? lastDot > lastComma
          ? '.'
          : ','
        : decimals === 3
          ? lastDot >= 0
            ? ','
            : '.'
          : t[last] === ','
            ? ','
            : '.'
  const r = parseLocaleAmount(t, decimal, currencyExponent(currency))
  return r.ok ? r.minor : null
}

function currencyIn(line: string): string | null {
  for (const m of line.matchAll(/\b([A-Z]{3})\b/g)) if (isCurrency(m[1])) return m[1]
  for (const [sym, code] of Object.entries(SYMBOLS)) if (line.includes(sym)) return code
  return null
}

function dateIn(line: string): string | null {
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(line)
  if (iso) return isoDate(iso[1], iso[2], iso[3])
  // Day first (dd.mm.yyyy, dd/mm/yyyy): the way receipts in the currencies finctl is used with write it.
  const dmy = /\b(\d{1,2})[./](\d{1,2})[./](\d{4})\b/.exec(line)
  return dmy ? isoDate(dmy[3], dmy[2], dmy[1]) : null
}

/**
 * The fields of a PDF's text: the largest amount on a line naming a total ("Total", "Gesamt", "Amount
 * due", ...), its currency (a code or symbol on that line, else the first in the text, else
 * `fallbackCurrency`), the date on a line naming one (else the first date), and the merchant: the
 * first line of words that is no heading, address of the buyer or figure.
 */
export function readText(content: string, fallbackCurrency: string): DocumentFields {
  const lines = content
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '')
  const anyCurrency = lines.map(currencyIn).find((c) => c !== null) ?? null
  let best: { minor: number; currency: string } | null = null
  for (const line of lines) {
    if (!TOTAL_WORDS.test(line) || /\b(sub ?total|zwischensumme|netto|net|tax|vat|mwst|ust)\b/i.test(line)) continue
    const currency = currencyIn(line) ?? anyCurrency ?? fallbackCurrency
    for (const m of line.replace(/\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{4}\b/g, ' ').matchAll(NUMBER)) {
      const minor = readNumber(m[1], currency)
      if (minor !== null && minor > 0 && (best === null || minor > best.minor)) best = { minor, currency }
    }
  }
  const dated = lines.find((l) => DATE_WORDS.test(l) && dateIn(l)) ?? lines.find((l) => dateIn(l))
  const merchant = lines.find((l) => /\p{L}{2,}/u.test(l) && !NOT_MERCHANT.test(l) && !/\d{3,}/.test(l.replace(/\s/g, ''))) ?? null
  const fields: DocumentFields = {
    amount_minor: best?.minor ?? null,
    currency: best?.currency ?? anyCurrency,
    date: dated ? dateIn(dated) : null,
    merchant,
    source: 'pdf_text',
  }
  return fields.amount_minor === null && fields.date === null && fields.merchant === null ? NO_FIELDS : fields
}

/**
 * The fields a file's name carries, as people name scans: a date (2026-10-03 or 20261003), an
 * amount with or without its currency ("119.00EUR", "EUR119,00", "119.00"), and the words between
 * as the merchant: "2026-10-03_acme_119.00EUR.pdf".
 */
export function readFileName(name: string, fallbackCurrency: string): DocumentFields {
  let rest = name.replace(/\.[A-Za-z0-9]{1,5}$/, '')
  let date: string | null = null
  const d = /(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)/.exec(rest)
  if (d) {
    date = isoDate(d[1], d[2], d[3])
    if (date) rest = rest.replace(d[0], ' ')
  }
  let currency: string | null = null
  let amount: number | null = null
  const a = /(?:([A-Za-z]{3})[ _-]?)?(?<![\d.,])(\d+(?:[.,]\d{1,3})?)(?:[ _-]?([A-Za-z]{3}))?(?![\d])/.exec(rest)
  if (a && (a[2].includes('.') || a[2].includes(',') || currencyOf(a[1]) || currencyOf(a[3]))) {
    currency = currencyOf(a[3]) ?? currencyOf(a[1])
    amount = readNumber(a[2], currency ?? fallbackCurrency)
    if (amount !== null) {
      currency ??= fallbackCurrency
      rest = rest.replace(a[0], (m) => m.replace(a[2], ' ').replace(/[A-Za-z]{3}/g, (c) => (currencyOf(c) ? ' ' : c)))
    }
  }
  const words = rest
    .split(/[\s_\-.,()[\]]+/)
    .filter((w) => /\p{L}{2,}/u.test(w) && !NOT_MERCHANT.test(w) && !/^(scan|img|doc|document|pdf)\d*$/i.test(w))
  const merchant = words.length ? words.join(' ') : null
  if (amount === null && date === null && merchant === null) return NO_FIELDS
  return { amount_minor: amount, currency: amount === null ? null : currency, date, merchant, source: 'file_name' }
}

/** Each field from the first reading that has it (the most trusted first); the amount and its currency together. */
export function mergeFields(...readings: Array<DocumentFields | null>): DocumentFields {
  const found = readings.filter((r): r is DocumentFields => r !== null && r.source !== null)
  const withAmount = found.find((r) => r.amount_minor !== null)
  const withCurrency = withAmount ?? found.find((r) => r.currency !== null)
  const withDate = found.find((r) => r.date !== null)
  const withMerchant = found.find((r) => r.merchant !== null)
  const out: DocumentFields = {
    amount_minor: withAmount?.amount_minor ?? null,
    currency: withCurrency?.currency ?? null,
    date: withDate?.date ?? null,
    merchant: withMerchant?.merchant ?? null,
    source: null,
  }
  // The readings each field was taken from, in order of trust.
  const used = found.filter((r) => r === withAmount || r === withDate || r === withMerchant)
  out.source = used.length ? [...new Set(used.map((r) => r.source))].join('+') : null
  return out
}

/**
 * A deterministic generator of realistic, labelled bank transactions, for evaluating and
 * benchmarking the category model (./model.ts) without real customer data.
 *
 * The world is fixed: about 30 business categories (each mapped to one accounting and one
 * cash-flow category of API.md section 4), several hundred merchants (well-known brands plus a
 * synthesized long tail of restaurants, hotels, law firms, customers, suppliers, employees...),
 * each with a home region (US, DE, FR, ES, NL, UK) that decides the bank's wording. A data set
 * samples rows from that world with a seeded PRNG (mulberry32): same seed, identical rows.
 *
 * Descriptions look like bank statement lines: channel prefixes (`CARD PAYMENT`, `POS`,
 * `VISA DEBIT`, `SEPA-LASTSCHRIFT`, `PRLV SEPA`, `ACH DEBIT`, `DD`...), store numbers, cities,
 * reference numbers, dates, random casing and truncation. `merchant_name` is present on about 60%
 * of the rows. Some merchants legitimately split across categories (AMAZON: office supplies or
 * equipment; UBER: rides or meals; IRS: payroll or income tax...) and a few rows are generic
 * ("PAYMENT", "TRANSFER"), so no model can be right on every row and calibration matters.
 *
 * Amounts are generated as integers of minor units (cents); `amount` is their exact decimal text.
 */
import type { ACCOUNTING_CATEGORIES, CASH_FLOW_CATEGORIES } from '../schemas.js'
import { formatMinor } from '../money.js'
import { mulberry32 } from '../random.js'

export { mulberry32 }

export interface LabelledTransaction {
  transaction_date: string
  description: string
  merchant_name: string | null
  /** Decimal string with 2 decimals, negative for money out. */
  amount: string
  amount_minor: number
  category: string
  accounting_category: string
  cash_flow_category: string
}

type Accounting = (typeof ACCOUNTING_CATEGORIES)[number]
type CashFlow = (typeof CASH_FLOW_CATEGORIES)[number]
type Region = 'us' | 'de' | 'fr' | 'es' | 'nl' | 'uk'
type Channel = 'card' | 'debit' | 'transfer' | 'credit' | 'fee'
type Sign = 'out' | 'in' | 'both'
type Localized = Record<Region, string[]>

// ---------------------------------------------------------------------------------------------
// Randomness


type Rng = () => number

const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1))
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]

function pickWeighted<T extends { weight: number }>(rng: Rng, items: readonly T[], total: number): T {
  let r = rng() * total
  for (const item of items) {
    r -= item.weight
    if (r < 0) return item
  }
  return items[items.length - 1]
}

/** A stable 32-bit hash (FNV-1a), for per-merchant constants such as a fixed monthly price. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

// ---------------------------------------------------------------------------------------------
// Bank wording per region

const PREFIXES: Record<Channel, Localized> = {
  card: {
    us: ['POS PURCHASE', 'DEBIT CARD PURCHASE', 'CHECKCARD {D}', 'PURCHASE AUTHORIZED ON {D}', 'VISA DEBIT', 'CARD PAYMENT', '', ''],
    de: ['KARTENZAHLUNG', 'GIROCARD {D}', 'VISA DEBIT', 'KARTE {D}', 'POS', 'DEBITKARTE'],
    fr: ['PAIEMENT PAR CARTE', 'CB {D}', 'CARTE X{N4} {D}', 'PAIEMENT CB', 'FACTURE CARTE {D}'],
    es: ['COMPRA TARJETA', 'PAGO CON TARJETA', 'COMPRA TARJ. {N4}', 'PAGO TPV'],
    nl: ['BEA', 'BETAALAUTOMAAT {D}', 'PASSTRANSACTIE', 'BEA NR:{N4}'],
    uk: ['CARD PAYMENT TO', 'VISA DEBIT', 'POS', 'CONTACTLESS', ''],
  },
  debit: {
    us: ['ACH DEBIT', 'ACH PMT', 'AUTOPAY', 'PREAUTHORIZED DEBIT', 'RECURRING PAYMENT'],
    de: ['SEPA-LASTSCHRIFT', 'LASTSCHRIFT', 'SEPA-BASISLASTSCHRIFT', 'SEPA LASTSCHRIFT EINZUG'],
    fr: ['PRLV SEPA', 'PRELEVEMENT SEPA', 'PRELEVEMENT'],
    es: ['ADEUDO SEPA', 'DOMICILIACION', 'RECIBO', 'ADEUDO RECIBO'],
    nl: ['INCASSO', 'SEPA INCASSO ALGEMEEN DOORLOPEND', 'INCASSO ZAKELIJK'],
    uk: ['DIRECT DEBIT', 'DD', 'DDR'],
  },
  transfer: {
    us: ['ONLINE TRANSFER TO', 'WIRE TRANSFER OUT', 'ACH PAYMENT TO', 'BILL PAY', 'ONLINE PAYMENT TO'],
    de: ['UEBERWEISUNG', 'SEPA-UEBERWEISUNG', 'DAUERAUFTRAG', 'ONLINE-UEBERWEISUNG'],
    fr: ['VIR SEPA', 'VIREMENT EMIS', 'VIR PERMANENT', 'VIREMENT SEPA EMIS'],
    es: ['TRANSFERENCIA A', 'TRANSF. EMITIDA', 'TRANSFERENCIA SEPA'],
    nl: ['OVERBOEKING NAAR', 'SEPA OVERBOEKING', 'OVERSCHRIJVING'],
    uk: ['FASTER PAYMENT', 'BANK TRANSFER TO', 'BACS', 'FPO'],
  },
  credit: {
    us: ['ACH CREDIT', 'INCOMING WIRE', 'DEPOSIT', 'ONLINE TRANSFER FROM', 'WIRE TRANSFER IN'],
    de: ['GUTSCHRIFT', 'SEPA-GUTSCHRIFT', 'ZAHLUNGSEINGANG', 'GUTSCHRIFT UEBERWEISUNG'],
    fr: ['VIR RECU', 'VIREMENT RECU', 'VIR SEPA RECU'],
    es: ['TRANSFERENCIA RECIBIDA', 'ABONO TRANSFERENCIA', 'TRANSF. RECIBIDA'],
    nl: ['OVERBOEKING VAN', 'BIJSCHRIJVING', 'SEPA OVERBOEKING VAN'],
    uk: ['FASTER PAYMENT RECEIVED', 'BANK CREDIT', 'BGC', 'FPI'],
  },
  fee: { us: [''], de: [''], fr: [''], es: [''], nl: [''], uk: [''] },
}

const CITIES: Localized = {
  us: ['NEW YORK NY', 'SAN FRANCISCO CA', 'SEATTLE WA', 'AUSTIN TX', 'CHICAGO IL', 'BOSTON MA', 'DENVER CO', 'MIAMI FL', 'PORTLAND OR', 'ATLANTA GA', 'LOS ANGELES CA', 'BROOKLYN NY'],
  de: ['BERLIN', 'MUENCHEN', 'HAMBURG', 'KOELN', 'FRANKFURT', 'STUTTGART', 'LEIPZIG', 'DÜSSELDORF'],
  fr: ['PARIS', 'LYON', 'MARSEILLE', 'TOULOUSE', 'NANTES', 'LILLE', 'BORDEAUX'],
  es: ['MADRID', 'BARCELONA', 'VALENCIA', 'SEVILLA', 'MÁLAGA', 'BILBAO'],
  nl: ['AMSTERDAM', 'ROTTERDAM', 'UTRECHT', 'DEN HAAG', 'EINDHOVEN'],
  uk: ['LONDON', 'MANCHESTER', 'BRISTOL', 'LEEDS', 'EDINBURGH', 'GLASGOW'],
}

const MONTHS: Localized = {
  us: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  uk: ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'],
  de: ['JANUAR', 'FEBRUAR', 'MÄRZ', 'APRIL', 'MAI', 'JUNI', 'JULI', 'AUGUST', 'SEPTEMBER', 'OKTOBER', 'NOVEMBER', 'DEZEMBER'],
  fr: ['JANVIER', 'FÉVRIER', 'MARS', 'AVRIL', 'MAI', 'JUIN', 'JUILLET', 'AOÛT', 'SEPTEMBRE', 'OCTOBRE', 'NOVEMBRE', 'DÉCEMBRE'],
  es: ['ENERO', 'FEBRERO', 'MARZO', 'ABRIL', 'MAYO', 'JUNIO', 'JULIO', 'AGOSTO', 'SEPTIEMBRE', 'OCTUBRE', 'NOVIEMBRE', 'DICIEMBRE'],
  nl: ['JANUARI', 'FEBRUARI', 'MAART', 'APRIL', 'MEI', 'JUNI', 'JULI', 'AUGUSTUS', 'SEPTEMBER', 'OKTOBER', 'NOVEMBER', 'DECEMBER'],
}

const same = (...words: string[]): Localized => ({ us: words, de: words, fr: words, es: words, nl: words, uk: words })

// ---------------------------------------------------------------------------------------------
// Categories

interface AmountSpec {
  /** Smallest and largest magnitude, in major units; drawn log-uniformly. */
  min: number
  max: number
  /** Share of rows whose amount is a whole multiple of 100 major units. */
  round?: number
  /** One amount per merchant (rent, loans, subscriptions), kept on most rows. */
  fixed?: boolean
}

interface CategorySpec {
  category: string
  accounting_category: Accounting
  cash_flow_category: CashFlow
  /** Relative share of rows. */
  weight: number
  sign: Sign
  channels: [Channel, number][]
  amount: AmountSpec
  /** Placeholders: {P} channel prefix, {M} merchant text, {C} city, {S} store number, {R} reference,
   *  {D} date, {MON} month, {W} the category's word in the merchant's language, {N4} 4 digits. */
  templates: string[]
  words?: Localized
}

interface Merchant {
  name: string
  region: Region
  bank: string[]
  weight: number
  templates?: string[]
  /** Rows of this merchant that belong to another category instead. */
  alt?: { category: string; share: number; bank?: string[] }[]
}

const CARD_TEMPLATES = ['{P} {M} {C}', '{P} {M} {S} {C}', '{M} {S} {C}', '{P} {D} {M}', '{M} {C}', '{P} {M}']
const DEBIT_TEMPLATES = ['{P} {M} {R}', '{P} {M}', '{M} {R}', '{P} {M} {MON}']

const CATEGORY_SPECS: CategorySpec[] = [
  { category: 'Software subscriptions', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 10, sign: 'out', channels: [['card', 3], ['debit', 1]], amount: { min: 5, max: 900, fixed: true }, templates: [...CARD_TEMPLATES, '{M} {R}', '{M} {W}'], words: same('SUBSCRIPTION', 'MONTHLY', 'ABO', 'RENEWAL') },
  { category: 'Cloud hosting', accounting_category: 'cost_of_goods_sold', cash_flow_category: 'operations', weight: 4, sign: 'out', channels: [['card', 2], ['debit', 1]], amount: { min: 15, max: 9000 }, templates: ['{P} {M}', '{M} {R}', '{P} {M} {R}', '{M} {W} {R}'], words: same('INVOICE', 'USAGE', 'BILL') },
  { category: 'Office supplies', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 7, sign: 'out', channels: [['card', 1]], amount: { min: 3, max: 400 }, templates: CARD_TEMPLATES },
  { category: 'Rent', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 1.2, sign: 'out', channels: [['transfer', 3], ['debit', 1]], amount: { min: 1500, max: 16000, fixed: true, round: 0.6 }, templates: ['{P} {M} {W} {MON}', '{P} {W} {MON} {M}', '{W} {MON} {M}', '{P} {M} {W}'], words: { us: ['RENT', 'OFFICE RENT', 'LEASE'], uk: ['RENT', 'OFFICE RENT'], de: ['MIETE', 'BUEROMIETE', 'GEWERBEMIETE'], fr: ['LOYER', 'LOYER BUREAUX'], es: ['ALQUILER', 'ALQUILER OFICINA'], nl: ['HUUR', 'HUUR KANTOOR'] } },
  { category: 'Utilities', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 2, sign: 'out', channels: [['debit', 1]], amount: { min: 40, max: 1200 }, templates: [...DEBIT_TEMPLATES, '{P} {M} {W} {R}'], words: { us: ['ELECTRIC', 'UTILITY BILL', 'GAS & ELECTRIC'], uk: ['ENERGY', 'WATER'], de: ['STROM', 'ABSCHLAG STROM', 'GAS', 'WASSER'], fr: ['ELECTRICITE', 'ECHEANCE', 'EAU'], es: ['LUZ', 'FACTURA LUZ', 'AGUA'], nl: ['ENERGIE', 'TERMIJNBEDRAG', 'WATER'] } },
  { category: 'Telecom', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 2, sign: 'out', channels: [['debit', 3], ['card', 1]], amount: { min: 15, max: 700, fixed: true }, templates: [...DEBIT_TEMPLATES, '{P} {M} {W}'], words: { us: ['WIRELESS', 'INTERNET', 'MOBILE'], uk: ['MOBILE', 'BROADBAND'], de: ['MOBILFUNK', 'FESTNETZ', 'RECHNUNG'], fr: ['MOBILE', 'BOX PRO', 'FACTURE'], es: ['MOVIL', 'FIBRA', 'FACTURA'], nl: ['MOBIEL', 'ZAKELIJK', 'FACTUUR'] } },
  { category: 'Travel - airfare', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 2.5, sign: 'out', channels: [['card', 1]], amount: { min: 45, max: 2800 }, templates: ['{P} {M} {R}', '{M} {R}', '{M} {R} {C}', '{P} {D} {M} {R}'] },
  { category: 'Travel - lodging', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 3, sign: 'out', channels: [['card', 1]], amount: { min: 60, max: 2500 }, templates: CARD_TEMPLATES },
  { category: 'Travel - ground transport', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 5, sign: 'out', channels: [['card', 1]], amount: { min: 3, max: 450 }, templates: [...CARD_TEMPLATES, '{M} {R}'] },
  { category: 'Meals & entertainment', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 12, sign: 'out', channels: [['card', 1]], amount: { min: 3, max: 650 }, templates: CARD_TEMPLATES },
  { category: 'Fuel', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 5, sign: 'out', channels: [['card', 1]], amount: { min: 15, max: 190 }, templates: [...CARD_TEMPLATES, '{M} {N4} {C}'] },
  { category: 'Payroll', accounting_category: 'payroll', cash_flow_category: 'operations', weight: 5, sign: 'out', channels: [['transfer', 1]], amount: { min: 1800, max: 14000 }, templates: ['{P} {W} {MON} {M}', '{P} {M} {W}', '{W} {M} {MON}', '{P} {M} {W} {R}'], words: { us: ['PAYROLL', 'SALARY', 'NET PAY', 'DIRECT DEP'], uk: ['SALARY', 'WAGES', 'PAYROLL'], de: ['GEHALT', 'LOHN', 'GEHALT/LOHN'], fr: ['SALAIRE', 'PAIE'], es: ['NOMINA', 'SALARIO'], nl: ['SALARIS', 'LOON'] } },
  { category: 'Payroll taxes', accounting_category: 'taxes', cash_flow_category: 'operations', weight: 2, sign: 'out', channels: [['debit', 1], ['transfer', 1]], amount: { min: 400, max: 45000 }, templates: ['{P} {M} {W} {R}', '{M} {W} {R}', '{P} {M} {W}', '{M} {R}'] },
  { category: 'Sales tax', accounting_category: 'taxes', cash_flow_category: 'operations', weight: 1, sign: 'out', channels: [['debit', 1], ['transfer', 1]], amount: { min: 200, max: 60000 }, templates: ['{P} {M} {W} {R}', '{M} {W} {R}', '{P} {M} {W} {MON}', '{M} {R}'] },
  { category: 'Income tax', accounting_category: 'taxes', cash_flow_category: 'operations', weight: 0.6, sign: 'out', channels: [['debit', 1], ['transfer', 1]], amount: { min: 500, max: 90000, round: 0.3 }, templates: ['{P} {M} {W} {R}', '{M} {W} {R}', '{P} {M} {W}', '{M} {R}'] },
  { category: 'Customer payments', accounting_category: 'revenue', cash_flow_category: 'operations', weight: 9, sign: 'in', channels: [['credit', 1]], amount: { min: 80, max: 60000, round: 0.15 }, templates: ['{P} {M} {W} {R}', '{P} {M}', '{M} {W} {R}', '{P} {M} {R}', '{P} {W} {R} {M}'], words: { us: ['INV', 'INVOICE', 'PAYMENT'], uk: ['INV', 'INVOICE', 'REMITTANCE'], de: ['RE-NR', 'RECHNUNG', 'RG'], fr: ['FACTURE', 'FACT', 'REGLEMENT'], es: ['FACTURA', 'FRA', 'PAGO FACTURA'], nl: ['FACTUUR', 'FACTUURNR', 'BETALING'] } },
  { category: 'Card processor payouts', accounting_category: 'revenue', cash_flow_category: 'operations', weight: 5, sign: 'in', channels: [['credit', 1]], amount: { min: 40, max: 35000 }, templates: ['{P} {M} {R}', '{M} {R}', '{M} {W} {R}', '{P} {M} {W}'], words: same('PAYOUT', 'TRANSFER', 'SETTLEMENT', 'DEPOSIT') },
  { category: 'Bank fees', accounting_category: 'other_expense', cash_flow_category: 'operations', weight: 4, sign: 'out', channels: [['fee', 1]], amount: { min: 0.5, max: 85 }, templates: ['{M}', '{M} {MON}', '{M} {R}', '{W} {M}'], words: same('FEE', 'CHARGE') },
  { category: 'Loan repayment', accounting_category: 'loan', cash_flow_category: 'financing', weight: 1, sign: 'out', channels: [['debit', 2], ['transfer', 1]], amount: { min: 400, max: 7000, fixed: true }, templates: ['{P} {M} {W} {R}', '{M} {W} {R}', '{P} {W} {M}', '{P} {M} {W} {MON}'], words: { us: ['LOAN PYMT', 'LOAN PAYMENT', 'INSTALLMENT'], uk: ['LOAN REPAYMENT', 'INSTALMENT'], de: ['DARLEHEN TILGUNG', 'KREDIT RATE', 'TILGUNG'], fr: ['ECHEANCE PRET', 'REMBOURSEMENT PRET'], es: ['CUOTA PRESTAMO', 'AMORTIZACION PRESTAMO'], nl: ['AFLOSSING LENING', 'TERMIJN LENING'] } },
  { category: 'Loan proceeds', accounting_category: 'loan', cash_flow_category: 'financing', weight: 0.15, sign: 'in', channels: [['credit', 1]], amount: { min: 10000, max: 500000, round: 0.8 }, templates: ['{P} {M} {W} {R}', '{M} {W}', '{P} {W} {M}'], words: { us: ['LOAN DISBURSEMENT', 'LOAN PROCEEDS'], uk: ['LOAN DRAWDOWN', 'LOAN ADVANCE'], de: ['DARLEHEN AUSZAHLUNG', 'KREDITAUSZAHLUNG'], fr: ['DEBLOCAGE PRET', 'VERSEMENT PRET'], es: ['ABONO PRESTAMO', 'DISPOSICION PRESTAMO'], nl: ['UITBETALING LENING', 'STORTING LENING'] } },
  { category: 'Interest income', accounting_category: 'interest', cash_flow_category: 'operations', weight: 1, sign: 'in', channels: [['fee', 1]], amount: { min: 0.01, max: 600 }, templates: ['{W}', '{W} {M}', '{M} {W}', '{W} {MON}', '{W} {R}'], words: { us: ['INTEREST PAYMENT', 'INTEREST EARNED', 'INTEREST CREDIT'], uk: ['INTEREST PAID', 'GROSS INTEREST'], de: ['HABENZINSEN', 'ZINSGUTSCHRIFT', 'ZINSEN'], fr: ['INTERETS CREDITEURS', 'INTERETS'], es: ['INTERESES A FAVOR', 'LIQUIDACION INTERESES'], nl: ['RENTEBIJSCHRIJVING', 'RENTE'] } },
  { category: 'Insurance', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 1.2, sign: 'out', channels: [['debit', 1]], amount: { min: 40, max: 3500, fixed: true }, templates: [...DEBIT_TEMPLATES, '{P} {M} {W} {R}'], words: { us: ['PREMIUM', 'POLICY', 'INS PREM'], uk: ['PREMIUM', 'POLICY'], de: ['VERSICHERUNG', 'BEITRAG', 'POLICE'], fr: ['ASSURANCE', 'COTISATION', 'CONTRAT'], es: ['POLIZA', 'SEGURO', 'PRIMA'], nl: ['VERZEKERING', 'PREMIE', 'POLIS'] } },
  { category: 'Legal & professional', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 2.5, sign: 'out', channels: [['transfer', 3], ['card', 1]], amount: { min: 120, max: 18000, round: 0.1 }, templates: ['{P} {M} {W} {R}', '{P} {M} {R}', '{P} {M}', '{M} {W} {R}'], words: { us: ['INVOICE', 'RETAINER', 'INV'], uk: ['INVOICE', 'FEES'], de: ['RECHNUNG', 'HONORAR', 'RG'], fr: ['FACTURE', 'HONORAIRES'], es: ['FACTURA', 'HONORARIOS'], nl: ['FACTUUR', 'HONORARIUM'] } },
  { category: 'Advertising', accounting_category: 'operating_expenses', cash_flow_category: 'operations', weight: 4, sign: 'out', channels: [['card', 1]], amount: { min: 10, max: 20000 }, templates: ['{P} {M} {R}', '{M} {R}', '{M} {R} {C}', '{P} {M}'] },
  { category: 'Shipping', accounting_category: 'cost_of_goods_sold', cash_flow_category: 'operations', weight: 4, sign: 'out', channels: [['card', 2], ['debit', 1]], amount: { min: 4, max: 3000 }, templates: [...CARD_TEMPLATES, '{M} {R}', '{P} {M} {R}'] },
  { category: 'Equipment purchase', accounting_category: 'capital_expenditure', cash_flow_category: 'investing', weight: 2, sign: 'out', channels: [['card', 3], ['transfer', 1]], amount: { min: 250, max: 15000 }, templates: [...CARD_TEMPLATES, '{P} {M} {R}'] },
  { category: 'Inventory & materials', accounting_category: 'cost_of_goods_sold', cash_flow_category: 'operations', weight: 3, sign: 'out', channels: [['transfer', 3], ['card', 1]], amount: { min: 150, max: 45000 }, templates: ['{P} {M} {W} {R}', '{P} {M} {R}', '{P} {M}', '{M} {W} {R}'], words: { us: ['PO', 'INVOICE', 'ORDER'], uk: ['PO', 'INVOICE'], de: ['BESTELLUNG', 'RECHNUNG', 'LIEFERUNG'], fr: ['COMMANDE', 'FACTURE'], es: ['PEDIDO', 'FACTURA'], nl: ['BESTELLING', 'FACTUUR'] } },
  { category: 'Owner contribution', accounting_category: 'equity', cash_flow_category: 'financing', weight: 0.4, sign: 'in', channels: [['credit', 1]], amount: { min: 1000, max: 150000, round: 0.7 }, templates: ['{P} {M} {W}', '{W} {M}', '{P} {W} {M} {R}', '{P} {M}'], words: { us: ['CAPITAL CONTRIBUTION', 'OWNER CONTRIBUTION', 'EQUITY INJECTION'], uk: ['CAPITAL INJECTION', 'DIRECTORS LOAN'], de: ['EINLAGE GESELLSCHAFTER', 'KAPITALEINLAGE', 'STAMMKAPITAL'], fr: ['APPORT EN COMPTE COURANT', 'APPORT ASSOCIE', 'AUGMENTATION CAPITAL'], es: ['APORTACION SOCIO', 'AMPLIACION CAPITAL'], nl: ['KAPITAALSTORTING', 'STORTING AANDEELHOUDER'] } },
  { category: 'Transfer between accounts', accounting_category: 'transfer', cash_flow_category: 'transfer', weight: 3.5, sign: 'both', channels: [['fee', 1]], amount: { min: 100, max: 80000, round: 0.6 }, templates: ['{W}', '{W} {R}', '{W} {M}', '{W} {M} {R}', '{M} {W}'], words: { us: ['ONLINE TRANSFER TO SAV', 'ONLINE TRANSFER FROM CHK', 'INTERNAL TRANSFER', 'BOOK TRANSFER', 'SWEEP', 'TRANSFER'], uk: ['TRANSFER TO SAVINGS', 'INTERNAL TRANSFER', 'TRANSFER'], de: ['UMBUCHUNG', 'UEBERTRAG AUF TAGESGELD', 'KONTOUEBERTRAG'], fr: ['VIREMENT INTERNE', 'VIR DE COMPTE A COMPTE'], es: ['TRASPASO', 'TRASPASO ENTRE CUENTAS'], nl: ['OVERBOEKING EIGEN REKENING', 'SPAARREKENING'] } },
]

export const CATEGORIES: { category: string; accounting_category: string; cash_flow_category: string }[] = CATEGORY_SPECS.map((c) => ({
  category: c.category,
  accounting_category: c.accounting_category,
  cash_flow_category: c.cash_flow_category,
}))

// ---------------------------------------------------------------------------------------------
// Merchants. Compact form: [name, region, bank texts, alternative categories?]

type NamedMerchant = [string, Region | 'intl', string[], Merchant['alt']?]

const AMAZON_ALT = [{ category: 'Equipment purchase', share: 0.3, bank: ['AMAZON.COM', 'AMZN MKTP US', 'AMAZON BUSINESS'] }]

const NAMED: Record<string, NamedMerchant[]> = {
  'Software subscriptions': [
    ['Slack', 'intl', ['SLACK T{R}', 'SLACK TECHNOLOGIES', 'SLACK.COM']],
    ['Zoom', 'intl', ['ZOOM.US 888-799-9666', 'ZOOM VIDEO COMMUNICATIONS', 'ZOOM.US']],
    ['Atlassian', 'intl', ['ATLASSIAN', 'ATLASSIAN PTY LTD', 'JIRA ATLASSIAN']],
    ['GitHub', 'intl', ['GITHUB INC', 'GITHUB.COM {R}', 'GITHUB']],
    ['Notion', 'intl', ['NOTION LABS INC', 'NOTION.SO']],
    ['Figma', 'intl', ['FIGMA MONTHLY RENEWAL', 'FIGMA INC', 'FIGMA']],
    ['Adobe', 'intl', ['ADOBE *CREATIVE CLOUD', 'ADOBE SYSTEMS', 'ADOBE *ACROPRO SUBS']],
    ['Microsoft', 'intl', ['MSFT * E0{R}', 'MICROSOFT*365 BUSINESS', 'MICROSOFT*ONEDRIVE'], [{ category: 'Cloud hosting', share: 0.15, bank: ['MSFT * AZURE', 'MICROSOFT AZURE'] }]],
    ['Google', 'intl', ['GOOGLE *GSUITE', 'GOOGLE*WORKSPACE', 'GOOGLE WORKSPACE {R}'], [{ category: 'Cloud hosting', share: 0.2, bank: ['GOOGLE *CLOUD {R}', 'GOOGLE CLOUD EMEA'] }, { category: 'Advertising', share: 0.15, bank: ['GOOGLE *ADS{R}', 'GOOGLE ADS'] }]],
    ['Dropbox', 'intl', ['DROPBOX*{R}', 'DROPBOX INC']],
    ['Salesforce', 'us', ['SALESFORCE.COM', 'SALESFORCE INC']],
    ['HubSpot', 'us', ['HUBSPOT INC', 'HUBSPOT {R}'], [{ category: 'Advertising', share: 0.2 }]],
    ['QuickBooks', 'us', ['INTUIT *QBOOKS ONLINE', 'INTUIT QUICKBOOKS', 'QBOOKS ONLINE']],
    ['Xero', 'uk', ['XERO LTD', 'XERO AUSTRALIA PTY']],
    ['DocuSign', 'intl', ['DOCUSIGN INC', 'DOCUSIGN']],
    ['Canva', 'intl', ['CANVA* {R}', 'CANVA PTY LTD'], [{ category: 'Advertising', share: 0.2 }]],
    ['1Password', 'intl', ['1PASSWORD', 'AGILEBITS INC']],
    ['JetBrains', 'intl', ['JETBRAINS S.R.O.', 'JETBRAINS AMERICAS']],
    ['Asana', 'intl', ['ASANA.COM', 'ASANA INC']],
    ['Mailchimp', 'us', ['MAILCHIMP *MONTHLY', 'INTUIT *MAILCHIMP'], [{ category: 'Advertising', share: 0.45 }]],
    ['Zendesk', 'intl', ['ZENDESK INC', 'ZENDESK.COM']],
    ['Intercom', 'intl', ['INTERCOM INC', 'INTERCOM R&D UNLTD']],
    ['Calendly', 'us', ['CALENDLY LLC', 'CALENDLY']],
    ['Loom', 'us', ['LOOM INC', 'LOOM.COM']],
    ['Miro', 'intl', ['MIRO.COM', 'REALTIMEBOARD INC']],
    ['Airtable', 'us', ['AIRTABLE.COM', 'AIRTABLE']],
    ['monday.com', 'intl', ['MONDAY.COM', 'MONDAY COM LTD']],
    ['Linear', 'us', ['LINEAR ORBIT INC', 'LINEAR.APP']],
    ['Sentry', 'us', ['SENTRY.IO', 'FUNCTIONAL SOFTWARE INC']],
    ['OpenAI', 'us', ['OPENAI *CHATGPT SUBSCR', 'OPENAI', 'OPENAI *API'], [{ category: 'Cloud hosting', share: 0.25, bank: ['OPENAI *API', 'OPENAI API USAGE'] }]],
    ['Apple', 'intl', ['APPLE.COM/BILL', 'APPLE.COM/BILL ITUNES.COM', 'ICLOUD APPLE.COM'], [{ category: 'Equipment purchase', share: 0.2, bank: ['APPLE STORE R{N4}', 'APPLE ONLINE STORE', 'APPLE.COM/US'] }]],
    ['Shopify', 'intl', ['SHOPIFY* {R}', 'SHOPIFY INC']],
    ['Squarespace', 'us', ['SQSP* INV{R}', 'SQUARESPACE INC']],
    ['Wix', 'intl', ['WIX.COM {R}', 'WIX.COM LTD']],
    ['GoDaddy', 'us', ['DNH*GODADDY.COM', 'GODADDY.COM'], [{ category: 'Cloud hosting', share: 0.35 }]],
    ['Namecheap', 'us', ['NAMECHEAP.COM', 'NAMECHEAP INC'], [{ category: 'Cloud hosting', share: 0.3 }]],
    ['lexoffice', 'de', ['LEXOFFICE HAUFE SERVICE', 'HAUFE-LEXWARE GMBH']],
    ['DATEV', 'de', ['DATEV EG', 'DATEV EG NUERNBERG'], [{ category: 'Legal & professional', share: 0.4 }]],
    ['Personio', 'de', ['PERSONIO SE & CO. KG', 'PERSONIO GMBH']],
    ['Pipedrive', 'intl', ['PIPEDRIVE OU', 'PIPEDRIVE.COM']],
    ['Typeform', 'es', ['TYPEFORM SL', 'TYPEFORM.COM']],
    ['Grammarly', 'us', ['GRAMMARLY CO', 'GRAMMARLY INC']],
    ['Webflow', 'us', ['WEBFLOW.COM', 'WEBFLOW INC']],
    ['Postman', 'us', ['POSTMAN INC', 'POSTMAN.COM']],
    ['Sage', 'uk', ['SAGE UK LTD', 'SAGE SOFTWARE']],
    ['Pennylane', 'fr', ['PENNYLANE', 'PENNYLANE SAS']],
    ['Holded', 'es', ['HOLDED TECHNOLOGIES SL', 'HOLDED']],
    ['Moneybird', 'nl', ['MONEYBIRD BV', 'MONEYBIRD']],
  ],
  'Cloud hosting': [
    ['AWS', 'intl', ['AMAZON WEB SERVICES', 'AWS EMEA', 'AWS.AMAZON.CO', 'AMAZON WEB SERVICES AWS.AMAZON.CO']],
    ['Google Cloud', 'intl', ['GOOGLE *CLOUD {R}', 'GOOGLE CLOUD EMEA', 'GOOGLE CLOUD PLATFORM']],
    ['Microsoft Azure', 'intl', ['MSFT * AZURE', 'MICROSOFT AZURE']],
    ['DigitalOcean', 'us', ['DIGITALOCEAN.COM', 'DIGITALOCEAN LLC']],
    ['Hetzner', 'de', ['HETZNER ONLINE GMBH', 'HETZNER ONLINE']],
    ['OVHcloud', 'fr', ['OVH SAS', 'OVHCLOUD', 'OVH ROUBAIX']],
    ['Heroku', 'us', ['HEROKU {R}', 'HEROKU INC']],
    ['Vercel', 'us', ['VERCEL INC', 'VERCEL.COM']],
    ['Netlify', 'us', ['NETLIFY', 'NETLIFY INC']],
    ['Cloudflare', 'intl', ['CLOUDFLARE', 'CLOUDFLARE INC']],
    ['Linode', 'us', ['AKAMAI LINODE', 'LINODE . AKAMAI']],
    ['Fly.io', 'us', ['FLY.IO', 'FLY IO INC']],
    ['Render', 'us', ['RENDER.COM', 'RENDER SERVICES INC']],
    ['Scaleway', 'fr', ['SCALEWAY', 'SCALEWAY SAS']],
    ['IONOS', 'de', ['IONOS SE', '1&1 IONOS SE'], [{ category: 'Telecom', share: 0.25 }]],
    ['MongoDB', 'us', ['MONGODB CLOUD', 'MONGODB INC']],
    ['Snowflake', 'us', ['SNOWFLAKE INC', 'SNOWFLAKE COMPUTING']],
    ['Supabase', 'us', ['SUPABASE INC', 'SUPABASE']],
    ['Backblaze', 'us', ['BACKBLAZE INC', 'BACKBLAZE B2']],
    ['Datadog', 'us', ['DATADOG INC', 'DATADOG'], [{ category: 'Software subscriptions', share: 0.4 }]],
    ['Twilio', 'us', ['TWILIO INC', 'TWILIO SENDGRID'], [{ category: 'Telecom', share: 0.45 }]],
    ['Fastly', 'us', ['FASTLY INC', 'FASTLY']],
  ],
  'Office supplies': [
    ['Amazon', 'intl', ['AMAZON.COM', 'AMZN MKTP US', 'AMAZON MKTPLACE PMTS', 'AMAZON.DE', 'AMAZON EU SARL', 'AMZN MKTP DE'], AMAZON_ALT],
    ['Staples', 'us', ['STAPLES {S}', 'STAPLES INC', 'STAPLES.COM']],
    ['Office Depot', 'us', ['OFFICE DEPOT {S}', 'OFFICEDEPOT.COM', 'OFFICE DEPOT #{S}']],
    ['OfficeMax', 'us', ['OFFICEMAX {S}', 'OFFICEMAX/DEPOT']],
    ['Viking Direct', 'uk', ['VIKING DIRECT', 'VIKING-DIRECT.CO.UK']],
    ['Lyreco', 'fr', ['LYRECO FRANCE', 'LYRECO']],
    ['Bureau Vallée', 'fr', ['BUREAU VALLEE', 'BUREAU VALLÉE']],
    ['Costco', 'us', ['COSTCO WHSE #{S}', 'COSTCO WHOLESALE'], [{ category: 'Meals & entertainment', share: 0.3 }]],
    ['Walmart', 'us', ['WAL-MART #{S}', 'WALMART.COM', 'WM SUPERCENTER #{S}'], [{ category: 'Meals & entertainment', share: 0.2 }]],
    ['Target', 'us', ['TARGET {S}', 'TARGET.COM'], [{ category: 'Meals & entertainment', share: 0.15 }]],
    ['IKEA', 'intl', ['IKEA {C}', 'IKEA DEUTSCHLAND', 'IKEA.COM'], [{ category: 'Equipment purchase', share: 0.45 }]],
    ['McPaper', 'de', ['MCPAPER {S}', 'MCPAPER AG']],
    ['Otto Office', 'de', ['OTTO OFFICE GMBH', 'OTTO-OFFICE.COM']],
    ['Rymans', 'uk', ['RYMAN LTD', 'RYMAN STATIONERY']],
    ['WHSmith', 'uk', ['WHSMITH {S}', 'W H SMITH']],
    ['HEMA', 'nl', ['HEMA {S}', 'HEMA BV']],
    ['Action', 'nl', ['ACTION {S}', 'ACTION NEDERLAND']],
    ['Carrefour', 'fr', ['CARREFOUR {C}', 'CARREFOUR MARKET'], [{ category: 'Meals & entertainment', share: 0.45 }]],
    ['Tesco', 'uk', ['TESCO STORES {S}', 'TESCO EXPRESS'], [{ category: 'Meals & entertainment', share: 0.5 }]],
    ['dm-drogerie markt', 'de', ['DM DROGERIE MARKT', 'DM-DROGERIE {S}']],
    ['Manutan', 'fr', ['MANUTAN SA', 'MANUTAN']],
    ['Uline', 'us', ['ULINE *SHIP SUPPLIES', 'ULINE'], [{ category: 'Shipping', share: 0.4 }]],
    ['El Corte Inglés', 'es', ['EL CORTE INGLES', 'ECI {C}'], [{ category: 'Equipment purchase', share: 0.3 }]],
    ['Vistaprint', 'intl', ['VISTAPRINT', 'VISTAPR*VISTAPRINT.COM'], [{ category: 'Advertising', share: 0.4 }]],
    ['Grainger', 'us', ['GRAINGER', 'W.W. GRAINGER'], [{ category: 'Inventory & materials', share: 0.35 }]],
  ],
  'Rent': [
    ['Regus', 'intl', ['REGUS MANAGEMENT', 'IWG REGUS']],
    ['WeWork', 'intl', ['WEWORK {R}', 'WEWORK COMPANIES']],
    ['Mindspace', 'intl', ['MINDSPACE', 'MINDSPACE GMBH']],
    ['Spaces', 'nl', ['SPACES BV', 'SPACES']],
    ['Industrious', 'us', ['INDUSTRIOUS NATIONAL', 'INDUSTRIOUS']],
  ],
  'Utilities': [
    ['PG&E', 'us', ['PGANDE WEB ONLINE', 'PG&E']],
    ['Con Edison', 'us', ['CON ED OF NY', 'CONSOLIDATED EDISON']],
    ['Duke Energy', 'us', ['DUKE ENERGY', 'DUKE-ENERGY']],
    ['EDF', 'fr', ['EDF CLIENTS PARTICULIERS', 'EDF ENTREPRISES']],
    ['Engie', 'fr', ['ENGIE', 'ENGIE SA']],
    ['Vattenfall', 'de', ['VATTENFALL EUROPE SALES', 'VATTENFALL']],
    ['E.ON', 'de', ['E.ON ENERGIE DEUTSCHLAND', 'EON ENERGIE']],
    ['EnBW', 'de', ['ENBW ENERGIE', 'ENBW AG']],
    ['Stadtwerke München', 'de', ['STADTWERKE MUENCHEN', 'SWM VERSORGUNGS GMBH']],
    ['Stadtwerke Köln', 'de', ['RHEINENERGIE AG', 'STADTWERKE KOELN']],
    ['Iberdrola', 'es', ['IBERDROLA CLIENTES', 'IBERDROLA']],
    ['Endesa', 'es', ['ENDESA ENERGIA', 'ENDESA']],
    ['Naturgy', 'es', ['NATURGY IBERIA', 'NATURGY']],
    ['Eneco', 'nl', ['ENECO', 'ENECO ZAKELIJK']],
    ['Essent', 'nl', ['ESSENT RETAIL ENERGIE', 'ESSENT']],
    ['British Gas', 'uk', ['BRITISH GAS', 'BRITISH GAS BUSINESS']],
    ['Octopus Energy', 'uk', ['OCTOPUS ENERGY', 'OCTOPUS ENERGY LTD']],
    ['Thames Water', 'uk', ['THAMES WATER', 'THAMES WATER UTILITIES']],
    ['Veolia', 'fr', ['VEOLIA EAU', 'VEOLIA']],
    ['Berliner Wasserbetriebe', 'de', ['BERLINER WASSERBETRIEBE', 'BWB']],
    ['TotalEnergies', 'fr', ['TOTALENERGIES ELECTRICITE', 'TOTAL ENERGIES GAZ'], [{ category: 'Fuel', share: 0.35, bank: ['TOTALENERGIES {S}', 'TOTAL ACCESS {S}'] }]],
  ],
  'Telecom': [
    ['AT&T', 'us', ['AT&T *PAYMENT', 'ATT*BILL PAYMENT', 'AT&T']],
    ['Verizon', 'us', ['VERIZON WIRELESS', 'VZWRLSS*APOCC VISE', 'VERIZON']],
    ['T-Mobile', 'us', ['T-MOBILE', 'TMOBILE*AUTO PAY']],
    ['Comcast Business', 'us', ['COMCAST BUSINESS', 'COMCAST CABLE']],
    ['Spectrum', 'us', ['SPECTRUM', 'CHARTER COMMUNICATIONS']],
    ['Vodafone', 'intl', ['VODAFONE GMBH', 'VODAFONE LTD', 'VODAFONE']],
    ['Telekom', 'de', ['TELEKOM DEUTSCHLAND GMBH', 'DEUTSCHE TELEKOM']],
    ['O2', 'de', ['TELEFONICA GERMANY', 'O2 GERMANY']],
    ['1&1', 'de', ['1&1 TELECOM GMBH', '1UND1']],
    ['Orange', 'fr', ['ORANGE SA', 'ORANGE BUSINESS']],
    ['SFR', 'fr', ['SFR BUSINESS', 'SFR']],
    ['Bouygues Telecom', 'fr', ['BOUYGUES TELECOM', 'BOUYGUES TEL']],
    ['Free Pro', 'fr', ['FREE PRO', 'FREE TELECOM']],
    ['Movistar', 'es', ['TELEFONICA DE ESPANA', 'MOVISTAR']],
    ['KPN', 'nl', ['KPN B.V.', 'KPN ZAKELIJK']],
    ['Ziggo', 'nl', ['ZIGGO SERVICES BV', 'ZIGGO']],
    ['BT Business', 'uk', ['BT GROUP PLC', 'BT BUSINESS']],
    ['sipgate', 'de', ['SIPGATE GMBH', 'SIPGATE']],
    ['RingCentral', 'us', ['RINGCENTRAL INC', 'RINGCENTRAL'], [{ category: 'Software subscriptions', share: 0.3 }]],
    ['Aircall', 'fr', ['AIRCALL.IO', 'AIRCALL SAS'], [{ category: 'Software subscriptions', share: 0.35 }]],
  ],
  'Travel - airfare': [
    ['United Airlines', 'us', ['UNITED {R}', 'UNITED AIRLINES', 'UNITED AIR']],
    ['Delta', 'us', ['DELTA AIR {R}', 'DELTA AIR LINES']],
    ['American Airlines', 'us', ['AMERICAN AIR{R}', 'AMERICAN AIRLINES']],
    ['Southwest', 'us', ['SOUTHWES {R}', 'SOUTHWEST AIRLINES']],
    ['JetBlue', 'us', ['JETBLUE {R}', 'JETBLUE AIRWAYS']],
    ['Alaska Airlines', 'us', ['ALASKA AIR {R}', 'ALASKA AIRLINES']],
    ['Lufthansa', 'de', ['LUFTHANSA {R}', 'DEUTSCHE LUFTHANSA AG', 'LH {R}']],
    ['Eurowings', 'de', ['EUROWINGS {R}', 'EUROWINGS GMBH']],
    ['Air France', 'fr', ['AIR FRANCE {R}', 'AIR FRANCE']],
    ['KLM', 'nl', ['KLM {R}', 'KLM ROYAL DUTCH AIRLINES']],
    ['Transavia', 'nl', ['TRANSAVIA {R}', 'TRANSAVIA AIRLINES']],
    ['British Airways', 'uk', ['BRITISH A {R}', 'BRITISH AIRWAYS']],
    ['easyJet', 'uk', ['EASYJET {R}', 'EASYJET AIRLINE']],
    ['Ryanair', 'intl', ['RYANAIR {R}', 'RYANAIR LTD']],
    ['Iberia', 'es', ['IBERIA {R}', 'IBERIA LAE']],
    ['Vueling', 'es', ['VUELING {R}', 'VUELING AIRLINES']],
    ['SWISS', 'intl', ['SWISS INTERNATIONAL AIR', 'SWISS {R}']],
    ['Air Canada', 'intl', ['AIR CANADA {R}', 'AIR CAN']],
    ['TAP Air Portugal', 'intl', ['TAP AIR PORTUGAL', 'TAP {R}']],
    ['Expedia', 'intl', ['EXPEDIA {R}', 'EXPEDIA.COM'], [{ category: 'Travel - lodging', share: 0.45 }]],
  ],
  'Travel - lodging': [
    ['Marriott', 'intl', ['MARRIOTT {C}', 'COURTYARD BY MARRIOTT', 'MARRIOTT HOTELS'], [{ category: 'Meals & entertainment', share: 0.15 }]],
    ['Hilton', 'intl', ['HILTON HOTELS', 'HAMPTON INN {C}', 'HILTON {C}'], [{ category: 'Meals & entertainment', share: 0.12 }]],
    ['Hyatt', 'intl', ['HYATT REGENCY {C}', 'HYATT HOTELS']],
    ['Holiday Inn', 'intl', ['HOLIDAY INN {C}', 'IHG HOTELS']],
    ['Ibis', 'intl', ['IBIS {C}', 'ACCOR HOTELS IBIS']],
    ['Novotel', 'intl', ['NOVOTEL {C}', 'ACCOR NOVOTEL']],
    ['Best Western', 'intl', ['BEST WESTERN {C}', 'BEST WESTERN HOTEL']],
    ['Motel One', 'de', ['MOTEL ONE {C}', 'MOTEL ONE GMBH']],
    ['NH Hotels', 'es', ['NH HOTEL {C}', 'NH HOTELES']],
    ['Premier Inn', 'uk', ['PREMIER INN {C}', 'PREMIER INN HOTELS']],
    ['Airbnb', 'intl', ['AIRBNB * {R}', 'AIRBNB PAYMENTS']],
    ['Booking.com', 'intl', ['BOOKING.COM {R}', 'HOTEL AT BOOKING.COM']],
    ['Hotels.com', 'intl', ['HOTELS.COM {R}', 'HOTELS.COM']],
    ['Meliá', 'es', ['MELIA HOTELS {C}', 'MELIA']],
    ['Radisson', 'intl', ['RADISSON BLU {C}', 'RADISSON HOTEL']],
    ['Sheraton', 'intl', ['SHERATON {C}', 'SHERATON HOTELS']],
    ['B&B Hotels', 'fr', ['B&B HOTEL {C}', 'B&B HOTELS']],
  ],
  'Travel - ground transport': [
    ['Uber', 'intl', ['UBER *TRIP', 'UBER TRIP HELP.UBER.COM', 'UBER *TRIP {R}', 'UBER BV'], [{ category: 'Meals & entertainment', share: 0.3, bank: ['UBER *EATS', 'UBER EATS', 'UBER *EATS {R}', 'UBER BV'] }]],
    ['Lyft', 'us', ['LYFT *RIDE', 'LYFT *RIDE {D}', 'LYFT INC']],
    ['Bolt', 'intl', ['BOLT.EU/O/{R}', 'BOLT OPERATIONS'], [{ category: 'Meals & entertainment', share: 0.2, bank: ['BOLT FOOD', 'BOLT.EU/F/{R}'] }]],
    ['FREENOW', 'intl', ['FREENOW {R}', 'FREE NOW TAXI']],
    ['Deutsche Bahn', 'de', ['DB VERTRIEB GMBH', 'DB BAHN A-NR {R}', 'DB FERNVERKEHR']],
    ['SNCF', 'fr', ['SNCF INTERNET', 'SNCF VOYAGEURS', 'SNCF CONNECT']],
    ['Renfe', 'es', ['RENFE VIAJEROS', 'RENFE.COM']],
    ['NS', 'nl', ['NS GROEP', 'NS REIZIGERS']],
    ['Amtrak', 'us', ['AMTRAK .CO{R}', 'AMTRAK']],
    ['Eurostar', 'intl', ['EUROSTAR INTERNATIONAL', 'EUROSTAR']],
    ['Trainline', 'uk', ['TRAINLINE.COM', 'THETRAINLINE']],
    ['Hertz', 'intl', ['HERTZ RENT-A-CAR', 'HERTZ {C}']],
    ['Avis', 'intl', ['AVIS RENT A CAR', 'AVIS {C}']],
    ['Sixt', 'intl', ['SIXT {C}', 'SIXT GMBH & CO AUTOVERMIETUNG']],
    ['Europcar', 'intl', ['EUROPCAR {C}', 'EUROPCAR INTERNATIONAL']],
    ['Enterprise', 'us', ['ENTERPRISE RENT-A-CAR', 'ENTERPRISE {C}']],
    ['FlixBus', 'intl', ['FLIXBUS', 'FLIXMOBILITY GMBH']],
    ['BVG', 'de', ['BVG BERLIN', 'BVG TICKET']],
    ['RATP', 'fr', ['RATP', 'RATP NAVIGO']],
    ['SP+ Parking', 'us', ['SP+ PARKING {S}', 'SP PLUS PARKING']],
    ['Indigo', 'fr', ['INDIGO PARKING', 'INDIGO {C}']],
    ['APCOA', 'de', ['APCOA PARKING', 'APCOA {C}']],
    ['Q-Park', 'nl', ['Q-PARK {C}', 'Q-PARK BV']],
    ['MTA', 'us', ['MTA*NYCT PAYGO', 'MTA MVM']],
    ['TfL', 'uk', ['TFL TRAVEL CH', 'TFL.GOV.UK/CP']],
  ],
  'Meals & entertainment': [
    ['Starbucks', 'intl', ['STARBUCKS STORE {S}', 'STARBUCKS', 'SBUX {S}']],
    ['McDonald\'s', 'intl', ['MCDONALDS {S}', 'MCDONALD\'S F{S}', 'MC DONALDS']],
    ['Pret A Manger', 'uk', ['PRET A MANGER', 'PRET {C}']],
    ['Chipotle', 'us', ['CHIPOTLE {S}', 'CHIPOTLE ONLINE']],
    ['Sweetgreen', 'us', ['SWEETGREEN {C}', 'SWEETGREEN']],
    ['Subway', 'intl', ['SUBWAY {S}', 'SUBWAY']],
    ['Dunkin\'', 'us', ['DUNKIN #{S}', 'DUNKIN DONUTS']],
    ['Panera Bread', 'us', ['PANERA BREAD #{S}', 'PANERA']],
    ['Costa Coffee', 'uk', ['COSTA COFFEE {S}', 'COSTA']],
    ['Le Pain Quotidien', 'intl', ['LE PAIN QUOTIDIEN', 'PAIN QUOTIDIEN']],
    ['Vapiano', 'de', ['VAPIANO {C}', 'VAPIANO SE']],
    ['Nordsee', 'de', ['NORDSEE {S}', 'NORDSEE GMBH']],
    ['Five Guys', 'intl', ['FIVE GUYS {S}', 'FIVE GUYS']],
    ['DoorDash', 'us', ['DOORDASH*{R}', 'DD *DOORDASH']],
    ['Grubhub', 'us', ['GRUBHUB*{R}', 'GRUBHUB']],
    ['Deliveroo', 'intl', ['DELIVEROO', 'DELIVEROO.CO.UK', 'DELIVEROO FR']],
    ['Lieferando', 'de', ['LIEFERANDO.DE', 'TAKEAWAY.COM']],
    ['Just Eat', 'uk', ['JUST EAT', 'JUST-EAT.CO.UK']],
    ['Wolt', 'intl', ['WOLT', 'WOLT ENTERPRISES']],
    ['Glovo', 'es', ['GLOVO {R}', 'GLOVOAPP']],
    ['Thuisbezorgd', 'nl', ['THUISBEZORGD.NL', 'THUISBEZORGD']],
    ['Eventbrite', 'intl', ['EVENTBRITE {R}', 'EB *EVENT'], [{ category: 'Advertising', share: 0.3 }]],
  ],
  'Fuel': [
    ['Shell', 'intl', ['SHELL {N4}', 'SHELL OIL {R}', 'SHELL STATION', 'SHELL {C}'], [{ category: 'Meals & entertainment', share: 0.1 }]],
    ['BP', 'intl', ['BP#{N4}', 'BP {C}', 'BP TANKSTELLE']],
    ['ExxonMobil', 'us', ['EXXONMOBIL {N4}', 'EXXON {S}', 'MOBIL {S}']],
    ['Chevron', 'us', ['CHEVRON {N4}', 'CHEVRON {C}']],
    ['Esso', 'intl', ['ESSO {C}', 'ESSO STATION {S}']],
    ['Aral', 'de', ['ARAL STATION {S}', 'ARAL {C}', 'ARAL TANKSTELLE']],
    ['Texaco', 'uk', ['TEXACO {C}', 'TEXACO']],
    ['Q8', 'nl', ['Q8 {C}', 'Q8 TANKSTATION']],
    ['Repsol', 'es', ['REPSOL {C}', 'E.S. REPSOL {S}']],
    ['Cepsa', 'es', ['CEPSA {C}', 'E.S. CEPSA']],
    ['JET', 'de', ['JET TANKSTELLE {S}', 'JET {C}']],
    ['OMV', 'intl', ['OMV {S}', 'OMV TANKSTELLE']],
    ['Eni', 'intl', ['ENI STATION', 'AGIP ENI {S}']],
    ['Sunoco', 'us', ['SUNOCO {N4}', 'SUNOCO']],
    ['Circle K', 'intl', ['CIRCLE K {S}', 'CIRCLE K'], [{ category: 'Meals & entertainment', share: 0.15 }]],
    ['Valero', 'us', ['VALERO {N4}', 'VALERO']],
    ['Speedway', 'us', ['SPEEDWAY {N4}', 'SPEEDWAY']],
    ['Wawa', 'us', ['WAWA {S}', 'WAWA'], [{ category: 'Meals & entertainment', share: 0.35 }]],
  ],
  'Payroll': [
    ['Gusto', 'us', ['GUSTO {R} NET PAY', 'GUSTO PAYROLL', 'GUSTO NET']],
    ['ADP', 'us', ['ADP WAGE PAY', 'ADP PAYROLL {R}'], [{ category: 'Legal & professional', share: 0.25, bank: ['ADP PAYROLL FEES', 'ADP FEES {R}'] }]],
    ['Paychex', 'us', ['PAYCHEX {R}', 'PAYCHEX INC PAYROLL'], [{ category: 'Legal & professional', share: 0.2, bank: ['PAYCHEX INVOICE', 'PAYCHEX FEES'] }]],
    ['Rippling', 'us', ['RIPPLING PAYROLL', 'RIPPLING {R}']],
    ['Deel', 'intl', ['DEEL INC', 'DEEL {R}']],
    ['Remote', 'intl', ['REMOTE TECHNOLOGY', 'REMOTE.COM']],
    ['Justworks', 'us', ['JUSTWORKS PAYROLL', 'JUSTWORKS']],
  ],
  'Payroll taxes': [
    ['IRS', 'us', ['IRS USATAXPYMT {R}', 'EFTPS FED TAX 941', 'IRS USATAXPYMT'], [{ category: 'Income tax', share: 0.35, bank: ['IRS USATAXPYMT {R}', 'IRS USATAXPYMT', 'EFTPS FED TAX 1120'] }]],
    ['California EDD', 'us', ['STATE OF CA EDD DEPOSIT', 'CA EDD EFT']],
    ['NYS DTF', 'us', ['NYS DTF WT', 'NYS DTF PIT'], [{ category: 'Sales tax', share: 0.4, bank: ['NYS DTF SALES TAX', 'NYS DTF SLS'] }]],
    ['Finanzamt', 'de', ['FINANZAMT {C} LOHNSTEUER', 'FINANZAMT LOHNSTEUER {MON}', 'FINANZAMT {C}'], [{ category: 'Sales tax', share: 0.35, bank: ['FINANZAMT {C} UMSATZSTEUER', 'FINANZAMT UST-VA {MON}', 'FINANZAMT {C}'] }, { category: 'Income tax', share: 0.15, bank: ['FINANZAMT {C} KOERPERSCHAFTSTEUER', 'FINANZAMT KST VZ', 'FINANZAMT {C}'] }]],
    ['AOK', 'de', ['AOK {C} BEITRAEGE', 'AOK SOZIALVERSICHERUNG']],
    ['Techniker Krankenkasse', 'de', ['TECHNIKER KRANKENKASSE', 'TK BEITRAGSEINZUG']],
    ['URSSAF', 'fr', ['URSSAF {C}', 'URSSAF COTISATIONS', 'PRLV URSSAF']],
    ['DGFiP', 'fr', ['DGFIP PAS', 'DGFIP PRELEVEMENT A LA SOURCE'], [{ category: 'Sales tax', share: 0.45, bank: ['DGFIP TVA', 'DGFIP TVA {MON}', 'IMPOTS.GOUV TVA'] }, { category: 'Income tax', share: 0.2, bank: ['DGFIP IS', 'DGFIP IMPOT SOCIETES', 'IMPOTS.GOUV IS'] }]],
    ['Seguridad Social', 'es', ['TGSS SEGURIDAD SOCIAL', 'TGSS COTIZACION']],
    ['AEAT', 'es', ['AEAT MODELO 111', 'AGENCIA TRIBUTARIA 111'], [{ category: 'Sales tax', share: 0.45, bank: ['AEAT MODELO 303 IVA', 'AGENCIA TRIBUTARIA IVA'] }, { category: 'Income tax', share: 0.15, bank: ['AEAT MODELO 200', 'AGENCIA TRIBUTARIA IS'] }]],
    ['Belastingdienst', 'nl', ['BELASTINGDIENST LOONHEFFING', 'BELASTINGDIENST'], [{ category: 'Sales tax', share: 0.4, bank: ['BELASTINGDIENST OMZETBELASTING', 'BELASTINGDIENST'] }, { category: 'Income tax', share: 0.15, bank: ['BELASTINGDIENST VPB', 'BELASTINGDIENST'] }]],
    ['HMRC', 'uk', ['HMRC PAYE', 'HMRC NDDS PAYE', 'HMRC'], [{ category: 'Sales tax', share: 0.4, bank: ['HMRC VAT', 'HMRC VAT DD', 'HMRC'] }, { category: 'Income tax', share: 0.15, bank: ['HMRC CORPORATION TAX', 'HMRC CT', 'HMRC'] }]],
  ],
  'Sales tax': [
    ['CDTFA', 'us', ['CA DEPT TAX FEE CDTFA', 'CDTFA EFT']],
    ['Texas Comptroller', 'us', ['TX COMPTROLLER', 'COMPTROLLER OF PUBLIC ACCTS']],
    ['Avalara', 'us', ['AVALARA INC', 'AVALARA RETURNS'], [{ category: 'Software subscriptions', share: 0.3 }]],
  ],
  'Income tax': [
    ['Franchise Tax Board', 'us', ['FRANCHISE TAX BD', 'CA FTB']],
    ['Gewerbesteuer', 'de', ['STADTKASSE {C} GEWERBESTEUER', 'STADT {C} GEWST']],
  ],
  'Card processor payouts': [
    ['Stripe', 'intl', ['STRIPE', 'STRIPE TRANSFER', 'STRIPE PAYOUT {R}', 'ST-{R} STRIPE']],
    ['PayPal', 'intl', ['PAYPAL TRANSFER', 'PAYPAL *PAYOUT', 'PAYPAL EUROPE']],
    ['Square', 'us', ['SQUARE INC DEP', 'SQ *PAYOUT {R}', 'SQUARE INC']],
    ['Adyen', 'nl', ['ADYEN N.V.', 'ADYEN BV PAYOUT']],
    ['Shopify Payments', 'intl', ['SHOPIFY PAYOUT', 'SHOPIFY PAYMENTS {R}']],
    ['SumUp', 'intl', ['SUMUP PAYMENTS', 'SUMUP {R}']],
    ['Mollie', 'nl', ['MOLLIE B.V.', 'MOLLIE PAYOUT {R}']],
    ['Worldpay', 'uk', ['WORLDPAY', 'WORLDPAY MERCHANT SETTLE']],
    ['Klarna', 'intl', ['KLARNA BANK AB', 'KLARNA SETTLEMENT']],
    ['Braintree', 'intl', ['BRAINTREE', 'BRAINTREE PAYOUT']],
    ['Amazon Payments', 'intl', ['AMAZON PAYMENTS', 'AMAZON.COM SERVICES', 'AMAZON EU SARL']],
    ['Etsy', 'intl', ['ETSY INC', 'ETSY PAYMENTS']],
  ],
  'Bank fees': [
    ['Chase', 'us', ['MONTHLY SERVICE FEE', 'CHASE SERVICE CHARGE', 'WIRE TRANSFER FEE']],
    ['Wells Fargo', 'us', ['MONTHLY SERVICE FEE', 'WIRE TRANS SVC CHARGE', 'WELLS FARGO FEE']],
    ['Bank of America', 'us', ['MONTHLY MAINTENANCE FEE', 'BANK OF AMERICA FEE', 'INTL TRANSACTION FEE']],
    ['Deutsche Bank', 'de', ['ENTGELT KONTOFUEHRUNG', 'ABSCHLUSS ENTGELTE', 'DEUTSCHE BANK ENTGELT']],
    ['Commerzbank', 'de', ['KONTOFUEHRUNGSENTGELT', 'COMMERZBANK ENTGELT']],
    ['Sparkasse', 'de', ['KONTOFUEHRUNGSGEBUEHR', 'ABSCHLUSS', 'ENTGELTABSCHLUSS']],
    ['BNP Paribas', 'fr', ['FRAIS TENUE DE COMPTE', 'COMMISSION INTERVENTION', 'BNP FRAIS']],
    ['Société Générale', 'fr', ['FRAIS BANCAIRES', 'COTISATION JAZZ PRO', 'COMMISSIONS']],
    ['Santander', 'es', ['COMISION MANTENIMIENTO', 'COMISION TRANSFERENCIA', 'SANTANDER COMISION']],
    ['BBVA', 'es', ['COMISION MANTENIMIENTO CUENTA', 'BBVA COMISIONES']],
    ['ING', 'nl', ['KOSTEN ZAKELIJK BETALEN', 'ING BANK KOSTEN']],
    ['ABN AMRO', 'nl', ['ABN AMRO BANK KOSTEN', 'KOSTEN BETAALREKENING']],
    ['Revolut', 'intl', ['REVOLUT BUSINESS FEE', 'REVOLUT PLAN FEE', 'FX FEE']],
    ['Wise', 'intl', ['WISE FEE', 'TRANSFERWISE FEE', 'WISE CONVERSION FEE'], [{ category: 'Transfer between accounts', share: 0.3, bank: ['WISE BALANCE TOP UP', 'TOP UP WISE', 'WISE'] }]],
    ['Stripe', 'intl', ['STRIPE FEES', 'STRIPE BILLING FEE', 'STRIPE RADAR FEE']],
    ['Barclays', 'uk', ['BARCLAYS SERVICE CHARGE', 'COMMISSION CHARGES']],
    ['', 'intl', ['OVERDRAFT FEE', 'RETURNED ITEM FEE', 'FOREIGN TRANSACTION FEE', 'NSF FEE', 'STOP PAYMENT FEE']],
  ],
  'Loan repayment': [
    ['SBA', 'us', ['SBA LOAN', 'SBA EIDL LOAN']],
    ['KfW', 'de', ['KFW DARLEHEN', 'KFW BANKENGRUPPE']],
    ['Bpifrance', 'fr', ['BPIFRANCE', 'BPI FRANCE FINANCEMENT']],
    ['ICO', 'es', ['ICO', 'INSTITUTO CREDITO OFICIAL']],
    ['Funding Circle', 'intl', ['FUNDING CIRCLE', 'FUNDINGCIRCLE {R}']],
    ['OnDeck', 'us', ['ONDECK CAPITAL', 'ON DECK CAPITAL']],
    ['iwoca', 'intl', ['IWOCA', 'IWOCA LTD']],
    ['Chase', 'us', ['CHASE LOAN', 'CHASE BUSINESS LOAN']],
    ['Sparkasse', 'de', ['SPARKASSE DARLEHEN', 'SPK DARLEHENSKONTO']],
    ['Rabobank', 'nl', ['RABOBANK LENING', 'RABOBANK']],
    ['Amex', 'us', ['AMEX BUSINESS LOAN', 'AMERICAN EXPRESS LOAN']],
  ],
  'Loan proceeds': [
    ['SBA', 'us', ['SBA LOAN', 'SBA EIDL']],
    ['KfW', 'de', ['KFW DARLEHEN', 'KFW BANKENGRUPPE']],
    ['Bpifrance', 'fr', ['BPIFRANCE', 'BPI FRANCE']],
    ['Funding Circle', 'intl', ['FUNDING CIRCLE', 'FUNDINGCIRCLE']],
    ['iwoca', 'intl', ['IWOCA', 'IWOCA LTD']],
  ],
  'Interest income': [
    ['Mercury', 'us', ['MERCURY TREASURY', 'MERCURY']],
    ['Brex', 'us', ['BREX CASH', 'BREX YIELD']],
    ['Sparkasse', 'de', ['SPARKASSE', 'SPK']],
    ['BNP Paribas', 'fr', ['BNP PARIBAS', 'BNP']],
    ['ING', 'nl', ['ING', 'ING BANK']],
    ['BBVA', 'es', ['BBVA', 'BBVA CUENTA']],
    ['Barclays', 'uk', ['BARCLAYS', 'BARCLAYS BUSINESS']],
    ['Wise', 'intl', ['WISE INTEREST', 'WISE']],
  ],
  'Insurance': [
    ['Hiscox', 'intl', ['HISCOX INSURANCE', 'HISCOX']],
    ['Allianz', 'intl', ['ALLIANZ VERSICHERUNGS-AG', 'ALLIANZ']],
    ['AXA', 'intl', ['AXA ASSURANCE', 'AXA FRANCE IARD', 'AXA']],
    ['Zurich', 'intl', ['ZURICH INSURANCE', 'ZURICH VERSICHERUNG']],
    ['Chubb', 'us', ['CHUBB INSURANCE', 'CHUBB']],
    ['The Hartford', 'us', ['THE HARTFORD', 'HARTFORD INS']],
    ['State Farm', 'us', ['STATE FARM INSURANCE', 'STATE FARM RO {R}']],
    ['Next Insurance', 'us', ['NEXT INSURANCE', 'NEXT INS']],
    ['ERGO', 'de', ['ERGO VERSICHERUNG', 'ERGO']],
    ['Generali', 'intl', ['GENERALI', 'GENERALI VERSICHERUNG']],
    ['Mapfre', 'es', ['MAPFRE ESPANA', 'MAPFRE SEGUROS']],
    ['Nationale-Nederlanden', 'nl', ['NATIONALE-NEDERLANDEN', 'NN SCHADEVERZEKERING']],
    ['Aviva', 'uk', ['AVIVA', 'AVIVA INSURANCE']],
    ['Travelers', 'us', ['TRAVELERS INS', 'TRAVELERS']],
    ['Coalition', 'us', ['COALITION INC', 'COALITION INS']],
    ['Vouch', 'us', ['VOUCH INSURANCE', 'VOUCH']],
    ['Simply Business', 'uk', ['SIMPLY BUSINESS', 'SIMPLYBUSINESS']],
  ],
  'Legal & professional': [
    ['Deloitte', 'intl', ['DELOITTE', 'DELOITTE LLP']],
    ['PwC', 'intl', ['PRICEWATERHOUSECOOPERS', 'PWC']],
    ['KPMG', 'intl', ['KPMG', 'KPMG AG']],
    ['EY', 'intl', ['ERNST & YOUNG', 'EY']],
    ['BDO', 'intl', ['BDO', 'BDO LLP']],
    ['Grant Thornton', 'intl', ['GRANT THORNTON', 'GRANT THORNTON LLP']],
    ['LegalZoom', 'us', ['LEGALZOOM*', 'LEGALZOOM.COM']],
    ['Clerky', 'us', ['CLERKY INC', 'CLERKY']],
    ['Upwork', 'intl', ['UPWORK -{R}', 'UPWORK ESCROW'], [{ category: 'Advertising', share: 0.2 }]],
    ['Fiverr', 'intl', ['FIVERR', 'FIVERR INTERNATIONAL'], [{ category: 'Advertising', share: 0.4 }]],
    ['Toptal', 'intl', ['TOPTAL LLC', 'TOPTAL']],
    ['Carta', 'us', ['CARTA INC', 'ESHARES INC'], [{ category: 'Software subscriptions', share: 0.35 }]],
  ],
  'Advertising': [
    ['Google Ads', 'intl', ['GOOGLE *ADS{R}', 'GOOGLE ADS', 'GOOGLE*ADS {R}']],
    ['Meta', 'intl', ['FACEBK *{R}', 'FACEBK ADS', 'META PLATFORMS ADS', 'FB ADS {R}']],
    ['LinkedIn', 'intl', ['LINKEDIN ADS', 'LNKD*ADS {R}', 'LINKEDIN {R}'], [{ category: 'Software subscriptions', share: 0.25, bank: ['LINKEDIN PREMIUM', 'LINKEDIN SALES NAV', 'LINKEDIN {R}'] }]],
    ['X Ads', 'intl', ['TWITTER ADS', 'X CORP ADS']],
    ['Reddit', 'intl', ['REDDIT ADS', 'REDDIT INC']],
    ['TikTok', 'intl', ['TIKTOK ADS', 'TIKTOK {R}']],
    ['Microsoft Advertising', 'intl', ['MSFT * BING ADS', 'MICROSOFT ADVERTISING']],
    ['Amazon Ads', 'intl', ['AMAZON ADVERTISING', 'AMAZON ADS {R}']],
    ['Semrush', 'intl', ['SEMRUSH', 'SEMRUSH INC'], [{ category: 'Software subscriptions', share: 0.4 }]],
    ['Ahrefs', 'intl', ['AHREFS PTE LTD', 'AHREFS'], [{ category: 'Software subscriptions', share: 0.4 }]],
    ['Hootsuite', 'intl', ['HOOTSUITE INC', 'HOOTSUITE']],
    ['Yelp', 'us', ['YELP INC', 'YELP ADS']],
    ['Taboola', 'intl', ['TABOOLA', 'TABOOLA INC']],
    ['Outbrain', 'intl', ['OUTBRAIN', 'OUTBRAIN INC']],
    ['Criteo', 'fr', ['CRITEO SA', 'CRITEO']],
    ['Spotify Ads', 'intl', ['SPOTIFY AD STUDIO', 'SPOTIFY ADS']],
    ['G2', 'us', ['G2.COM INC', 'G2 CROWD']],
    ['Capterra', 'us', ['CAPTERRA INC', 'GARTNER DIGITAL MARKETS']],
  ],
  'Shipping': [
    ['UPS', 'intl', ['UPS*{R}', 'UPS STORE {S}', 'UNITED PARCEL SERVICE']],
    ['FedEx', 'intl', ['FEDEX {R}', 'FEDEX OFFICE {S}', 'FEDEX EXPRESS']],
    ['DHL', 'intl', ['DHL PAKET', 'DHL EXPRESS {R}', 'DHL.COM']],
    ['USPS', 'us', ['USPS PO {N4}', 'USPS.COM CLICKNSHIP', 'USPS']],
    ['Deutsche Post', 'de', ['DEUTSCHE POST AG', 'DEUTSCHE POST {C}', 'POSTFILIALE {S}']],
    ['La Poste', 'fr', ['LA POSTE COLISSIMO', 'LA POSTE {C}', 'LAPOSTE.FR']],
    ['Correos', 'es', ['CORREOS {C}', 'CORREOS Y TELEGRAFOS']],
    ['PostNL', 'nl', ['POSTNL', 'POSTNL ZAKELIJK']],
    ['Hermes', 'de', ['HERMES GERMANY', 'HERMES VERSAND']],
    ['DPD', 'intl', ['DPD DEUTSCHLAND', 'DPD {R}']],
    ['GLS', 'intl', ['GLS GENERAL LOGISTICS', 'GLS {R}']],
    ['Royal Mail', 'uk', ['ROYAL MAIL', 'ROYALMAIL.COM']],
    ['Sendcloud', 'nl', ['SENDCLOUD BV', 'SENDCLOUD'], [{ category: 'Software subscriptions', share: 0.3 }]],
    ['ShipStation', 'us', ['SHIPSTATION', 'SHIPSTATION.COM'], [{ category: 'Software subscriptions', share: 0.35 }]],
    ['Shippo', 'us', ['GOSHIPPO.COM', 'SHIPPO']],
    ['Chronopost', 'fr', ['CHRONOPOST', 'CHRONOPOST SAS']],
    ['SEUR', 'es', ['SEUR', 'SEUR GEOPOST']],
    ['Flexport', 'intl', ['FLEXPORT INC', 'FLEXPORT'], [{ category: 'Inventory & materials', share: 0.25 }]],
  ],
  'Equipment purchase': [
    ['Dell', 'intl', ['DELL MARKETING', 'DELL.COM {R}', 'DELL TECHNOLOGIES']],
    ['Lenovo', 'intl', ['LENOVO US', 'LENOVO.COM', 'LENOVO GLOBAL']],
    ['HP', 'intl', ['HP INC', 'HP STORE {R}']],
    ['Best Buy', 'us', ['BEST BUY {S}', 'BESTBUY.COM'], [{ category: 'Office supplies', share: 0.3 }]],
    ['B&H Photo', 'us', ['B&H PHOTO {R}', 'B & H PHOTO-VIDEO']],
    ['Newegg', 'us', ['NEWEGG INC', 'NEWEGG.COM']],
    ['CDW', 'us', ['CDW DIRECT', 'CDW GOVERNMENT']],
    ['MediaMarkt', 'intl', ['MEDIA MARKT {C}', 'MEDIAMARKT.DE', 'MEDIA MARKT']],
    ['Saturn', 'de', ['SATURN {C}', 'SATURN ELECTRO']],
    ['Cyberport', 'de', ['CYBERPORT GMBH', 'CYBERPORT.DE']],
    ['notebooksbilliger.de', 'de', ['NOTEBOOKSBILLIGER.DE', 'NBB.COM']],
    ['Fnac', 'fr', ['FNAC {C}', 'FNAC.COM'], [{ category: 'Office supplies', share: 0.35 }]],
    ['Darty', 'fr', ['DARTY {C}', 'DARTY.COM']],
    ['Boulanger', 'fr', ['BOULANGER {C}', 'BOULANGER SA']],
    ['PcComponentes', 'es', ['PCCOMPONENTES', 'PC COMPONENTES Y MULTIMEDIA']],
    ['Coolblue', 'nl', ['COOLBLUE BV', 'COOLBLUE.NL']],
    ['bol.com', 'nl', ['BOL.COM', 'BOL.COM BV'], [{ category: 'Office supplies', share: 0.5 }]],
    ['Herman Miller', 'us', ['HERMAN MILLER', 'HERMANMILLER.COM']],
    ['Steelcase', 'intl', ['STEELCASE', 'STEELCASE INC']],
    ['Fully', 'us', ['FULLY.COM', 'FULLY LLC']],
    ['Vitra', 'intl', ['VITRA', 'VITRA AG']],
    ['Logitech', 'intl', ['LOGITECH', 'LOGITECH EUROPE'], [{ category: 'Office supplies', share: 0.4 }]],
    ['Samsung', 'intl', ['SAMSUNG ELECTRONICS', 'SAMSUNG.COM']],
    ['Currys', 'uk', ['CURRYS {C}', 'CURRYS PC WORLD']],
  ],
  'Transfer between accounts': [
    ['', 'intl', ['', 'SAVINGS', 'TAGESGELD', 'LIVRET', 'CUENTA AHORRO', 'SPAARREKENING', 'CHK ...{N4}', 'SAV ...{N4}']],
    ['Mercury', 'us', ['MERCURY', 'MERCURY TREASURY']],
    ['Revolut', 'intl', ['REVOLUT', 'REVOLUT BUSINESS', 'REVOLUT TOP-UP']],
    ['American Express', 'us', ['AMEX EPAYMENT ACH PMT', 'AMERICAN EXPRESS ACH PMT', 'AMEX PAYMENT THANK YOU']],
    ['Brex', 'us', ['BREX CARD PAYMENT', 'BREX INC']],
  ],
  'Inventory & materials': [
    ['Alibaba', 'intl', ['ALIBABA.COM', 'ALIBABA.COM SINGAPORE']],
    ['Faire', 'intl', ['FAIRE WHOLESALE', 'FAIRE.COM']],
    ['Printful', 'intl', ['PRINTFUL INC', 'PRINTFUL']],
    ['Zoro', 'us', ['ZORO TOOLS', 'ZORO.COM']],
    ['McMaster-Carr', 'us', ['MCMASTER-CARR', 'MCMASTER CARR SUPPLY']],
    ['Würth', 'de', ['WUERTH GMBH', 'ADOLF WUERTH GMBH']],
    ['Metro', 'intl', ['METRO CASH & CARRY', 'METRO {C}'], [{ category: 'Meals & entertainment', share: 0.3 }]],
  ],
}

// ---------------------------------------------------------------------------------------------
// The synthesized long tail

const SURNAMES = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Wagner', 'Becker', 'Hoffmann', 'Schulz', 'Koch', 'Dubois', 'Martin', 'Lefèvre', 'Moreau', 'Laurent', 'Fontaine', 'Girard', 'García', 'López', 'Fernández', 'Martínez', 'Sánchez', 'Romero', 'Navarro', 'de Vries', 'Jansen', 'Bakker', 'Visser', 'Smit', 'de Jong', 'van Dijk', 'Smith', 'Johnson', 'Brown', 'Wilson', 'Taylor', 'Clark', 'Walker', 'Young', 'Kelly', 'Murphy', 'O\'Brien', 'Rossi', 'Bianchi', 'Novak', 'Kowalski', 'Andersen', 'Nielsen', 'Cohen', 'Patel', 'Singh', 'Chen', 'Nakamura', 'Ortega', 'Herrera', 'Peeters', 'Mertens', 'Lambert', 'Keller', 'Brandt']
const FIRST_NAMES = ['Anna', 'Lukas', 'Marie', 'Jean', 'Pablo', 'Sofia', 'Daan', 'Emma', 'James', 'Olivia', 'Liam', 'Noah', 'Mia', 'Leon', 'Chloé', 'Hugo', 'Lucía', 'Mateo', 'Sem', 'Julia', 'Finn', 'Léa', 'Carmen', 'Pieter', 'Sarah', 'David', 'Elena', 'Tom', 'Laura', 'Max', 'Jonas', 'Inès', 'Álvaro', 'Fleur', 'Oliver', 'Amelia']
const PLACE_WORDS = ['Rosa', 'Luna', 'Sol', 'Verde', 'Oro', 'Bella', 'Casa', 'Mar', 'Roma', 'Napoli', 'Milano', 'Lotus', 'Bamboo', 'Sakura', 'Olive', 'Golden', 'Little', 'Lindenhof', 'Sonne', 'Krone', 'Adler', 'Löwe', 'Hirsch', 'Kastanie', 'Étoile', 'Lune', 'Jardin', 'Marché', 'Tulp', 'Molen', 'Haven', 'Zon', 'Corner', 'Harbor', 'Maple', 'Cedar', 'Ivy', 'Fig', 'Saffron', 'Basil']
const BUSINESS_WORDS = ['Nord', 'Alpine', 'Blue', 'Bright', 'Cedar', 'Delta', 'Evergreen', 'Falcon', 'Granite', 'Harbor', 'Iron', 'Juniper', 'Keystone', 'Lumen', 'Maple', 'Nova', 'Orion', 'Pioneer', 'Quantum', 'River', 'Summit', 'Terra', 'Unity', 'Vertex', 'Willow', 'Zenith', 'Atlas', 'Beacon', 'Crest', 'Horizon', 'Polar', 'Sierra', 'Aurora', 'Helix', 'Kinetic', 'Solis']
const CUSTOMER_WORDS = ['Analytics', 'Labs', 'Systems', 'Solutions', 'Media', 'Logistics', 'Foods', 'Health', 'Retail', 'Partners', 'Ventures', 'Digital', 'Works', 'Design', 'Consulting', 'Capital', 'Energy', 'Robotics', 'Software', 'Studio']
const SUPPLIER_WORDS = ['Manufacturing', 'Trading', 'Wholesale', 'Supply', 'Components', 'Packaging', 'Textiles', 'Materials', 'Industries', 'Metals', 'Plastics', 'Print']
const COMPANY_SUFFIX: Record<Region, string[]> = { us: ['Inc', 'LLC', 'Corp'], de: ['GmbH', 'AG', 'UG', 'GmbH & Co. KG'], fr: ['SAS', 'SARL', 'SA'], es: ['SL', 'SA', 'SLU'], nl: ['BV', 'B.V.', 'NV'], uk: ['Ltd', 'Limited', 'PLC'] }
const REGIONS: Region[] = ['us', 'us', 'us', 'de', 'de', 'fr', 'es', 'nl', 'uk']

interface TailSpec {
  category: string
  count: number
  /** Share of the category's rows that go to the tail. */
  share: number
  name: (rng: Rng, region: Region) => string
}

const byRegion = (forms: Partial<Record<Region, string[]>>, fallback: string[]) => (rng: Rng, region: Region) => pick(rng, forms[region] ?? fallback)
const fill = (rng: Rng, template: string) =>
  template
    .replace('{SUR2}', pick(rng, SURNAMES))
    .replace('{SUR}', pick(rng, SURNAMES))
    .replace('{FIRST}', pick(rng, FIRST_NAMES))
    .replace('{PLACE}', pick(rng, PLACE_WORDS))
    .replace('{BIZ}', pick(rng, BUSINESS_WORDS))

const TAILS: TailSpec[] = [
  { category: 'Meals & entertainment', count: 90, share: 0.45, name: (rng, region) => fill(rng, byRegion({
    us: ['{PLACE} Kitchen', '{PLACE} Grill', '{SUR}\'s Diner', '{PLACE} Burger', 'Taqueria {PLACE}', '{PLACE} Coffee', '{PLACE} Sushi', '{PLACE} Bar & Grill'],
    de: ['Gasthaus {PLACE}', 'Restaurant {PLACE}', 'Café {PLACE}', 'Biergarten {PLACE}', 'Bäckerei {SUR}', 'Pizzeria {PLACE}', 'Imbiss {SUR}'],
    fr: ['Brasserie {PLACE}', 'Bistro {PLACE}', 'Café {PLACE}', 'Boulangerie {SUR}', 'Restaurant {PLACE}', 'Crêperie {PLACE}'],
    es: ['Bar {PLACE}', 'Restaurante {PLACE}', 'Cafetería {PLACE}', 'Taberna {PLACE}', 'Bodega {PLACE}'],
    nl: ['Eetcafé {PLACE}', 'Restaurant {PLACE}', 'Café {PLACE}', 'Bakkerij {SUR}', 'Brasserie {PLACE}'],
    uk: ['The {PLACE} Arms', '{PLACE} Kitchen', '{PLACE} Café', 'Trattoria {PLACE}', '{PLACE} Pub'],
  }, [])(rng, region)) },
  { category: 'Travel - lodging', count: 30, share: 0.25, name: (rng, region) => fill(rng, byRegion({
    us: ['{PLACE} Inn', 'The {PLACE} Hotel', '{PLACE} Suites'], de: ['Hotel {PLACE}', 'Gasthof {PLACE}', 'Pension {SUR}'],
    fr: ['Hôtel {PLACE}', 'Hôtel du {PLACE}'], es: ['Hostal {PLACE}', 'Hotel {PLACE}'], nl: ['Hotel {PLACE}', 'Hotel De {PLACE}'], uk: ['The {PLACE} Hotel', '{PLACE} Guest House'],
  }, [])(rng, region)) },
  { category: 'Travel - ground transport', count: 15, share: 0.12, name: (rng, region) => fill(rng, byRegion({
    us: ['{PLACE} Cab Co', 'Yellow Cab {SUR}'], de: ['Taxi {SUR}', 'Taxi-Zentrale {PLACE}'], fr: ['Taxi {SUR}', 'Taxis {PLACE}'], es: ['Taxi {SUR}', 'Radio Taxi {PLACE}'], nl: ['Taxi {SUR}', 'Taxicentrale {PLACE}'], uk: ['{PLACE} Cars', '{SUR} Taxis'],
  }, [])(rng, region)) },
  { category: 'Office supplies', count: 20, share: 0.15, name: (rng, region) => fill(rng, byRegion({
    us: ['{PLACE} Office Supply', '{SUR} Stationers'], de: ['Schreibwaren {SUR}', 'Bürobedarf {SUR}'], fr: ['Papeterie {SUR}', 'Papeterie {PLACE}'], es: ['Papelería {PLACE}', 'Papelería {SUR}'], nl: ['Kantoorboekhandel {SUR}', 'Kantoorartikelen {PLACE}'], uk: ['{SUR} Stationery', '{PLACE} Office Supplies'],
  }, [])(rng, region)) },
  { category: 'Fuel', count: 15, share: 0.1, name: (rng, region) => fill(rng, byRegion({
    us: ['{SUR} Gas & Go', '{PLACE} Fuel Stop'], de: ['Tankstelle {SUR}', 'Freie Tankstelle {PLACE}'], fr: ['Station {PLACE}', 'Relais {PLACE} Carburant'], es: ['Gasolinera {PLACE}', 'E.S. {PLACE}'], nl: ['Tankstation {PLACE}', 'Tankstation {SUR}'], uk: ['{PLACE} Service Station', '{SUR} Fuels'],
  }, [])(rng, region)) },
  { category: 'Legal & professional', count: 50, share: 0.6, name: (rng, region) => fill(rng, byRegion({
    us: ['{SUR} & {SUR2} LLP', '{SUR} Law Group', '{SUR} CPA PC', '{SUR} Consulting LLC'], de: ['Kanzlei {SUR}', '{SUR} Steuerberatung', '{SUR} & {SUR2} Rechtsanwälte', 'Steuerbüro {SUR}'],
    fr: ['Cabinet {SUR} Avocats', 'Expert-Comptable {SUR}', '{SUR} Conseil'], es: ['Abogados {SUR}', 'Asesoría {SUR}', 'Gestoría {SUR}'], nl: ['{SUR} Advocaten', '{SUR} Accountants', 'Administratiekantoor {SUR}'], uk: ['{SUR} & {SUR2} Solicitors', '{SUR} Accountants Ltd', '{SUR} Chartered Accountants'],
  }, [])(rng, region)) },
  { category: 'Rent', count: 14, share: 0.6, name: (rng, region) => fill(rng, byRegion({
    us: ['{SUR} Properties LLC', '{BIZ} Realty'], de: ['{SUR} Immobilien GmbH', 'Hausverwaltung {SUR}'], fr: ['SCI {SUR}', 'Foncière {BIZ}'], es: ['Inmobiliaria {SUR}', 'Inversiones {BIZ} SL'], nl: ['Vastgoed {SUR} BV', '{BIZ} Vastgoed'], uk: ['{SUR} Estates Ltd', '{BIZ} Property'],
  }, [])(rng, region)) },
  { category: 'Customer payments', count: 160, share: 1, name: (rng, region) => `${pick(rng, BUSINESS_WORDS)} ${pick(rng, CUSTOMER_WORDS)} ${pick(rng, COMPANY_SUFFIX[region])}` },
  { category: 'Inventory & materials', count: 60, share: 0.8, name: (rng, region) => `${pick(rng, rng() < 0.5 ? BUSINESS_WORDS : SURNAMES)} ${pick(rng, SUPPLIER_WORDS)} ${pick(rng, COMPANY_SUFFIX[region])}` },
  { category: 'Payroll', count: 45, share: 0.75, name: (rng) => `${pick(rng, FIRST_NAMES)} ${pick(rng, SURNAMES)}` },
  { category: 'Owner contribution', count: 3, share: 1, name: (rng) => `${pick(rng, FIRST_NAMES)} ${pick(rng, SURNAMES)}` },
  { category: 'Equipment purchase', count: 12, share: 0.12, name: (rng, region) => `${pick(rng, BUSINESS_WORDS)} ${pick(rng, ['IT', 'Computer', 'Electronics', 'Office Furniture', 'Tech'])} ${pick(rng, COMPANY_SUFFIX[region])}` },
  { category: 'Software subscriptions', count: 25, share: 0.12, name: (rng) => `${pick(rng, BUSINESS_WORDS)}${pick(rng, ['ly', 'io', 'hub', 'stack', 'desk', 'base', 'flow'])}` },
]

/** How a synthesized name appears on a bank line: upper case, sometimes with the legal form dropped. */
function bankForms(name: string): string[] {
  const upper = name.toUpperCase()
  const short = upper.replace(/\s+(INC|LLC|CORP|GMBH( & CO\. KG)?|AG|UG|SAS|SARL|SA|SL|SLU|BV|B\.V\.|NV|LTD|LIMITED|PLC)$/, '')
  return short === upper ? [upper] : [upper, short]
}

// ---------------------------------------------------------------------------------------------
// The world: categories with their merchants, built once with a fixed seed

interface WorldCategory extends CategorySpec {
  merchants: Merchant[]
  merchantWeight: number
}

interface World {
  categories: WorldCategory[]
  byName: Map<string, WorldCategory>
  totalWeight: number
}

const WORLD_SEED = 0x5eed_f1c7
let world: World | null = null

function buildWorld(): World {
  const rng = mulberry32(WORLD_SEED)
  const categories: WorldCategory[] = CATEGORY_SPECS.map((spec) => {
    const named = NAMED[spec.category] ?? []
    const tail = TAILS.find((t) => t.category === spec.category)
    const merchants: Merchant[] = named.map(([name, region, bank, alt], rank) => ({
      name,
      region: region === 'intl' ? pick(rng, REGIONS) : region,
      bank,
      weight: (1 - (tail?.share ?? 0)) / Math.pow(rank + 1, 0.9) / harmonic(named.length, 0.9),
      alt,
    }))
    if (tail) {
      const seen = new Set(merchants.map((m) => m.name))
      for (let i = 0; i < tail.count; i++) {
        const region = pick(rng, REGIONS)
        const name = tail.name(rng, region)
        if (seen.has(name)) continue
        seen.add(name)
        // A long tail: a few tail merchants are regulars, most are rare.
        merchants.push({ name, region, bank: bankForms(name), weight: (tail.share / tail.count) * (rng() < 0.2 ? 3 : 0.5) })
      }
    }
    return { ...spec, merchants, merchantWeight: merchants.reduce((s, m) => s + m.weight, 0) }
  })
  return {
    categories,
    byName: new Map(categories.map((c) => [c.category, c])),
    totalWeight: categories.reduce((s, c) => s + c.weight, 0),
  }
}

function harmonic(n: number, power: number): number {
  let s = 0
  for (let i = 1; i <= n; i++) s += 1 / Math.pow(i, power)
  return s || 1
}

function getWorld(): World {
  return (world ??= buildWorld())
}

// ---------------------------------------------------------------------------------------------
// Rows

/** Generic descriptions that say nothing about the category. */
const GENERIC: { description: string[]; categories: [string, number][] } = {
  description: ['PAYMENT', 'TRANSFER', 'ONLINE PAYMENT', 'ONLINE TRANSFER', 'ZAHLUNG', 'UEBERWEISUNG', 'VIREMENT', 'PAIEMENT', 'TRANSFERENCIA', 'PAGO', 'OVERBOEKING', 'BETALING', 'DEBIT', 'CHECK {R}', 'CHEQUE {R}', 'DEPOSIT', 'MOBILE DEPOSIT', 'POS PURCHASE', 'WIRE {R}', 'REF {R}'],
  categories: [['Transfer between accounts', 3], ['Customer payments', 2.5], ['Owner contribution', 0.6], ['Loan repayment', 0.8], ['Legal & professional', 1], ['Inventory & materials', 1], ['Office supplies', 0.6], ['Payroll', 0.6], ['Rent', 0.3]],
}
const GENERIC_SHARE = 0.05

/** Share of rows that carry merchant_name, by channel. */
const NAME_RATE: Record<Channel, number> = { card: 0.72, debit: 0.65, transfer: 0.55, credit: 0.55, fee: 0.2 }

const DAY_MS = 86_400_000

export function generateDataset(opts: { size: number; seed: number; start?: string }): LabelledTransaction[] {
  const { size, seed } = opts
  if (!Number.isInteger(size) || size < 0) throw new RangeError('size must be a non-negative integer')
  const startMs = Date.parse(`${opts.start ?? '2025-01-01'}T00:00:00Z`)
  if (Number.isNaN(startMs)) throw new RangeError('start must be YYYY-MM-DD')
  const w = getWorld()
  const rng = mulberry32(seed ^ 0x9e3779b9)
  const rows: LabelledTransaction[] = []
  for (let i = 0; i < size; i++) {
    const date = new Date(startMs + Math.floor(rng() * 365) * DAY_MS)
    rows.push(rng() < GENERIC_SHARE ? genericRow(rng, w, date) : merchantRow(rng, w, date))
  }
  // Statement order: by date, stable on generation order.
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => (a.row.transaction_date < b.row.transaction_date ? -1 : a.row.transaction_date > b.row.transaction_date ? 1 : a.i - b.i))
    .map((x) => x.row)
}

function merchantRow(rng: Rng, w: World, date: Date): LabelledTransaction {
  let cat = pickWeighted(rng, w.categories, w.totalWeight)
  const merchant = pickWeighted(rng, cat.merchants, cat.merchantWeight)
  let bank = merchant.bank
  for (const alt of merchant.alt ?? []) {
    if (rng() < alt.share) {
      cat = w.byName.get(alt.category)!
      bank = alt.bank ?? bank
      break
    }
  }
  const channel = pickWeighted(rng, cat.channels.map(([c, weight]) => ({ c, weight })), cat.channels.reduce((s, [, x]) => s + x, 0)).c
  const amountMinor = signed(rng, cat.sign, amountFor(rng, cat.amount, merchant.name + cat.category))
  const ctx: RenderContext = { rng, region: merchant.region, channel, date, words: cat.words }
  const merchantText = render(ctx, pick(rng, bank))
  let description = render(ctx, pick(rng, merchant.templates ?? cat.templates).replace('{M}', () => merchantText))
  description = noise(rng, description)
  const hasName = merchant.name !== '' && rng() < NAME_RATE[channel]
  return row(date, description, hasName ? merchant.name : null, amountMinor, cat)
}

function genericRow(rng: Rng, w: World, date: Date): LabelledTransaction {
  const choices = GENERIC.categories.map(([name, weight]) => ({ name, weight }))
  const choice = pickWeighted(rng, choices, choices.reduce((s, c) => s + c.weight, 0))
  const cat = w.byName.get(choice.name)!
  const ctx: RenderContext = { rng, region: pick(rng, REGIONS), channel: 'fee', date, words: undefined }
  const description = noise(rng, render(ctx, pick(rng, GENERIC.description)))
  return row(date, description, null, signed(rng, cat.sign, amountFor(rng, cat.amount, null)), cat)
}

function row(date: Date, description: string, merchant: string | null, amountMinor: number, cat: CategorySpec): LabelledTransaction {
  return {
    transaction_date: date.toISOString().slice(0, 10),
    description,
    merchant_name: merchant,
    amount: formatMinor(amountMinor, 2),
    amount_minor: amountMinor,
    category: cat.category,
    accounting_category: cat.accounting_category,
    cash_flow_category: cat.cash_flow_category,
  }
}

function signed(rng: Rng, sign: Sign, magnitude: number): number {
  const negative = sign === 'out' || (sign === 'both' && rng() < 0.5)
  return negative ? -magnitude : magnitude
}

/** A positive amount in minor units: log-uniform in the category's range, or the merchant's fixed price. */
function amountFor(rng: Rng, spec: AmountSpec, fixedKey: string | null): number {
  const lo = Math.log(spec.min * 100)
  const hi = Math.log(spec.max * 100)
  if (spec.fixed && fixedKey !== null && rng() < 0.85) {
    const u = hash(fixedKey) / 4294967296
    const minor = Math.round(Math.exp(lo + u * (hi - lo)))
    // Subscription-style prices: whole units or .99, .50.
    return Math.max(1, Math.floor(minor / 100) * 100 + [0, 99, 50, 0][hash(fixedKey + '/c') % 4])
  }
  const minor = Math.max(1, Math.round(Math.exp(lo + rng() * (hi - lo))))
  if (spec.round !== undefined && rng() < spec.round) return Math.max(10_000, Math.round(minor / 10_000) * 10_000)
  return minor
}

// ---------------------------------------------------------------------------------------------
// Description rendering and noise

interface RenderContext {
  rng: Rng
  region: Region
  channel: Channel
  date: Date
  words: Localized | undefined
}

function render(ctx: RenderContext, template: string): string {
  const { rng, region } = ctx
  return template
    .replace(/\{P\}/g, () => render(ctx, pick(rng, PREFIXES[ctx.channel][region])))
    .replace(/\{C\}/g, () => pick(rng, CITIES[region]))
    .replace(/\{S\}/g, () => storeNumber(rng))
    .replace(/\{R\}/g, () => reference(rng))
    .replace(/\{N4\}/g, () => String(int(rng, 1000, 9999)))
    .replace(/\{D\}/g, () => dateText(rng, region, ctx.date))
    .replace(/\{MON\}/g, () => MONTHS[region][ctx.date.getUTCMonth()] + (rng() < 0.5 ? ` ${ctx.date.getUTCFullYear()}` : ''))
    .replace(/\{W\}/g, () => (ctx.words ? pick(rng, ctx.words[region]) : ''))
    .replace(/\s+/g, ' ')
    .trim()
}

function storeNumber(rng: Rng): string {
  const n = String(int(rng, 1, 9999)).padStart(int(rng, 3, 5), '0')
  return pick(rng, ['#', '', 'NO ', 'STORE ', 'F']) + n
}

const REF_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'

function reference(rng: Rng): string {
  if (rng() < 0.4) return String(int(rng, 100000, 999999999))
  let out = ''
  const length = int(rng, 6, 12)
  for (let i = 0; i < length; i++) out += i % 3 === 1 ? String(int(rng, 0, 9)) : REF_CHARS[int(rng, 0, REF_CHARS.length - 1)]
  return out
}

function dateText(rng: Rng, region: Region, date: Date): string {
  const d = new Date(date.getTime() - int(rng, 0, 2) * DAY_MS)
  const dd = String(d.getUTCDate()).padStart(2, '0')
  const mm = String(d.getUTCMonth() + 1).padStart(2, '0')
  switch (region) {
    case 'us': return `${mm}/${dd}`
    case 'de': return `${dd}.${mm}`
    case 'fr': return `${dd}/${mm}`
    case 'es': return `${dd}-${mm}`
    case 'nl': return `${dd}-${mm}-${d.getUTCFullYear()}`
    case 'uk': return `${dd} ${MONTHS.us[d.getUTCMonth()]}`
  }
}

/** Random casing and the fixed-width truncation of many bank exports. */
function noise(rng: Rng, text: string): string {
  let out = text
  const casing = rng()
  if (casing < 0.75) out = out.toUpperCase()
  else if (casing < 0.88) out = out.toLowerCase().replace(/(^|\s)(\S)/g, (_, sp: string, c: string) => sp + c.toUpperCase())
  else if (casing < 0.95) out = out.toLowerCase()
  if (rng() < 0.2 && out.length > 18) out = out.slice(0, int(rng, 18, Math.min(40, out.length))).trimEnd()
  return out
}

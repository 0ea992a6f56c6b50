/**
 * Starting charts (docs/exporting.md, "A chart of accounts"): `finctl export map suggest --chart C`
 * writes an accounts map that numbers each accounting category, the bank accounts and the accounts
 * a filing format needs, in SKR03 or SKR04 (DATEV), BAS (SIE) or the Norwegian standard accounts
 * (SAF-T, with each account's grouping category and code). A suggestion to read and change, never
 * taken silently: a category with no accounting category is listed without a number, so the export
 * refuses it until it has one.
 */
import type { Chart } from '../../domain/exports/accounts-map-schema.js'
import type { Categories } from '../../domain/schemas.js'
import { ACCOUNTING_CATEGORIES } from '../../kernel/vocabulary.js'
import type { BankAccountInfo } from '../../domain/exports/formats/accounts-map.js'

interface Numbered {
  number: string
  name: string
  /** SAF-T: GroupingCategory/GroupingCode. */
  grouping?: string
}

interface StartingChart {
  title: string
  /** The first bank account's number, and the step to the next. */
  bank: { first: number; step: number; name: string; grouping?: string }
  transfer: Numbered
  opening: Numbered
  suspense: Numbered
  accounting: Record<Exclude<(typeof ACCOUNTING_CATEGORIES)[number], 'uncategorized'>, Numbered>
}

const n = (number: string, name: string, grouping?: string): Numbered => ({ number, name, grouping })

export const STARTING_CHARTS: Record<Chart, StartingChart> = {
  skr03: {
    title: 'SKR03 (DATEV Standardkontenrahmen 03)',
    bank: { first: 1200, step: 10, name: 'Bank' },
    transfer: n('1360', 'Geldtransit'),
    opening: n('9000', 'Saldenvorträge, Sachkonten'),
    suspense: n('1590', 'Durchlaufende Posten'),
    accounting: {
      revenue: n('8200', 'Erlöse'),
      other_income: n('2700', 'Sonstige Erträge'),
      cost_of_goods_sold: n('3200', 'Wareneingang'),
      operating_expenses: n('4900', 'Sonstige betriebliche Aufwendungen'),
      payroll: n('4120', 'Gehälter'),
      taxes: n('4340', 'Sonstige Steuern'),
      interest: n('2100', 'Zinsen und ähnliche Aufwendungen'),
      capital_expenditure: n('0490', 'Sonstige Betriebs- und Geschäftsausstattung'),
      loan: n('0650', 'Verbindlichkeiten gegenüber Kreditinstituten'),
      equity: n('0800', 'Gezeichnetes Kapital'),
      transfer: n('1360', 'Geldtransit'),
      other_expense: n('2300', 'Sonstige Aufwendungen'),
    },
  },
  skr04: {
    title: 'SKR04 (DATEV Standardkontenrahmen 04)',
    bank: { first: 1800, step: 10, name: 'Bank' },
    transfer: n('1460', 'Geldtransit'),
    opening: n('9000', 'Saldenvorträge, Sachkonten'),
    suspense: n('1370', 'Durchlaufende Posten'),
    accounting: {
      revenue: n('4200', 'Erlöse'),
      other_income: n('4830', 'Sonstige betriebliche Erträge'),
      cost_of_goods_sold: n('5200', 'Wareneingang'),
      operating_expenses: n('6300', 'Sonstige betriebliche Aufwendungen'),
      payroll: n('6020', 'Gehälter'),
      taxes: n('7650', 'Sonstige Steuern'),
      interest: n('7300', 'Zinsen und ähnliche Aufwendungen'),
      capital_expenditure: n('0690', 'Sonstige Betriebs- und Geschäftsausstattung'),
      loan: n('3150', 'Verbindlichkeiten gegenüber Kreditinstituten'),
      equity: n('2900', 'Gezeichnetes Kapital'),
      transfer: n('1460', 'Geldtransit'),
      other_expense: n('6850', 'Sonstiger Betriebsbedarf'),
    },
  },
  bas: {
    title: 'BAS (Sweden)',
    bank: { first: 1930, step: 1, name: 'Företagskonto' },
    transfer: n('1940', 'Övriga bankkonton'),
    opening: n('2091', 'Balanserad vinst eller förlust'),
    suspense: n('2999', 'OBS-konto'),
    accounting: {
      revenue: n('3000', 'Försäljning'),
      other_income: n('3990', 'Övriga ersättningar och intäkter'),
      cost_of_goods_sold: n('4000', 'Inköp av varor'),
      operating_expenses: n('6990', 'Övriga externa kostnader'),
      payroll: n('7210', 'Löner till tjänstemän'),
      taxes: n('8910', 'Skatt som belastar årets resultat'),
      interest: n('8410', 'Räntekostnader för långfristiga skulder'),
      capital_expenditure: n('1220', 'Inventarier och verktyg'),
      loan: n('2350', 'Andra långfristiga skulder till kreditinstitut'),
      equity: n('2010', 'Eget kapital'),
      transfer: n('1940', 'Övriga bankkonton'),
      other_expense: n('7990', 'Övriga rörelsekostnader'),
    },
  },
  'no-standard': {
    title: 'Norsk Standard Kontoplan (SAF-T standard accounts)',
    bank: { first: 1920, step: 1, name: 'Bankinnskudd', grouping: 'balanseverdiForOmloepsmiddel/1920' },
    transfer: n('1940', 'Overføringer mellom egne konti', 'balanseverdiForOmloepsmiddel/1920'),
    opening: n('2050', 'Annen egenkapital', 'egenkapital/2050'),
    suspense: n('2990', 'Annen kortsiktig gjeld', 'kortsiktigGjeld/2990'),
    accounting: {
      revenue: n('3000', 'Salgsinntekt', 'salgsinntekt/3000'),
      other_income: n('3900', 'Annen driftsinntekt', 'annenDriftsinntekt/3900'),
      cost_of_goods_sold: n('4300', 'Innkjøp av varer for videresalg', 'varekostnad/4005'),
      operating_expenses: n('7700', 'Annen kostnad', 'annenDriftskostnad/7700'),
      payroll: n('5000', 'Lønn til ansatte', 'loennskostnad/5000'),
      taxes: n('8300', 'Betalbar skatt', 'skattekostnad/8300'),
      interest: n('8150', 'Annen rentekostnad', 'finanskostnad/8150'),
      capital_expenditure: n('1280', 'Kontormaskiner', 'balanseverdiForAnleggsmiddel/1280'),
      loan: n('2220', 'Gjeld til kredittinstitusjoner', 'langsiktigGjeld/2220'),
      equity: n('2000', 'Aksjekapital', 'egenkapital/2000'),
      transfer: n('1940', 'Overføringer mellom egne konti', 'balanseverdiForOmloepsmiddel/1920'),
      other_expense: n('7790', 'Annen driftskostnad', 'annenDriftskostnad/7700'),
    },
  },
}

const q = (s: string) => JSON.stringify(s)

function entry(x: Numbered): string {
  const g = x.grouping?.split('/')
  const grouping = g ? `, grouping_category: ${q(g[0])}, grouping_code: ${q(g[1])}` : ''
  return `{ number: ${q(x.number)}, name: ${q(x.name)}${grouping} }`
}

/** The suggested map as YAML, with comments saying what to fill in. */
export function suggestMap(chart: Chart, banks: BankAccountInfo[], categories: Categories['categories']): string {
  const c = STARTING_CHARTS[chart]
  const lines = [
    `# A starting chart: ${c.title}. Read it, change what your accountant's chart says, then:`,
    '#   finctl export map set THIS-FILE',
    `chart: ${chart}`,
    'fiscal_year_start: "01-01"',
  ]
  if (chart === 'skr03' || chart === 'skr04')
    lines.push(
      '# DATEV needs your adviser and client numbers (Beraternummer, Mandantennummer):',
      '# datev: { adviser: 1001, client: 1, account_length: 4 }',
    )
  if (chart === 'bas') lines.push('# sie: { organization_number: "556677-8899" }')
  if (chart === 'no-standard')
    lines.push(
      '# SAF-T needs the company and a contact:',
      '# saft: { registration_number: "999999999", contact: { first_name: Ola, last_name: Nordmann, telephone: "12345678" } }',
    )
  lines.push('bank_accounts:')
  banks.forEach((b, i) => {
    const number = String(c.bank.first + i * c.bank.step).padStart(4, '0')
    lines.push(`  ${q(b.name)}: ${entry({ number, name: `${c.bank.name} ${b.name}`.slice(0, 256), grouping: c.bank.grouping })}`)
  })
  if (banks.length * c.bank.step > 10) lines.push('  # more bank accounts than the chart has bank numbers in a row: check those above')
  lines.push('accounting_categories:')
  for (const a of ACCOUNTING_CATEGORIES) lines.push(`  ${a}: ${entry(a === 'uncategorized' ? c.suspense : c.accounting[a])}`)
  lines.push('cash_flow_categories:', `  transfer: ${entry(c.transfer)}`)
  const loose = categories.filter((x) => x.accounting_category === null)
  if (loose.length) {
    // Commented out: the export refuses them, each named, until they have a number here or an accounting category.
    lines.push('# These categories have no accounting category: give each a number (or an accounting category in finctl).', '# categories:')
    for (const x of loose) lines.push(`#   ${q(x.name)}: NUMBER   # ${x.transaction_count} transactions`)
  }
  lines.push(
    `uncategorized_income: ${entry(c.suspense)}`,
    `uncategorized_expense: ${entry(c.suspense)}`,
    `opening_balances: ${entry(c.opening)}`,
  )
  return `${lines.join('\n')}\n`
}

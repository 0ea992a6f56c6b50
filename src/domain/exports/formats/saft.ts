/**
 * Norwegian SAF-T Financial 1.30 (namespace urn:StandardAuditFile-Taxation-Financial:NO;
 * docs/exporting.md, "SAF-T"): the header with the company and its contact, the accounts with their
 * grouping category and code and their opening and closing balances, then the general ledger
 * entries (NumberOfEntries, TotalDebit = TotalCredit) with one transaction of two lines per finctl
 * transaction. Amounts are in the base currency; a line in another currency carries CurrencyCode,
 * CurrencyAmount and ExchangeRate where the schema's digits hold them (8 decimals of a rate, 2 of an
 * amount), and names the line where they do not. UTF-8; a text longer than its element is named and cut.
 */
import type { ExportTransaction } from '../schemas.js'
import type { AccountsMapFile } from '../accounts-map-schema.js'
import { currencyExponent } from '../../../kernel/currencies.js'
import { decimal, minorOf } from './amounts.js'
import type { ChartBalances } from './chart-balances.js'
import { type ChartAccount, type ChartMap, fiscalYear } from './chart.js'
import { unmappedRow, type Warn } from './datev.js'

export const SAFT_NAMESPACE = 'urn:StandardAuditFile-Taxation-Financial:NO'

export interface SaftHeader {
  company: string
  saft: NonNullable<AccountsMapFile['saft']>
  version: string
  from: string
  to: string
  currency: string
  now: Date
}

/** The characters XML 1.0 refuses: the controls but tab and line ends, U+FFFE and U+FFFF, lone surrogates. */
// biome-ignore lint/complexity/useRegexLiterals: a literal would hold the control characters the lint refuses
const NOT_XML = new RegExp(
  '[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\ufffe\\uffff]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]',
  'g',
)

/** Text as XML 1.0 takes it: the five characters escaped, controls (but tab and line ends) and lone surrogates left out. */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** A rate as SAF-T's ExchangeRate takes it (18 digits, 8 of them decimals), trailing zeros dropped; undefined when it does not fit. */
export function saftRate(rate: string): string | undefined {
  const m = /^(\d+)(?:\.(\d*?)0*)?$/.exec(rate)
  if (!m) return undefined
  const int = m[1].replace(/^0+(?=\d)/, '')
  const frac = m[2] ?? ''
  if (frac.length > 8 || int.length + frac.length > 18) return undefined
  return frac ? `${int}.${frac}` : int
}

/** An amount with at most 2 decimals (trailing zeros of a 3-decimal currency dropped); undefined when it has more. */
function twoDecimals(minor: number, currency: string): string | undefined {
  const text = decimal(Math.abs(minor), currency)
  if (currencyExponent(currency) <= 2) return text
  const trimmed = text.replace(/0+$/, '').replace(/\.$/, '')
  const frac = trimmed.split('.')[1] ?? ''
  return frac.length <= 2 ? trimmed : undefined
}

const el = (name: string, value: string) => `<${name}>${value}</${name}>`

export class SaftWriter {
  private line = 1

  constructor(
    private readonly chart: ChartMap,
    private readonly base: string,
    private readonly fiscalYearStart: string,
    private readonly warn: Warn,
  ) {}

  /** A text of at most `max` characters, escaped; a longer one is named and cut. */
  private text(value: string, max: number, what: string): string {
    const s = value.replace(/[\r\n\t\v\f\u2028\u2029]+/g, ' ')
    if ([...s].length <= max) return xmlText(s)
    const cut = [...s].slice(0, max).join('')
    this.warn(`line ${this.line} (${what}): ${[...s].length} characters, SAF-T takes ${max}: cut to "${cut}"`)
    return xmlText(cut)
  }

  private money(minor: bigint): string {
    const neg = minor < 0n
    return decimal(Number(neg ? -minor : minor), this.base)
  }

  private out(lines: string[]): string {
    this.line += lines.length
    return `${lines.join('\n')}\n`
  }

  header(h: SaftHeader, b: ChartBalances): string {
    const c = h.saft.contact
    const lines = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<AuditFile xmlns="${SAFT_NAMESPACE}">`,
      '  <Header>',
      `    ${el('AuditFileVersion', '1.30')}`,
      `    ${el('AuditFileCountry', 'NO')}`,
      `    ${el('AuditFileDateCreated', h.now.toISOString().slice(0, 10))}`,
      `    ${el('SoftwareCompanyName', 'finctl')}`,
      `    ${el('SoftwareID', 'finctl')}`,
      `    ${el('SoftwareVersion', xmlText(h.version.slice(0, 18)))}`,
      '    <Company>',
      `      ${el('RegistrationNumber', xmlText(h.saft.registration_number))}`,
      `      ${el('Name', this.text(h.company, 256, 'company name'))}`,
      '      <Contact>',
      `        <ContactPerson>${el('FirstName', xmlText(c.first_name))}${el('LastName', xmlText(c.last_name))}</ContactPerson>`,
      `        ${el('Telephone', xmlText(c.telephone))}`,
      ...(c.email ? [`        ${el('Email', xmlText(c.email))}`] : []),
      '      </Contact>',
      ...(h.saft.vat_number
        ? [
            `      <TaxRegistration>${el('TaxRegistrationNumber', xmlText(h.saft.vat_number))}${el('TaxAuthority', 'Skatteetaten')}</TaxRegistration>`,
          ]
        : []),
      '    </Company>',
      `    ${el('DefaultCurrencyCode', h.currency)}`,
      `    <SelectionCriteria>${el('SelectionStartDate', h.from)}${el('SelectionEndDate', h.to)}</SelectionCriteria>`,
      `    ${el('TaxAccountingBasis', 'A')}`,
      '  </Header>',
      '  <MasterFiles>',
      '    <GeneralLedgerAccounts>',
    ]
    let out = this.out(lines)
    for (const a of b.accounts) out += this.account(a.account, a.opening, a.opening + a.movement)
    out += this.out([
      '    </GeneralLedgerAccounts>',
      '  </MasterFiles>',
      '  <GeneralLedgerEntries>',
      `    ${el('NumberOfEntries', String(b.entries))}`,
      `    ${el('TotalDebit', this.money(b.debit))}`,
      `    ${el('TotalCredit', this.money(b.debit))}`,
      '    <Journal>',
      `      ${el('JournalID', 'GL')}`,
      `      ${el('Description', 'Bank transactions (finctl)')}`,
      `      ${el('Type', 'GL')}`,
    ])
    return out
  }

  private account(a: ChartAccount, opening: bigint, closing: bigint): string {
    const side = (what: 'Opening' | 'Closing', minor: bigint) => el(`${what}${minor < 0n ? 'Credit' : 'Debit'}Balance`, this.money(minor))
    const g = a.grouping
    return this.out([
      '      <Account>',
      `        ${el('AccountID', xmlText(a.number))}`,
      `        ${el('AccountDescription', this.text(a.name, 256, `account ${a.number}`))}`,
      `        ${el('GroupingCategory', xmlText(g?.category ?? ''))}`,
      `        ${el('GroupingCode', xmlText(g?.code ?? ''))}`,
      `        ${el('AccountType', 'GL')}`,
      `        ${side('Opening', opening)}`,
      `        ${side('Closing', closing)}`,
      '      </Account>',
    ])
  }

  /** The accounting period: the month of the fiscal year (1-12), and the year the fiscal year starts in. */
  private period(date: string): { period: number; year: number } {
    const fy = fiscalYear(date, this.fiscalYearStart).start
    const months = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7))
    const period = months(date) - months(fy) + (date.slice(8, 10) < fy.slice(8, 10) ? 0 : 1)
    return { period, year: Number(fy.slice(0, 4)) }
  }

  private entry(
    id: string,
    date: string,
    description: string,
    entered: string,
    lines: Array<{ account: string; minor: bigint; description: string; foreign?: ExportTransaction }>,
  ): string {
    const p = this.period(date)
    const out = [
      '      <Transaction>',
      `        ${el('TransactionID', xmlText(id))}`,
      `        ${el('Period', String(p.period))}`,
      `        ${el('PeriodYear', String(p.year))}`,
      `        ${el('TransactionDate', date)}`,
      `        ${el('Description', this.text(description, 256, `transaction ${id}`))}`,
      `        ${el('SystemEntryDate', entered)}`,
      `        ${el('GLPostingDate', date)}`,
    ]
    lines.forEach((l, i) => {
      const side = l.minor > 0n ? 'DebitAmount' : l.minor < 0n ? 'CreditAmount' : 'DebitAmount'
      let amount = el('Amount', this.money(l.minor))
      const t = l.foreign
      if (t) {
        const original = twoDecimals(minorOf(t.amount, t.currency_code), t.currency_code)
        const rate = saftRate(t.exchange_rate_exact)
        if (original === undefined)
          this.warn(
            `line ${this.line + out.length} (transaction ${id}): ${t.amount} ${t.currency_code} has more decimals than SAF-T's 2: CurrencyAmount left out`,
          )
        else amount += el('CurrencyCode', t.currency_code) + el('CurrencyAmount', original)
        if (original !== undefined && rate !== undefined) amount += el('ExchangeRate', rate)
        else if (original !== undefined)
          this.warn(
            `line ${this.line + out.length} (transaction ${id}): the rate ${t.exchange_rate_exact} has more digits than SAF-T's ExchangeRate: left out`,
          )
      }
      out.push(
        '        <Line>',
        `          ${el('RecordID', String(i + 1))}${el('AccountID', xmlText(l.account))}`,
        `          ${el('Description', this.text(l.description, 256, `transaction ${id}`))}`,
        `          <${side}>${amount}</${side}>`,
        '        </Line>',
      )
    })
    out.push('      </Transaction>')
    return this.out(out)
  }

  opened(date: string, bankId: string, base: bigint): string {
    const bank = this.chart.bank(bankId)!
    const text = `Opening balance ${bank.name}`
    return this.entry(`opening-${bankId}`, date, text, date, [
      { account: bank.number, minor: base, description: text },
      { account: this.chart.opening!.number, minor: -base, description: text },
    ])
  }

  /** One transaction; '' for a void one. */
  transaction(t: ExportTransaction): string {
    if (t.status === 'void') return ''
    const bank = this.chart.bank(t.bank_account_id)
    const counter = this.chart.counter(t).account
    if (!bank || !counter) throw unmappedRow(t)
    const baseMinor = BigInt(minorOf(t.base_amount, this.base))
    const text = t.merchant_name ? `${t.merchant_name}: ${t.description}` : t.description
    const foreign = t.currency_code !== this.base && minorOf(t.amount, t.currency_code) !== 0 ? t : undefined
    return this.entry(t.id, t.transaction_date, text, t.created_at.slice(0, 10), [
      { account: bank.number, minor: baseMinor, description: text, foreign },
      { account: counter.number, minor: -baseMinor, description: text },
    ])
  }

  end(): string {
    return this.out(['    </Journal>', '  </GeneralLedgerEntries>', '</AuditFile>'])
  }
}

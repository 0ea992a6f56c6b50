/**
 * ledger, hledger and beancount journals, one finctl transaction at a time: its date, status,
 * payee (merchant), description, tags and id, the amount in its own currency on the bank's account,
 * and its base amount on the other side. A foreign amount carries its total cost (`@@`): the base
 * amount finctl booked, rounded once per transaction, so the tools' balances at cost are finctl's to
 * the cent (a unit price would make them multiply again, unrounded); the rate is in the metadata.
 * Accounts and commodities are declared where first used (`--strict`/`--pedantic` checks pass), so
 * the writer keeps only the sets of names, never the rows.
 */
import type { ExportTransaction, OpeningBalances } from '../schemas.js'
import { currencyExponent } from '../../../kernel/currencies.js'
import type { AccountsMap, BankAccountInfo } from './accounts-map.js'
import { decimal, minorOf } from './amounts.js'
import type { JournalFormat } from './format.js'

export interface JournalHeader {
  company: string
  base: string
  from: string
  to: string
  bankAccount?: string
}

/** One line of text: no line breaks or tabs, no runs of spaces (two spaces end a field in ledger). */
function oneLine(s: string): string {
  return s
    .replace(/[\r\n\t\v\f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
}

/** beancount's string literal. */
function quoted(s: string): string {
  return `"${oneLine(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

/** A tag as a word each tool takes: letters, digits, - _ . / (beancount's set, the narrowest). */
export function tagWord(tag: string): string {
  const w = tag
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9\-_./]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return w || 'tag'
}

interface Posting {
  account: string
  minor: number
  currency: string
  /** Total cost in the base currency (minor units, unsigned), for an amount in another currency. */
  costMinor?: number
}

export class JournalWriter {
  private readonly declared = new Set<string>()
  private readonly commodities = new Set<string>()
  /** ledger's metadata tags and tags (`--pedantic` wants each declared). */
  private readonly tags = new Set<string>()
  /** Accounts whose opening date is after the period's first day, by that date: their entries are still to write. */
  private readonly later: OpeningBalances['accounts'] = []

  constructor(
    readonly format: JournalFormat,
    private readonly map: AccountsMap,
    private readonly accounts: Map<string, BankAccountInfo>,
    private readonly base: string,
    private readonly from: string,
  ) {}

  header(h: JournalHeader): string {
    const lines = [
      `; finctl export of ${oneLine(h.company)}: ${h.from} to ${h.to}${h.bankAccount ? `, account ${oneLine(h.bankAccount)}` : ''}`,
      `; amounts in their own currency; @@ is the amount in ${h.base}, finctl's base currency`,
      '',
    ]
    if (this.format === 'beancount')
      lines.push(`option "title" ${quoted(`${h.company} ${h.from} to ${h.to}`)}`, `option "operating_currency" "${h.base}"`, '')
    return `${lines.join('\n')}\n`
  }

  /** Declarations of accounts, commodities and (ledger) tags not seen before, for the entry that follows. */
  private declare(postings: Posting[], tags: string[] = []): string {
    let out = ''
    if (this.format === 'ledger')
      for (const t of tags) {
        if (this.tags.has(t)) continue
        this.tags.add(t)
        out += `tag ${t}\n`
      }
    for (const p of postings) {
      for (const c of p.costMinor === undefined ? [p.currency] : [p.currency, this.base]) {
        if (this.commodities.has(c)) continue
        this.commodities.add(c)
        const sample = decimal(10 ** (currencyExponent(c) + 3), c)
        // hledger wants a decimal mark in a commodity directive, even with no decimals ("1000.").
        if (this.format === 'hledger') out += `commodity ${sample}${sample.includes('.') ? '' : '.'} ${c}\n`
        else if (this.format === 'ledger') out += `commodity ${c}\n    format ${sample} ${c}\n`
        else out += `${this.from} commodity ${c}\n`
      }
      if (this.declared.has(p.account)) continue
      this.declared.add(p.account)
      out += this.format === 'beancount' ? `${this.from} open ${p.account}\n` : `account ${p.account}\n`
    }
    return out ? `${out}\n` : ''
  }

  private posting(p: Posting): string {
    const amount = `${decimal(p.minor, p.currency)} ${p.currency}`
    const cost = p.costMinor === undefined ? '' : ` @@ ${decimal(p.costMinor, this.base)} ${this.base}`
    return `${this.format === 'beancount' ? '  ' : '    '}${p.account}  ${amount}${cost}\n`
  }

  /** The bank's side of an amount: with its total cost when not in the base currency. */
  private bankSide(account: string, minor: number, currency: string, baseMinor: number): Posting[] {
    if (currency === this.base) return [{ account, minor: baseMinor, currency }]
    // No unit left but a base value (gains and losses of rates netted out): the value in the base currency.
    if (minor === 0) return baseMinor === 0 ? [] : [{ account, minor: baseMinor, currency: this.base }]
    return [{ account, minor, currency, costMinor: Math.abs(baseMinor) }]
  }

  /**
   * The opening entry: each account's balance at the start of the period, against the
   * opening-balances account: its opening balance when it counts by then (its opening date on or
   * before `from`), and the transactions before `from` that count. An opening date later in the
   * period gets an entry of its own, at that date (`openedBy`).
   */
  opening(o: OpeningBalances): string {
    const postings: Posting[] = []
    for (const a of o.accounts) {
      const counts = a.opening_balance_date === null || a.opening_balance_date <= o.from
      if (!counts) this.later.push(a)
      postings.push(...this.bringing(a, counts, a.before))
    }
    this.later.sort((x, y) => (x.opening_balance_date! < y.opening_balance_date! ? -1 : 1))
    return this.entry(o.from, 'Opening balances', `balances before ${o.from}`, postings)
  }

  /**
   * The entries of the opening balances that count from a date on or before `date` not written yet:
   * each brings its account to its opening balance, taking back what it holds (the transactions
   * dated before it, written before such dates were refused).
   */
  openedBy(date: string): string {
    let out = ''
    while (this.later.length && this.later[0].opening_balance_date! <= date) {
      const a = this.later.shift()!
      const od = a.opening_balance_date!
      const undo = a.held.map((h) => ({ ...h, amount: -h.amount, base_amount: -h.base_amount }))
      out += this.entry(od, 'Opening balance', `${this.map.bank(a)} at the start of ${od}`, this.bringing(a, true, undo))
    }
    return out
  }

  /** An account moved by `movements` (and by its opening balance, with `withOpening`), against the opening-balances account. */
  private bringing(
    a: OpeningBalances['accounts'][number],
    withOpening: boolean,
    movements: OpeningBalances['accounts'][number]['before'],
  ): Posting[] {
    const equity = this.map.openingBalances
    const account = this.map.bank(a)
    const own = a.currency_code
    const postings: Posting[] = []
    const moves = movements.map((b) => ({
      currency: b.currency_code,
      minor: minorOf(b.amount, b.currency_code),
      base: minorOf(b.base_amount, this.base),
    }))
    if (withOpening) {
      const ownMinor = minorOf(a.opening_balance, own)
      if (a.opening_base === null) {
        // No rate for this opening balance (reports leave it out of the base balances too): in its own currency, at no cost.
        postings.push({ account, minor: ownMinor, currency: own }, { account: equity, minor: -ownMinor, currency: own })
      } else {
        const m = moves.find((x) => x.currency === own)
        if (m) {
          m.minor += ownMinor
          m.base += minorOf(a.opening_base, this.base)
        } else moves.push({ currency: own, minor: ownMinor, base: minorOf(a.opening_base, this.base) })
      }
    }
    for (const m of moves) {
      const side = this.bankSide(account, m.minor, m.currency, m.base)
      if (side.length) postings.push(...side, { account: equity, minor: -m.base, currency: this.base })
    }
    return postings
  }

  /** An entry against the opening-balances account; '' when nothing moves. */
  private entry(date: string, payee: string, note: string, postings: Posting[]): string {
    const kept = postings.filter((p) => p.minor !== 0)
    if (kept.length === 0) return ''
    const merged = this.mergeEquity(kept, this.map.openingBalances)
    const head = this.format === 'beancount' ? `${date} * "${payee}" "${note}"\n` : `${date} * ${payee} | ${note}\n`
    return `${this.declare(merged)}${head}${merged.map((p) => this.posting(p)).join('')}\n`
  }

  /** One posting to the equity account per currency. */
  private mergeEquity(postings: Posting[], equity: string): Posting[] {
    const sums = new Map<string, number>()
    const out: Posting[] = []
    for (const p of postings) {
      if (p.account !== equity) out.push(p)
      else sums.set(p.currency, (sums.get(p.currency) ?? 0) + p.minor)
    }
    for (const [currency, minor] of sums) if (minor !== 0) out.push({ account: equity, minor, currency })
    return out
  }

  /** A transaction as journal text; '' for a void one (it moved nothing). */
  transaction(t: ExportTransaction): string {
    const opened = this.openedBy(t.transaction_date)
    if (t.status === 'void') return opened
    const bank = this.accounts.get(t.bank_account_id)
    if (!bank) throw new Error(`transaction ${t.id}: its bank account ${t.bank_account_id} was not listed`)
    const baseMinor = minorOf(t.base_amount, this.base)
    const postings = [
      ...this.bankSide(this.map.bank(bank), minorOf(t.amount, t.currency_code), t.currency_code, baseMinor),
      { account: this.map.counter(t), minor: -baseMinor, currency: this.base },
    ]
    // An amount of 0 (accepted with --force) still gets its transaction, with postings of 0.
    if (postings.length === 1) postings.unshift({ account: this.map.bank(bank), minor: 0, currency: t.currency_code })
    const foreign = t.currency_code !== this.base
    const payee = t.merchant_name ? oneLine(t.merchant_name) : ''
    const description = oneLine(t.description)
    const tags = [...new Set(t.tags.map(tagWord))]
    let text: string
    if (this.format === 'beancount') {
      const flag = t.status === 'pending' ? '!' : '*'
      text = `${t.transaction_date} ${flag} ${payee ? `${quoted(payee)} ` : ''}${quoted(description)}${tags.map((g) => ` #${g}`).join('')}\n`
      text += `  finctl_id: "${t.id}"\n`
      if (foreign) text += `  rate: ${t.exchange_rate_exact}\n`
      if (t.is_reconciled) text += '  reconciled: TRUE\n'
    } else {
      const mark = t.status === 'pending' ? '! ' : t.is_reconciled ? '* ' : ''
      if (this.format === 'hledger') {
        // hledger ends a description at ";" and splits payee | note at the first "|".
        const clean = (s: string) => s.replace(/;/g, ',')
        const desc = payee ? `${clean(payee).replace(/\|/g, '/')} | ${clean(description)}` : clean(description).replace(/\|/g, '/')
        text = `${t.transaction_date} ${mark}(${t.id}) ${desc}\n`
        text += `    ; finctl_id: ${t.id}${foreign ? `, rate: ${t.exchange_rate_exact}` : ''}\n`
        if (tags.length) text += `    ; ${tags.map((g) => `${g}:`).join(', ')}\n`
      } else {
        text = `${t.transaction_date} ${mark}(${t.id}) ${payee || description}\n`
        text += `    ; finctl_id: ${t.id}\n`
        if (payee) text += `    ; description: ${description}\n`
        if (foreign) text += `    ; rate: ${t.exchange_rate_exact}\n`
        if (tags.length) text += `    ; :${tags.join(':')}:\n`
      }
    }
    const used = this.format === 'ledger' ? ['finctl_id', ...(payee ? ['description'] : []), ...(foreign ? ['rate'] : []), ...tags] : []
    return `${opened}${this.declare(postings, used)}${text}${postings.map((p) => this.posting(p)).join('')}\n`
  }
}

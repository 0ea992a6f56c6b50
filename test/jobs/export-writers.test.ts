/**
 * The export's writers, without a service: account names and the accounts map, the journals'
 * escaping, costs and rates, the opening entry, and the CSV's columns and formula guard. Where the
 * accounting tools are installed (CI installs them), the journals written here from hostile text
 * are read back by hledger, ledger and bean-check.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ExportTransaction, OpeningBalances } from '../../src/domain/exports/schemas.js'
import { AccountsMap, parseAccountsMap } from '../../src/domain/exports/formats/accounts-map.js'
import { csvHeader, csvRow } from '../../src/domain/exports/formats/csv.js'
import type { JournalFormat } from '../../src/domain/exports/formats/format.js'
import { JournalWriter, tagWord } from '../../src/domain/exports/formats/journal.js'
import { accountNameProblem, component } from '../../src/domain/exports/formats/names.js'

const BANK = { id: 'acc-1', name: 'Girokonto Müller & Söhne', account_type: 'checking' }
const CARD = { id: 'acc-2', name: 'Amex', account_type: 'credit_card' }
const accounts = new Map([BANK, CARD].map((a) => [a.id, a]))

function tx(over: Partial<ExportTransaction> = {}): ExportTransaction {
  return {
    id: '01a21220-0db6-7004-a57a-94c2e4f91877',
    transaction_date: '2026-03-05',
    posted_date: '2026-03-06',
    description: 'Office chairs',
    original_description: 'OFFICE CHAIRS',
    amount: -349.9,
    currency_code: 'USD',
    exchange_rate: 1,
    exchange_rate_exact: '1',
    exchange_rate_date: null,
    base_amount: -349.9,
    category: 'Furniture',
    accounting_category: 'operating_expenses',
    cash_flow_category: 'operations',
    merchant_name: 'IKEA',
    status: 'posted',
    is_reconciled: true,
    ai_confidence_score: null,
    tags: [],
    bank_account_id: BANK.id,
    bank_statement_id: null,
    created_at: '2026-03-05T10:00:00.000Z',
    updated_at: '2026-03-05T10:00:00.000Z',
    ...over,
  }
}

function writer(format: JournalFormat, map = new AccountsMap(format, {}, [BANK, CARD])) {
  return new JournalWriter(format, map, accounts, 'USD', '2026-01-01')
}

describe('account names', () => {
  it('makes a component every tool takes from any text', () => {
    expect(component('Office supplies & co.')).toBe('Office-Supplies-Co')
    expect(component('Müller Straße')).toBe('Muller-Strasse')
    expect(component('  ')).toBe('X')
    expect(component('2026 taxes')).toBe('2026-Taxes')
  })

  it("checks a mapped name by the format's own rules", () => {
    expect(accountNameProblem('Expenses:Office Supplies', 'hledger')).toBeUndefined()
    expect(accountNameProblem('Expenses:Office Supplies', 'beancount')).toMatch(/capital letter/)
    expect(accountNameProblem('expenses:food', 'beancount')).toMatch(/start with one of Assets/)
    expect(accountNameProblem('Assets', 'beancount')).toMatch(/component after the root/)
    expect(accountNameProblem('Expenses:Two  spaces', 'ledger')).toMatch(/two spaces/)
    expect(accountNameProblem('Expenses:a;b', 'hledger')).toMatch(/";"/)
    expect(accountNameProblem('(Expenses:Virtual)', 'ledger')).toMatch(/must not start with/)
    expect(accountNameProblem('Expenses::Food', 'ledger')).toMatch(/empty component/)
  })
})

describe('the accounts map', () => {
  const map = () => new AccountsMap('beancount', {}, [BANK, CARD])

  it('names bank accounts by type and categories under their accounting category', () => {
    const m = map()
    expect(m.bank(BANK)).toBe('Assets:Bank:Girokonto-Muller-Sohne')
    expect(m.bank(CARD)).toBe('Liabilities:Credit-Card:Amex')
    expect(m.counter(tx())).toBe('Expenses:Operating-Expenses:Furniture')
    expect(m.counter(tx({ category: null }))).toBe('Expenses:Operating-Expenses')
    expect(m.counter(tx({ category: null, accounting_category: null, amount: 5 }))).toBe('Income:Uncategorized')
    expect(m.counter(tx({ category: null, accounting_category: null, amount: -5 }))).toBe('Expenses:Uncategorized')
    expect(m.counter(tx({ accounting_category: null, amount: 20 }))).toBe('Income:Furniture')
    expect(m.counter(tx({ cash_flow_category: 'transfer' }))).toBe('Assets:Transfers')
  })

  it('never lets two categories share an account name', () => {
    const m = map()
    const a = m.counter(tx({ category: 'R&D' }))
    const b = m.counter(tx({ category: 'R D' }))
    expect(a).toBe('Expenses:Operating-Expenses:R-D')
    expect(b).toBe('Expenses:Operating-Expenses:R-D-2')
    expect(m.counter(tx({ category: 'R&D' }))).toBe(a)
  })

  it('takes a file over the defaults: cash-flow, then category, then accounting category', async () => {
    const file = await parseAccountsMap(
      'bank_accounts:\n  Amex: Liabilities:Cards:Amex-Gold\ncategories:\n  Furniture: Assets:Furniture\naccounting_categories:\n  payroll: Expenses:Staff\ncash_flow_categories:\n  financing: Equity:Financing\ncategory_subaccounts: false\n',
      'map.yaml',
    )
    const m = new AccountsMap('beancount', file, [BANK, CARD])
    expect(m.bank(CARD)).toBe('Liabilities:Cards:Amex-Gold')
    expect(m.counter(tx())).toBe('Assets:Furniture')
    expect(m.counter(tx({ category: 'Salaries', accounting_category: 'payroll' }))).toBe('Expenses:Staff')
    expect(m.counter(tx({ cash_flow_category: 'financing' }))).toBe('Equity:Financing')
  })

  it('refuses a file with names the format does not take, unknown accounts or unknown keys', async () => {
    const bad = await parseAccountsMap(
      JSON.stringify({ categories: { Food: 'expenses:food' }, bank_accounts: { Nope: 'Assets:Nope' } }),
      'map.json',
    )
    expect(() => new AccountsMap('beancount', bad, [BANK])).toThrow(
      /categories\.Food: "expenses:food" must start with one of.*bank_accounts\.Nope: is no bank account/,
    )
    expect(() => new AccountsMap('hledger', { categories: { Food: 'expenses:food' } }, [BANK])).not.toThrow()
    await expect(parseAccountsMap('{"categorys": {}}', 'm.json')).rejects.toThrow(/--accounts-map: m\.json: .*categorys/)
    await expect(parseAccountsMap('{nope', 'm.json')).rejects.toThrow(/not valid JSON/)
  })
})

describe('journal entries', () => {
  const hostile = tx({
    merchant_name: 'Café "Zürich" | Bar; \\ Co',
    description: '(refund) * line one\nline two;  with  spaces | pipe',
    tags: ['q review', 'project:apollo', 'Überstunden'],
    status: 'pending',
    is_reconciled: false,
  })

  it('hledger: payee | note, no ";" in the description, the id as code and tag', () => {
    const text = writer('hledger').transaction(hostile)
    expect(text).toContain(
      '2026-03-05 ! (01a21220-0db6-7004-a57a-94c2e4f91877) Café "Zürich" / Bar, \\ Co | (refund) * line one line two, with spaces | pipe\n',
    )
    expect(text).toContain('    ; finctl_id: 01a21220-0db6-7004-a57a-94c2e4f91877\n')
    expect(text).toContain('    ; q-review:, project-apollo:, Uberstunden:\n')
    expect(text).toContain('    Assets:Bank:Girokonto-Muller-Sohne  -349.90 USD\n    Expenses:Operating-Expenses:Furniture  349.90 USD\n')
  })

  it('ledger: the merchant as payee, the description and tags as metadata, declared first', () => {
    const text = writer('ledger').transaction(hostile)
    expect(text).toMatch(/^tag finctl_id\ntag description\ntag q-review\n/)
    expect(text).toContain('2026-03-05 ! (01a21220-0db6-7004-a57a-94c2e4f91877) Café "Zürich" | Bar; \\ Co\n')
    expect(text).toContain('    ; description: (refund) * line one line two; with spaces | pipe\n')
    expect(text).toContain('    ; :q-review:project-apollo:Uberstunden:\n')
  })

  it('beancount: quoted strings with escapes, tags as words, the id as metadata', () => {
    const text = writer('beancount').transaction(hostile)
    expect(text).toContain(
      '2026-03-05 ! "Café \\"Zürich\\" | Bar; \\\\ Co" "(refund) * line one line two; with spaces | pipe" #q-review #project-apollo #Uberstunden\n',
    )
    expect(text).toContain('  finctl_id: "01a21220-0db6-7004-a57a-94c2e4f91877"\n')
    expect(text).toContain('2026-01-01 open Assets:Bank:Girokonto-Muller-Sohne\n')
  })

  it('a foreign amount carries its base amount as total cost and the exact rate', () => {
    const eur = tx({ amount: -12.34, currency_code: 'EUR', exchange_rate: 1.0823, exchange_rate_exact: '1.0823', base_amount: -13.36 })
    for (const f of ['hledger', 'ledger', 'beancount'] as const) {
      const text = writer(f).transaction(eur)
      expect(text).toContain(`Assets:Bank:Girokonto-Muller-Sohne  -12.34 EUR @@ 13.36 USD\n`)
      expect(text).toContain(`Expenses:Operating-Expenses:Furniture  13.36 USD\n`)
      expect(text).toMatch(/rate: 1\.0823\b/)
    }
    const yen = tx({ amount: -1200, currency_code: 'JPY', exchange_rate_exact: '0.0067', base_amount: -8.04 })
    expect(writer('hledger').transaction(yen)).toContain('-1200 JPY @@ 8.04 USD')
    expect(writer('hledger').transaction(yen)).toContain('commodity 1000. JPY\n')
  })

  it('leaves a void transaction out, marks a reconciled one cleared', () => {
    expect(writer('hledger').transaction(tx({ status: 'void' }))).toBe('')
    expect(writer('hledger').transaction(tx())).toContain('2026-03-05 * (')
    expect(writer('hledger').transaction(tx({ is_reconciled: false }))).toContain('2026-03-05 (')
  })

  it('declares an account and a commodity once', () => {
    const w = writer('hledger')
    expect(w.transaction(tx())).toContain('account Expenses:Operating-Expenses:Furniture\n')
    expect(w.transaction(tx())).not.toContain('account ')
  })

  it('opens with the balances before the period, each currency at its base value', () => {
    const opening: OpeningBalances = {
      from: '2026-01-01',
      currency: 'USD',
      accounts: [
        {
          ...BANK,
          currency_code: 'USD',
          opening_balance: 1000,
          opening_base: 1000,
          opening_balance_date: null,
          before: [{ currency_code: 'USD', amount: -250.5, base_amount: -250.5 }],
          held: [],
        },
        {
          ...CARD,
          currency_code: 'EUR',
          opening_balance: 100,
          opening_base: null,
          opening_balance_date: '2025-06-01',
          before: [{ currency_code: 'EUR', amount: -40, base_amount: -43.2 }],
          held: [],
        },
      ],
    }
    const text = writer('hledger').opening(opening)
    expect(text).toContain('2026-01-01 * Opening balances | balances before 2026-01-01\n')
    expect(text).toContain('    Assets:Bank:Girokonto-Muller-Sohne  749.50 USD\n')
    // No rate for the card's opening balance: in euros, at no cost; its movements at their base value.
    expect(text).toContain('    Liabilities:Credit-Card:Amex  100.00 EUR\n')
    expect(text).toContain('    Liabilities:Credit-Card:Amex  -40.00 EUR @@ 43.20 USD\n')
    expect(text).toContain('    Equity:Opening-Balances  -100.00 EUR\n')
    expect(text).toContain('    Equity:Opening-Balances  -706.30 USD\n')
  })

  it('an opening date inside the period is an entry of its own at that date, before its transactions, taking back what it holds', () => {
    const w = writer('hledger')
    const head = w.opening({
      from: '2026-01-01',
      currency: 'USD',
      accounts: [
        {
          ...CARD,
          currency_code: 'EUR',
          opening_balance: 100,
          opening_base: 108,
          opening_balance_date: '2026-03-05',
          // Written before such dates were refused: one row in January, which the opening balance holds.
          before: [],
          held: [{ currency_code: 'EUR', amount: -4, base_amount: -4.4 }],
        },
      ],
    })
    // The opening balance does not count at the start of the period.
    expect(head).toBe('')
    const early = w.transaction(
      tx({ transaction_date: '2026-01-10', bank_account_id: CARD.id, amount: -4, currency_code: 'EUR', base_amount: -4.4 }),
    )
    expect(early).not.toContain('Opening balance')
    const on = w.transaction(tx({ transaction_date: '2026-03-05', bank_account_id: CARD.id }))
    const entry = on.indexOf('2026-03-05 * Opening balance | Liabilities:Credit-Card:Amex at the start of 2026-03-05\n')
    expect(entry).toBeGreaterThanOrEqual(0)
    expect(entry).toBeLessThan(on.indexOf('2026-03-05 * ('))
    // 100.00 EUR (108.00 USD) less the -4.00 EUR (-4.40 USD) it holds: the account stands at 100.00 EUR that morning.
    expect(on).toContain('    Liabilities:Credit-Card:Amex  104.00 EUR @@ 112.40 USD\n')
    expect(on).toContain('    Equity:Opening-Balances  -112.40 USD\n')
    expect(w.openedBy('2026-12-31')).toBe('')
  })

  it('an opening date after the last transaction is written by openedBy at the end, within the period only', () => {
    const w = writer('ledger')
    w.opening({
      from: '2026-01-01',
      currency: 'USD',
      accounts: [
        { ...BANK, currency_code: 'USD', opening_balance: 50, opening_base: 50, opening_balance_date: '2026-11-30', before: [], held: [] },
        { ...CARD, currency_code: 'USD', opening_balance: 7, opening_base: 7, opening_balance_date: '2027-01-01', before: [], held: [] },
      ],
    })
    const tail = w.openedBy('2026-12-31')
    expect(tail).toContain('2026-11-30 * Opening balance | Assets:Bank:Girokonto-Muller-Sohne at the start of 2026-11-30\n')
    expect(tail).not.toContain('Amex')
  })
})

describe('csv', () => {
  const ctx = { base: 'USD', accountName: (id: string) => (id === BANK.id ? BANK.name : '') }

  it("starts with tx list's columns, then every field", () => {
    expect(csvHeader()).toBe(
      'id,date,description,amount,currency,category,status,posted_date,merchant,accounting_category,cash_flow_category,exchange_rate,exchange_rate_date,base_amount,base_currency,reconciled,tags,bank_account,bank_account_id,bank_statement_id,original_description,ai_confidence_score,created_at,updated_at\r\n',
    )
  })

  it('writes amounts with their decimals, the exact rate, and guards formulas', () => {
    const row = csvRow(
      tx({
        description: '=HYPERLINK("http://x")',
        merchant_name: '+cmd|calc',
        amount: -1200,
        currency_code: 'JPY',
        exchange_rate_exact: '0.006712345678901234',
        base_amount: -8.05,
        tags: ['a', 'b'],
      }),
      ctx,
    )
    const fields = row.split(',')
    expect(fields[2]).toBe(`"'=HYPERLINK(""http://x"")"`)
    expect(row).toContain(',-1200,JPY,')
    expect(row).toContain(",'+cmd|calc,")
    expect(row).toContain(',0.006712345678901234,,-8.05,USD,true,"a,b",Girokonto Müller & Söhne,acc-1,')
    expect(row.endsWith('\r\n')).toBe(true)
  })
})

// ---- the tools themselves ------------------------------------------------------------------

// Without the tools their checks are skipped; under CI=true (which installs them) they fail instead.
const has = (cmd: string) => process.env.CI === 'true' || spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0
const TOOLS = { hledger: has('hledger'), ledger: has('ledger'), beancount: has('bean-check') }

describe('the accounting tools read hostile entries', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  const entries = [
    tx({ merchant_name: 'Café "Zürich" | Bar; \\ Co', description: '(refund) * one\ntwo;  three | four', tags: ['q review', 'a:b'] }),
    tx({
      id: '11111111-0db6-7004-a57a-94c2e4f91877',
      merchant_name: null,
      description: '! starts with a mark; and | a pipe',
      status: 'pending',
    }),
    tx({
      id: '22222222-0db6-7004-a57a-94c2e4f91877',
      amount: -12.34,
      currency_code: 'EUR',
      exchange_rate_exact: '1.0823',
      base_amount: -13.36,
      category: 'R&D',
    }),
    tx({
      id: '33333333-0db6-7004-a57a-94c2e4f91877',
      amount: 0.01,
      currency_code: 'EUR',
      exchange_rate_exact: '0.4',
      base_amount: 0,
      category: 'R D',
    }),
    tx({
      id: '44444444-0db6-7004-a57a-94c2e4f91877',
      amount: -1200,
      currency_code: 'JPY',
      exchange_rate_exact: '0.0067',
      base_amount: -8.04,
      bank_account_id: CARD.id,
    }),
    tx({ id: '55555555-0db6-7004-a57a-94c2e4f91877', status: 'void' }),
  ]

  function journal(format: JournalFormat): string {
    const w = writer(format)
    return (
      w.header({ company: 'Acme; "Inc"', base: 'USD', from: '2026-01-01', to: '2026-12-31' }) +
      w.opening({
        from: '2026-01-01',
        currency: 'USD',
        accounts: [
          { ...BANK, currency_code: 'USD', opening_balance: 10, opening_base: 10, opening_balance_date: null, before: [], held: [] },
          // An opening date inside the period: its entry comes among the transactions, at its date.
          {
            ...CARD,
            currency_code: 'EUR',
            opening_balance: 100,
            opening_base: 108,
            opening_balance_date: '2026-03-05',
            before: [],
            held: [{ currency_code: 'EUR', amount: -4, base_amount: -4.4 }],
          },
        ],
      }) +
      entries.map((t) => w.transaction(t)).join('') +
      w.openedBy('2026-12-31')
    )
  }

  function run(cmd: string, args: string[]): { status: number | null; out: string } {
    const r = spawnSync(cmd, args, { encoding: 'utf8' })
    return { status: r.status, out: `${r.stdout}${r.stderr}` }
  }

  it.skipIf(!TOOLS.hledger)('hledger check --strict, and the descriptions read back', () => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-export-'))
    const file = join(dir, 'x.journal')
    writeFileSync(file, journal('hledger'))
    expect(run('hledger', ['-f', file, 'check', '--strict'])).toEqual({ status: 0, out: '' })
    const csv = run('hledger', ['-f', file, 'print', '-O', 'csv']).out
    expect(csv).toContain('"Café ""Zürich"" / Bar, \\ Co | (refund) * one two, three | four"')
    expect(csv).toContain('"! starts with a mark, and / a pipe"')
  })

  it.skipIf(!TOOLS.ledger)('ledger --pedantic', () => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-export-'))
    const file = join(dir, 'x.ledger')
    writeFileSync(file, journal('ledger'))
    const r = run('ledger', ['-f', file, '--pedantic', 'reg', '--format', '%P\n'])
    expect(r.status, r.out).toBe(0)
    expect(r.out.split('\n')).toContain('Café "Zürich" | Bar; \\ Co')
  })

  it.skipIf(!TOOLS.beancount)('bean-check', () => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-export-'))
    const file = join(dir, 'x.beancount')
    writeFileSync(file, journal('beancount'))
    expect(run('bean-check', [file])).toEqual({ status: 0, out: '' })
  })
})

describe('tag words', () => {
  it('keep what every tool takes', () => {
    expect(tagWord('q review')).toBe('q-review')
    expect(tagWord('::')).toBe('tag')
    expect(tagWord('a.b/c_d')).toBe('a.b/c_d')
  })
})

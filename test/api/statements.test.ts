/**
 * Bank statements (docs/api.md section 5) through both transports on both stores: every real bank file
 * of the bank-file corpus (test/helpers/bank-files.ts) uploaded (on embedded + SQLite; a subset of
 * each format on the other combinations), against the counts, sums and balance checks of
 * SOURCES.md; duplicates, reconciliation, failures that write nothing, size and media-type limits,
 * other companies. The tests that upload real files are skipped when the corpus is missing.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { currencyExponent } from '../../src/kernel/currencies.js'
import { AppError } from '../../src/kernel/errors.js'
import { formatMinor, toMinor } from '../../src/kernel/money.js'
import type { Transaction } from '../../src/domain/schemas.js'
import type { Statement } from '../../src/domain/statements/schemas.js'
import { Client } from '../../src/client/client.js'
import { openEmbedded } from '../../src/embedded/embedded.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'
import { BOUNDARY, multipart } from '../helpers/multipart.js'
import { createHarness, MATRIX, startServeProcess, stopProcess, type Harness, type Tenant } from '../helpers/harness.js'

const fixture = (path: string) => readFileSync(bankFile(path))

interface Case {
  file: string
  currency: string
  /** The bank account's number (its last 4 characters choose among the accounts of a file). */
  accountNumber?: string
  /** Upload fields besides the file (CSV mapping, account_number, ...). */
  fields?: Record<string, string | string[] | boolean | number>
  /** Also run on the postgres / http combinations (a subset of each format keeps the file fast). */
  everywhere?: boolean
  want: { count: number; sum: string; check: Statement['balance_check']; period: [string, string]; dates: [string, string] }
}

// Figures from SOURCES.md. Periods are the statement's own (OFX DTSTART/DTEND, CAMT FrToDt, MT940
// and QIF from the lines); `dates` are the first and last transaction_date of the lines: the booking
// (entry) date, where SOURCES.md sometimes gives value dates (MT940 :61:).
// OFX gives a closing balance (LEDGERBAL) but no opening one, QIF and CSV none: `unavailable`.
const CASES: Case[] = [
  {
    file: 'ofx/us-checking-sgml-v102-indented.ofx',
    currency: 'USD',
    everywhere: true,
    want: { count: 3, sum: '-59.50', check: 'unavailable', period: ['2000-01-01', '2013-05-25'], dates: ['2011-03-31', '2011-04-07'] },
  },
  {
    file: 'ofx/ca-checking-sgml-v102-unclosed-tz.ofx',
    currency: 'CAD',
    want: { count: 3, sum: '-345.27', check: 'unavailable', period: ['2009-04-01', '2009-05-23'], dates: ['2009-04-01', '2009-04-03'] },
  },
  {
    file: 'ofx/au-suncorp-xml-v200-crlf-cdata.ofx',
    currency: 'AUD',
    want: { count: 1, sum: '-16.85', check: 'unavailable', period: ['2013-06-18', '2013-12-15'], dates: ['2013-12-15', '2013-12-15'] },
  },
  {
    file: 'ofx/au-anz-creditcard-xml-header-sgml-body.ofx',
    currency: 'AUD',
    want: { count: 1, sum: '-5.50', check: 'unavailable', period: ['2017-03-11', '2017-05-09'], dates: ['2017-05-08', '2017-05-08'] },
  },
  // Two accounts in the file: the checking account (…3456) is taken, the empty card statement left out.
  {
    file: 'ofx/us-checking-xml-v211.ofx',
    currency: 'USD',
    accountNumber: '123456',
    want: { count: 4, sum: '-360.00', check: 'unavailable', period: ['2013-08-01', '2013-08-31'], dates: ['2013-08-24', '2013-08-24'] },
  },
  {
    file: 'ofx/us-amex-creditcard-sgml-v102-single-line.ofx',
    currency: 'USD',
    want: { count: 12, sum: '-352.82', check: 'unavailable', period: ['2013-12-01', '2014-01-12'], dates: ['2013-12-01', '2013-12-16'] },
  },
  {
    file: 'qif/bank-mdy-short-year-thousands-comma.qif',
    currency: 'USD',
    everywhere: true,
    want: { count: 5, sum: '-1896.09', check: 'unavailable', period: ['2013-03-03', '2013-08-15'], dates: ['2013-03-03', '2013-08-15'] },
  },
  {
    file: 'qif/cash-dmy-splits-no-account-header.qif',
    currency: 'USD',
    want: { count: 3, sum: '-23.50', check: 'unavailable', period: ['2013-10-11', '2013-10-23'], dates: ['2013-10-11', '2013-10-23'] },
  },
  // The duplicate trap: the cash block is in the file twice; 3 transactions, not 6.
  {
    file: 'qif/multi-account-categories-splits-investment.qif',
    currency: 'USD',
    // Its investment account ("My Cc", !Type:Invst) is a statement of its own whose records no bank account takes: the cash one is chosen.
    fields: { account_number: 'My Cash' },
    want: { count: 3, sum: '-23.50', check: 'unavailable', period: ['2013-10-11', '2013-10-23'], dates: ['2013-10-11', '2013-10-23'] },
  },
  {
    file: 'camt053/ch-v04-one-entry-two-txdtls.xml',
    currency: 'CHF',
    everywhere: true,
    want: { count: 2, sum: '3483.00', check: 'ok', period: ['2017-03-22', '2017-03-23'], dates: ['2017-03-22', '2017-03-22'] },
  },
  {
    file: 'camt053/nl-abnamro-style-v02-batch-reversal-no-xmldecl.xml',
    currency: 'EUR',
    want: { count: 4, sum: '-12.99', check: 'mismatch', period: ['2014-01-05', '2014-01-05'], dates: ['2014-01-05', '2014-01-05'] },
  },
  // Two <Stmt> of one IBAN, merged: 18.15 + 8.85 - 7.00 = 20.00.
  {
    file: 'camt053/v02-two-statements-one-file.xml',
    currency: 'EUR',
    everywhere: true,
    want: { count: 2, sum: '1.85', check: 'ok', period: ['2007-10-18', '2014-12-31'], dates: ['2014-12-31', '2014-12-31'] },
  },
  // Nonsense balance lines (no closing balance in EUR): nothing to check.
  {
    file: 'camt053/v08-namespace-minimal.xml',
    currency: 'EUR',
    want: { count: 1, sum: '8.85', check: 'unavailable', period: ['2007-10-18', '2014-12-31'], dates: ['2014-12-31', '2014-12-31'] },
  },
  // Two :28C: pages of one account, merged; the source does not reconcile.
  {
    file: 'mt940/nl-abnamro-two-statements-swift-header.sta',
    currency: 'EUR',
    everywhere: true,
    want: { count: 10, sum: '-345.93', check: 'mismatch', period: ['2011-05-22', '2011-05-24'], dates: ['2011-05-23', '2011-05-24'] },
  },
  {
    file: 'mt940/nl-ing-legacy-86-multiline.sta',
    currency: 'EUR',
    want: { count: 7, sum: '-45.59', check: 'mismatch', period: ['2010-07-22', '2010-07-23'], dates: ['2010-07-22', '2010-07-23'] },
  },
  // Four statements of two accounts: 1291.99.348 (three pages, 1 and 3 do not reconcile) and 1526.89.184 (reconciles).
  {
    file: 'mt940/nl-rabobank-zero-padded-amounts-4-statements.sta',
    currency: 'EUR',
    accountNumber: '129199348',
    want: { count: 3, sum: '-1494.79', check: 'mismatch', period: ['2011-05-27', '2011-07-21'], dates: ['2011-05-27', '2011-07-21'] },
  },
  {
    file: 'mt940/nl-rabobank-zero-padded-amounts-4-statements.sta',
    currency: 'EUR',
    accountNumber: '152689184',
    want: { count: 2, sum: '-94.30', check: 'ok', period: ['2012-08-28', '2012-08-29'], dates: ['2012-08-29', '2012-08-29'] },
  },
  // Two accounts that both end in 0888: account_number chooses (statement 1 reconciles, statement 2 is off by 300.08).
  {
    file: 'mt940/de-sepa-86-structured-subfields.sta',
    currency: 'EUR',
    accountNumber: '0194787400888',
    fields: { account_number: '0194787400888' },
    want: { count: 4, sum: '358593.91', check: 'ok', period: ['2007-09-03', '2007-09-04'], dates: ['2007-09-04', '2007-09-04'] },
  },
  {
    file: 'mt940/de-sepa-86-structured-subfields.sta',
    currency: 'EUR',
    accountNumber: '0194791600888',
    fields: { account_number: '50880050/0194791600888' },
    want: { count: 7, sum: '-2501917.30', check: 'mismatch', period: ['2007-09-03', '2007-09-04'], dates: ['2007-09-04', '2007-09-04'] },
  },
  {
    file: 'mt940/pl-mbank-soh-etx-control-chars.sta',
    currency: 'PLN',
    want: { count: 3, sum: '0.03', check: 'ok', period: ['2017-01-19', '2017-01-19'], dates: ['2017-01-19', '2017-01-19'] },
  },
  {
    file: 'csv/de-dab-bnp-bom-semicolon-decimal-comma.csv',
    currency: 'EUR',
    everywhere: true,
    want: { count: 7, sum: '10053.90', check: 'unavailable', period: ['2013-09-17', '2013-10-01'], dates: ['2013-09-17', '2013-10-01'] },
  },
  {
    file: 'csv/de-dkb-creditcard-latin1-preamble-lines.csv',
    currency: 'EUR',
    want: { count: 7, sum: '-184.70', check: 'unavailable', period: ['2012-02-22', '2013-02-02'], dates: ['2012-02-22', '2013-02-02'] },
  },
  {
    file: 'csv/de-gls-latin1-semicolon-no-final-newline.csv',
    currency: 'EUR',
    want: { count: 1, sum: '-98.76', check: 'unavailable', period: ['2017-10-10', '2017-10-10'], dates: ['2017-10-10', '2017-10-10'] },
  },
  {
    file: 'csv/ch-ubs-fr-semicolon-debit-credit-apostrophe-thousands.csv',
    currency: 'CHF',
    fields: { map: ['description=Description 1'] },
    // Its balance column follows every line: the statement's opening and closing balances, checked.
    want: { count: 3, sum: '30.00', check: 'ok', period: ['2019-02-28', '2019-04-27'], dates: ['2019-02-28', '2019-04-27'] },
  },
  {
    file: 'csv/us-schwab-checking-quoted-dollar-withdrawal-deposit.csv',
    currency: 'USD',
    everywhere: true,
    want: { count: 4, sum: '-215.27', check: 'ok', period: ['2022-08-04', '2022-08-17'], dates: ['2022-08-04', '2022-08-17'] },
  },
  {
    file: 'csv/us-capitalone-card-debit-credit-columns.csv',
    currency: 'USD',
    want: { count: 2, sum: '0.00', check: 'unavailable', period: ['2015-12-31', '2015-12-31'], dates: ['2015-12-31', '2015-12-31'] },
  },
  // The file does not say the direction: imported as written (positive).
  {
    file: 'csv/tz-creditunion-cr-only-line-endings-unicode.csv',
    currency: 'USD',
    want: { count: 8, sum: '465000.00', check: 'unavailable', period: ['2015-02-08', '2015-03-25'], dates: ['2015-02-08', '2015-03-25'] },
  },
  {
    file: 'csv/es-ing-crlf-ddmmyyyy-signed.csv',
    currency: 'EUR',
    want: { count: 10, sum: '350.21', check: 'unavailable', period: ['2022-03-24', '2022-12-31'], dates: ['2022-03-24', '2022-12-31'] },
  },
  {
    file: 'csv/us-chase-style-checking-signed-balance.csv',
    currency: 'USD',
    want: { count: 6, sum: '-1490.16', check: 'ok', period: ['2016-03-04', '2016-03-18'], dates: ['2016-03-04', '2016-03-18'] },
  },
  {
    file: 'csv/fr-sample-cp1252-euro-no-final-newline.csv',
    currency: 'EUR',
    want: { count: 3, sum: '20.00', check: 'unavailable', period: ['2012-03-22', '2012-03-24'], dates: ['2012-03-22', '2012-03-24'] },
  },
  {
    file: 'csv/fr-sample-utf8-same-data.csv',
    currency: 'EUR',
    want: { count: 3, sum: '20.00', check: 'unavailable', period: ['2012-03-22', '2012-03-24'], dates: ['2012-03-22', '2012-03-24'] },
  },
  {
    file: 'csv/fr-sample-iso8859-1-same-data-lossy.csv',
    currency: 'EUR',
    want: { count: 3, sum: '20.00', check: 'unavailable', period: ['2012-03-22', '2012-03-24'], dates: ['2012-03-22', '2012-03-24'] },
  },
  {
    file: 'csv/fr-style-metadata-header-footer-debit-credit-decimal-comma.csv',
    currency: 'EUR',
    fields: { date_format: 'DD/MM/YY' },
    want: { count: 4, sum: '1069.32', check: 'unavailable', period: ['2020-04-01', '2020-04-02'], dates: ['2020-04-01', '2020-04-02'] },
  },
  {
    file: 'csv/odoo-amount-with-dc-indicator-column.csv',
    currency: 'USD',
    want: { count: 2, sum: '1500.00', check: 'unavailable', period: ['2018-12-15', '2018-12-15'], dates: ['2018-12-15', '2018-12-15'] },
  },
  {
    file: 'csv/lt-danske-cp1257-crlf-multiline-quoted.csv',
    currency: 'EUR',
    fields: { encoding: 'windows-1257', map: ['amount=-2', 'description=-6', 'description=-5'] },
    want: { count: 4, sum: '0.00', check: 'unavailable', period: ['2012-03-01', '2012-03-07'], dates: ['2012-03-01', '2012-03-07'] },
  },
  {
    file: 'csv/lt-swedbank-dk-indicator-unescaped-quotes.csv',
    currency: 'LTL',
    fields: { where: ['2=20'], map: ['description=Paaiškinimai'] },
    want: { count: 5, sum: '1058.46', check: 'unavailable', period: ['2012-01-02', '2012-02-29'], dates: ['2012-01-02', '2012-02-29'] },
  },
]

async function rejects(p: Promise<unknown>, code: string, status: number): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect({ code: (e as AppError).code, status: (e as AppError).status }).toEqual({ code, status })
  return e as AppError
}

/** An MT940 statement of `n` lines that reconciles (100,000.00 opening, debits of 0.01 to 9.97). */
function bigMt940(n: number): Buffer {
  const lines: string[] = [':20:BIG\n:25:NL91ABNA0417164300\n:28C:1/1\n:60F:C240101EUR100000,00\n']
  let total = 0
  for (let i = 1; i <= n; i++) {
    const cents = (i % 997) + 1
    total += cents
    lines.push(
      `:61:2401${String((i % 28) + 1).padStart(2, '0')}D${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}NTRFNONREF//B${String(i).padStart(8, '0')}\n:86:Card payment ${i} at a shop in a town with a long name for realistic line lengths padding padding padding\n`,
    )
  }
  lines.push(`:62F:C240131EUR${formatMinor(10_000_000 - total, 2).replace('.', ',')}\n-\n`)
  return Buffer.from(lines.join(''))
}

const minorSum = (txs: Transaction[], currency: string) =>
  formatMinor(
    txs.reduce((s, t) => s + toMinor(t.amount, currency), 0),
    currencyExponent(currency),
  )

describe.each(MATRIX)('statements over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let b: Tenant
  let c: Client
  let accounts = 0
  const full = kind === 'embedded' && storeKind === 'sqlite'

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Acme')
    b = await h.tenant('Beta')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const account = async (currency = 'USD', accountNumber?: string) =>
    (
      await c.accounts.create({
        name: `Statement account ${++accounts}`,
        account_type: 'checking',
        currency_code: currency,
        account_number: accountNumber,
      })
    ).id

  /** POST /statements as JSON or multipart; the raw answer. */
  async function post(
    via: 'json' | 'form',
    accountId: string,
    name: string,
    bytes: Uint8Array,
    fields: Record<string, unknown> = {},
    key = a.key,
  ) {
    let init: RequestInit
    if (via === 'json') {
      init = {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({
          bank_account_id: accountId,
          file_name: name,
          content_base64: Buffer.from(bytes).toString('base64'),
          ...fields,
        }),
      }
    } else {
      const m = multipart({ bank_account_id: accountId, ...fields }, { name, bytes })
      init = { method: 'POST', headers: { 'x-api-key': key, 'content-type': m.type }, body: m.body }
    }
    const res = await h.fetch(`${h.baseUrl}/api-v1/statements`, init)
    return {
      status: res.status,
      body: (await res.json()) as {
        success: boolean
        data: Statement
        error: { code: string; message: string; details?: Array<{ path: string; message: string }> }
      },
    }
  }

  /** Upload and wait until processed. */
  async function upload(
    accountId: string,
    name: string,
    bytes: Uint8Array,
    fields: Record<string, unknown> = {},
    via: 'json' | 'form' = 'json',
  ): Promise<Statement> {
    const r = await post(via, accountId, name, bytes, fields)
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(['pending', 'processing']).toContain(r.body.data.status)
    return c.statements.wait(r.body.data.id)
  }

  const statementTxs = async (id: string) => (await c.statements.transactions(id, { limit: 1000 })).data

  describe.skipIf(!HAS_BANK_FILES)('real bank files (SOURCES.md)', () => {
    const cases = CASES.map(
      (k, i) => [`${k.file}${k.accountNumber ? ` (account …${k.accountNumber.slice(-4)})` : ''}`, k, i] as const,
    ).filter(([, k]) => full || k.everywhere)
    it.each(cases)('%s', async (_name, k, i) => {
      const acct = await account(k.currency, k.accountNumber)
      const fields = { ...(k.currency === 'USD' ? {} : { exchange_rate: '1.25' }), ...k.fields }
      const s = await upload(acct, k.file.split('/')[1], fixture(k.file), fields, i % 2 === 0 ? 'json' : 'form')
      expect(s.error).toBeNull()
      expect(s).toMatchObject({
        status: 'completed',
        bank_account_id: acct,
        line_count: k.want.count,
        transaction_count: k.want.count,
        duplicate_count: 0,
        matched_count: 0,
        balance_check: k.want.check,
        period_start: k.want.period[0],
        period_end: k.want.period[1],
        currency_code: k.currency,
      })
      expect(s.file_sha256).toMatch(/^[0-9a-f]{64}$/)
      const txs = await statementTxs(s.id)
      expect(txs).toHaveLength(k.want.count)
      expect(minorSum(txs, k.currency)).toBe(k.want.sum)
      const dates = txs.map((t) => t.transaction_date).sort()
      expect([dates[0], dates[dates.length - 1]]).toEqual(k.want.dates)
      for (const t of txs)
        expect(t).toMatchObject({
          bank_statement_id: s.id,
          bank_account_id: acct,
          status: 'posted',
          is_reconciled: false,
          currency_code: k.currency,
        })
      if (k.want.check !== 'unavailable') {
        const [open, close] = [toMinor(s.opening_balance!, k.currency), toMinor(s.closing_balance!, k.currency)]
        expect(open + toMinor(k.want.sum, k.currency) === close).toBe(k.want.check === 'ok')
      }
    })
  })

  it.skipIf(!HAS_BANK_FILES)('refuses the same file for the same account again (409 naming the first), in either media type', async () => {
    const acct = await account('PLN')
    const bytes = fixture('mt940/pl-mbank-soh-etx-control-chars.sta')
    const first = await upload(acct, 'mbank.sta', bytes, { exchange_rate: '0.25' })
    for (const via of ['json', 'form'] as const) {
      const again = await post(via, acct, 'renamed.txt', bytes, { exchange_rate: '0.25' })
      expect(again.status).toBe(409)
      expect(again.body.error.code).toBe('conflict')
      expect(again.body.error.message).toContain(first.id)
    }
    // The same file to another account is another statement.
    const other = await upload(await account('PLN'), 'mbank.sta', bytes, { exchange_rate: '0.25' })
    expect(other.status).toBe('completed')
    expect((await c.transactions.list({ bank_account_id: acct, limit: 1000 })).data).toHaveLength(3)
  })

  it('counts lines of an overlapping statement as duplicates and creates them once (bank ids and content)', async () => {
    // OFX with FITIDs: Jan 1-4, then Jan 3-6.
    const ofx = (days: number[]) =>
      Buffer.from(
        'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>99<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>' +
          days.map((d) => `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>2024010${d}<TRNAMT>-1${d}.00<FITID>F${d}<NAME>Shop ${d}</STMTTRN>`).join('') +
          '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n',
      )
    const acct = await account()
    const one = await upload(acct, 'jan-a.ofx', ofx([1, 2, 3, 4]))
    const two = await upload(acct, 'jan-b.ofx', ofx([3, 4, 5, 6]), {}, 'form')
    expect([one.transaction_count, one.duplicate_count]).toEqual([4, 0])
    expect(two).toMatchObject({ status: 'completed', line_count: 4, transaction_count: 2, duplicate_count: 2, matched_count: 0 })
    const all = (await c.transactions.list({ bank_account_id: acct, limit: 1000 })).data
    expect(all.map((t) => t.amount).sort((x, y) => x - y)).toEqual([-16, -15, -14, -13, -12, -11])
    expect((await statementTxs(two.id)).map((t) => t.amount).sort((x, y) => x - y)).toEqual([-16, -15])

    // CSV without ids: known by date, amount and description; two equal lines on one day stay two.
    const csv = (rows: string[]) => Buffer.from(`Date,Description,Amount\n${rows.join('\n')}\n`)
    const rows = [
      '2024-02-01,Coffee,-3.50',
      '2024-02-01,Coffee,-3.50',
      '2024-02-02,Rent,-900.00',
      '2024-02-03,Salary,2500.00',
      '2024-02-04,Books,-20.00',
    ]
    const acct2 = await account()
    const x = await upload(acct2, 'feb-a.csv', csv(rows.slice(0, 4)))
    const y = await upload(acct2, 'feb-b.csv', csv(rows))
    expect([x.transaction_count, x.duplicate_count]).toEqual([4, 0])
    expect(y).toMatchObject({ line_count: 5, transaction_count: 1, duplicate_count: 4 })
    const feb = (await c.transactions.list({ bank_account_id: acct2, limit: 1000 })).data
    expect(feb).toHaveLength(5)
    expect(feb.filter((t) => t.description === 'Coffee')).toHaveLength(2)
  })

  it.skipIf(!HAS_BANK_FILES)('reconciles transactions entered by hand instead of creating them again', async () => {
    const acct = await account('EUR')
    // ING lines: -25.03 and +3.68 on 2010-07-22/23.
    const manual = await Promise.all([
      c.transactions.create({
        bank_account_id: acct,
        transaction_date: '2010-07-20',
        description: 'Albert Heijn groceries',
        amount: '-25.03',
        exchange_rate: '1.25',
      }),
      c.transactions.create({
        bank_account_id: acct,
        transaction_date: '2010-07-25',
        description: 'Refund',
        amount: '3.68',
        exchange_rate: '1.25',
      }),
      // Same amount as a line but 6 days away: not a match.
      c.transactions.create({
        bank_account_id: acct,
        transaction_date: '2010-07-16',
        description: 'Something else',
        amount: '-3.03',
        exchange_rate: '1.25',
      }),
    ])
    const s = await upload(acct, 'ing.sta', fixture('mt940/nl-ing-legacy-86-multiline.sta'), { exchange_rate: '1.25' })
    expect(s).toMatchObject({ status: 'completed', line_count: 7, transaction_count: 7, matched_count: 2, duplicate_count: 0 })
    const linked = await statementTxs(s.id)
    expect(linked).toHaveLength(7)
    expect(minorSum(linked, 'EUR')).toBe('-45.59')
    const all = (await c.transactions.list({ bank_account_id: acct, limit: 1000 })).data
    expect(all).toHaveLength(8) // 5 created + 3 entered by hand
    for (const m of manual.slice(0, 2)) {
      const d = await c.transactions.get(m.id)
      expect(d).toMatchObject({
        is_reconciled: true,
        bank_statement_id: s.id,
        status: 'posted',
        description: m.description,
        statement: { id: s.id, file_name: 'ing.sta' },
      })
      expect(d.history.map((e) => e.action)).toEqual(['create', 'reconcile'])
      expect(d.history[1].changes).toMatchObject({
        is_reconciled: { before: false, after: true },
        bank_statement_id: { before: null, after: s.id },
      })
    }
    expect(await c.transactions.get(manual[2].id)).toMatchObject({ is_reconciled: false, bank_statement_id: null })
    const created = linked.find((t) => !manual.some((m) => m.id === t.id))!
    const { history } = await c.transactions.get(created.id)
    expect(history.map((e) => e.action)).toEqual(['statement_import'])
    expect(history[0].changes).toMatchObject({
      amount: { before: null, after: created.amount },
      bank_statement_id: { before: null, after: s.id },
      status: { before: null, after: 'posted' },
    })
  })

  it.skipIf(!HAS_BANK_FILES)('fails a malformed or truncated file with its reason, writing nothing', async () => {
    const acct = await account('CHF')
    const whole = fixture('camt053/ch-v04-one-entry-two-txdtls.xml')
    const cut = await upload(acct, 'cut.xml', whole.subarray(0, Math.floor(whole.length / 2)), { exchange_rate: '1.1' })
    expect(cut.status).toBe('failed')
    expect(cut.error).toMatch(/truncated|not well-formed/)
    expect(cut.error).toMatch(/line \d+/)
    expect(cut).toMatchObject({ transaction_count: 0, line_count: 0, balance_check: null })
    expect((await statementTxs(cut.id)).length).toBe(0)
    // A statement in another currency than the account's fails as a whole.
    const pln = await upload(acct, 'mbank.sta', fixture('mt940/pl-mbank-soh-etx-control-chars.sta'), { exchange_rate: '1.1' })
    expect(pln.status).toBe('failed')
    expect(pln.error).toMatch(/PLN.*CHF/)
    // A file of two accounts that both end like the account's: the error lists them.
    const sepa = await account('EUR', 'DE00 0000 0888')
    const amb = await upload(sepa, 'sepa.sta', fixture('mt940/de-sepa-86-structured-subfields.sta'), { exchange_rate: '1.1' })
    expect(amb.status).toBe('failed')
    expect(amb.error).toContain('50880050/0194787400888: 4 lines')
    expect(amb.error).toContain('50880050/0194791600888: 7 lines')
    expect(amb.error).toContain('account_number')
    // A CSV row the mapping cannot read fails the statement, naming the line.
    const bad = await upload(
      await account(),
      'bad.csv',
      Buffer.from('Date,Description,Amount\n2024-01-01,Tea,-1.00\n2024-01-02,Cake,abc\n'),
    )
    expect(bad.status).toBe('failed')
    expect(bad.error).toMatch(/line 3/)
    expect((await c.transactions.list({ bank_account_id: acct, limit: 10 })).data).toHaveLength(0)
    expect((await c.transactions.list({ bank_account_id: sepa, limit: 10 })).data).toHaveLength(0)
    // A failed statement does not hold its file: fixed options, same file, it goes through.
    const fixed = await upload(sepa, 'sepa.sta', fixture('mt940/de-sepa-86-structured-subfields.sta'), {
      exchange_rate: '1.1',
      account_number: '0194787400888',
    })
    expect(fixed).toMatchObject({ status: 'completed', transaction_count: 4, balance_check: 'ok' })
  })

  it('answers 413 for a file over 20 MiB (multipart and JSON), 415 for another media type, 400 for bad options', async () => {
    const acct = await account()
    const big = new Uint8Array(20 * 1024 * 1024 + 1).fill(0x41)
    for (const via of ['form', 'json'] as const) {
      const r = await post(via, acct, 'big.csv', big)
      expect(r.status, via).toBe(413)
      expect(r.body.error.code).toBe('payload_too_large')
      expect(r.body.error.message).toContain('20 MiB')
    }
    const text = await h.fetch(`${h.baseUrl}/api-v1/statements`, {
      method: 'POST',
      headers: { 'x-api-key': a.key, 'content-type': 'text/plain' },
      body: 'hello',
    })
    expect(text.status).toBe(415)
    expect(((await text.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type')
    const eur = await account('EUR')
    // Any EUR statement will do (hand-made, so that this test runs without the bank-file corpus).
    // No exchange_rate and no rates in the company's table: accepted, and failed by its first line, naming what to do.
    const noRate = await post('json', eur, 'x.sta', bigMt940(7))
    expect(noRate.status).toBe(201)
    const failed = await c.statements.wait(noRate.body.data.id)
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatch(/an exchange rate is required for EUR on \d{4}-\d{2}-\d{2}.*finctl rates import FILE.*`exchange_rate`/)
    const unknown = await post('form', acct, 'notes.txt', Buffer.from('hello world'))
    expect([unknown.status, unknown.body.error.details?.[0].path]).toEqual([400, 'format'])
    const badMap = await post('json', acct, 'x.csv', Buffer.from('a,b\n'), { map: ['colour=Amount'] })
    expect([badMap.status, badMap.body.error.details?.[0].path]).toEqual([400, 'map.0'])
    const noFile = await h.fetch(`${h.baseUrl}/api-v1/statements`, {
      method: 'POST',
      headers: { 'x-api-key': a.key, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="bank_account_id"\r\n\r\n${acct}\r\n--${BOUNDARY}--\r\n`,
    })
    expect(noFile.status).toBe(400)
    expect(((await noFile.json()) as { error: { details: Array<{ path: string }> } }).error.details.map((d) => d.path)).toContain('file')
    // Over the body limit itself (28 MiB): refused by the body guard, answered (not a reset connection).
    const huge = await post('form', acct, 'huge.csv', new Uint8Array(29 * 1024 * 1024))
    expect([huge.status, huge.body.error.code]).toEqual([413, 'payload_too_large'])
    expect(huge.body.error.message).toContain('28 MiB')
  })

  it.skipIf(!HAS_BANK_FILES)("keeps each company to itself: another company's account or statement is 404", async () => {
    const acct = await account()
    const s = await upload(acct, 'chase.csv', fixture('csv/us-chase-style-checking-signed-balance.csv'))
    const other = h.client({ apiKey: b.key })
    const r = await post('json', acct, 'chase.csv', fixture('csv/us-chase-style-checking-signed-balance.csv'), {}, b.key)
    expect([r.status, r.body.error.code, r.body.error.details?.[0].path]).toEqual([404, 'not_found', 'bank_account_id'])
    await rejects(other.statements.get(s.id), 'not_found', 404)
    await rejects(other.statements.transactions(s.id), 'not_found', 404)
    expect((await other.statements.list()).data.map((x) => x.id)).not.toContain(s.id)
    expect((await other.statements.list({ bank_account_id: acct })).data).toEqual([])
  })

  it.skipIf(!HAS_BANK_FILES)('lists statements newest first with filters and keyset pages; GETs need read, uploads write', async () => {
    const acct = await account()
    const made = [
      await upload(acct, 'a.qif', fixture('qif/bank-mdy-short-year-thousands-comma.qif')),
      await upload(acct, 'b.qif', fixture('qif/cash-dmy-splits-no-account-header.qif')),
      await upload(acct, 'c.sta', Buffer.from('this is not a statement\n'), { format: 'mt940' }),
    ]
    expect(made.map((s) => s.status)).toEqual(['completed', 'completed', 'failed'])
    const list = await c.statements.list({ bank_account_id: acct, include_total: true })
    expect(list.data.map((s) => s.id)).toEqual(made.map((s) => s.id).reverse())
    expect(list.pagination).toEqual({ limit: 50, next_cursor: null, has_more: false, total: 3 })
    expect((await c.statements.list({ bank_account_id: acct, status: 'failed' })).data.map((s) => s.id)).toEqual([made[2].id])
    const p1 = await c.statements.list({ bank_account_id: acct, limit: 2, include_total: true })
    expect(p1.pagination).toMatchObject({ has_more: true, total: 3 })
    const p2 = await c.statements.list({ bank_account_id: acct, limit: 2, cursor: p1.pagination!.next_cursor! })
    expect([...p1.data, ...p2.data].map((s) => s.id)).toEqual(list.data.map((s) => s.id))
    expect(await c.statements.get(made[0].id)).toEqual(made[0])
    await rejects(c.statements.get('no-such-statement'), 'not_found', 404)

    const token = a.token
    const readOnly = await h.client({ token }).keys.create({ name: 'ro', scopes: ['read'] })
    const txOnly = await h.client({ token }).keys.create({ name: 'tx', scopes: ['transactions'] })
    expect((await h.client({ apiKey: readOnly.key }).statements.get(made[0].id)).id).toBe(made[0].id)
    expect((await post('json', acct, 'd.qif', fixture('qif/cash-dmy-splits-no-account-header.qif'), {}, readOnly.key)).status).toBe(403)
    expect((await post('json', acct, 'd.qif', fixture('qif/cash-dmy-splits-no-account-header.qif'), {}, txOnly.key)).status).toBe(403)
    await rejects(h.client({ apiKey: txOnly.key }).statements.list(), 'forbidden', 403)
  })

  it('an account whose statements brought no transaction can be deleted with them; the OpenAPI document has the routes', async () => {
    const acct = await account()
    const failed = await upload(acct, 'x.sta', Buffer.from('not a statement\n'), { format: 'mt940' })
    expect(failed.status).toBe('failed')
    expect(await c.accounts.delete(acct)).toEqual({ id: acct, deleted: true })
    await rejects(c.statements.get(failed.id), 'not_found', 404)
    const doc = (await (await h.raw('GET', '/openapi.json')).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>
    }
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api-v1/statements',
        '/api-v1/statements/{id}',
        '/api-v1/statements/{id}/transactions',
        '/api-v1/statements/{id}/file',
      ]),
    )
    expect(Object.keys(doc.paths['/api-v1/statements'].post.requestBody!.content).sort()).toEqual([
      'application/json',
      'multipart/form-data',
    ])
  })

  it('processes a large file off the request path (a worker thread), exactly', async () => {
    // 6,000 lines, about 1.2 MiB: over the worker threshold.
    const n = 6000
    const bytes = bigMt940(n)
    expect(bytes.length).toBeGreaterThan(256 * 1024)
    const acct = await account('EUR')
    const r = await post('form', acct, 'big.sta', bytes, { exchange_rate: '1.1' })
    expect(r.status).toBe(201)
    // The upload is answered before the file is processed.
    expect(r.body.data.status).toBe('pending')
    const s = await c.statements.wait(r.body.data.id)
    expect(s).toMatchObject({ status: 'completed', line_count: n, transaction_count: n, balance_check: 'ok' })
    const page = await c.transactions.list({ bank_account_id: acct, limit: 1, include_total: true })
    expect(page.pagination?.total).toBe(n)
  })
})

describe('finctl serve stopping while a statement is processed', () => {
  let h: Harness
  let t: Tenant
  beforeAll(async () => {
    // The embedded harness sets up the SQLite file; `finctl serve` processes run on it too.
    h = await createHarness('embedded')
    t = await h.tenant()
  })
  afterAll(async () => {
    await h?.close()
  })

  const upload = (accountId: string, bytes: Buffer) => ({
    bank_account_id: accountId,
    file_name: 'big.sta',
    content_base64: bytes.toString('base64'),
    exchange_rate: '1.1',
  })

  async function uploadTo(url: string, accountId: string, bytes: Buffer): Promise<Statement> {
    const res = await fetch(`${url}/api-v1/statements`, {
      method: 'POST',
      headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        bank_account_id: accountId,
        file_name: 'big.sta',
        content_base64: bytes.toString('base64'),
        exchange_rate: '1.1',
      }),
    })
    expect(res.status).toBe(201)
    return ((await res.json()) as { data: Statement }).data
  }

  it('SIGTERM waits for the statement in flight: it is completed, not cut off', async () => {
    const c = h.client({ apiKey: t.key })
    const acct = (await c.accounts.create({ name: 'Drain', account_type: 'checking', currency_code: 'EUR' })).id
    const { url, child } = await startServeProcess(h.database)
    const s = await uploadTo(url, acct, bigMt940(8000))
    expect(await stopProcess(child, 'SIGTERM')).toBe(0)
    expect(await c.statements.get(s.id)).toMatchObject({ status: 'completed', transaction_count: 8000, balance_check: 'ok' })
  })

  it('a statement cut off by kill -9 is failed at once (its process, of this host, is gone), and its file may be uploaded again', async () => {
    const c = h.client({ apiKey: t.key })
    const acct = (await c.accounts.create({ name: 'Crash', account_type: 'checking', currency_code: 'EUR' })).id
    const bytes = bigMt940(8000)
    const { url, child } = await startServeProcess(h.database)
    const s = await uploadTo(url, acct, bytes)
    await stopProcess(child, 'SIGKILL')
    expect((await c.transactions.list({ bank_account_id: acct, limit: 1, include_total: true })).pagination?.total).toBe(0)
    const failed = await c.statements.get(s.id)
    expect(failed).toMatchObject({ status: 'failed', transaction_count: 0 })
    expect(failed.error).toMatch(/stopped before it finished.*upload the file again/)
    // Told downstream once: uploaded by the caller, failed by the reader that found it cut off.
    const told = (await c.events.list({ type: 'statement.uploaded,statement.failed', limit: 1000 })).data.filter(
      (e) => e.object_id === s.id,
    )
    expect(told.map((e) => [e.type, e.actor])).toEqual([
      ['statement.uploaded', `key:${t.keyId}`],
      ['statement.failed', 'system:housekeeping'],
    ])
    const again = await c.statements.wait((await c.statements.upload(upload(acct, bytes))).id)
    expect(again).toMatchObject({ status: 'completed', transaction_count: 8000 })
  })

  it("one cut off on another host holds its file until its heartbeat's lease runs out; then an upload settles it and goes in", async () => {
    const c = h.client({ apiKey: t.key })
    const acct = (await c.accounts.create({ name: 'Elsewhere', account_type: 'checking', currency_code: 'EUR' })).id
    const bytes = bigMt940(8000)
    const { url, child } = await startServeProcess(h.database)
    const s = await uploadTo(url, acct, bytes)
    await stopProcess(child, 'SIGKILL')
    // As if processed by a server on another machine: its process cannot be looked at from here.
    await h.store.db.updateTable('bank_statements').set({ worker: 'another-host/4242' }).where('id', '=', s.id).execute()
    expect(['pending', 'processing']).toContain((await c.statements.get(s.id)).status)
    const refused = await c.statements.upload(upload(acct, bytes)).catch((e: AppError) => e)
    expect(refused).toMatchObject({ code: 'conflict' })
    // Three minutes later (past STALE_AFTER_MS without a heartbeat) the same upload is taken, no read needed first.
    const later = await openEmbedded(h.database, { now: () => new Date(Date.now() + 3 * 60_000) })
    try {
      const c2 = new Client({ baseUrl: h.baseUrl, fetch: later.fetch, apiKey: t.key, maxRetries: 0 })
      const again = await c2.statements.wait((await c2.statements.upload(upload(acct, bytes))).id)
      expect(again).toMatchObject({ status: 'completed', transaction_count: 8000 })
      const first = await c2.statements.get(s.id)
      expect(first).toMatchObject({ status: 'failed', transaction_count: 0 })
      expect(first.error).toMatch(/stopped before it finished.*upload the file again/)
    } finally {
      await later.close()
    }
  })
})

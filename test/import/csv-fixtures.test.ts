/**
 * Every real bank CSV in csv/ of the bank-file corpus (test/helpers/bank-files.ts), read as
 * `finctl tx import` reads it, against the row count, amount sum and date range that SOURCES.md
 * gives (with the flags each needs). Skipped when the corpus is missing.
 */
import { describe, expect, it } from 'vitest'
import { ImportError, planImport, type CsvMapping } from '../../src/import/plan.js'
import { RowMapper } from '../../src/import/map-rows.js'
import { readRecords } from '../../src/import/read-rows.js'
import { formatMinor } from '../../src/kernel/money.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'

const DIR = bankFile('csv')

async function importFile(file: string, o: CsvMapping = {}, exponent = 2) {
  const plan = await planImport(`${DIR}/${file}`, o)
  const conv = new RowMapper(plan, { accountId: 'acct', currency: 'EUR' })
  const ok = []
  const bad = []
  for await (const rec of readRecords(`${DIR}/${file}`, plan.layout)) {
    const r = conv.map(rec)
    if (!r) continue
    if (r.ok) ok.push(r)
    else bad.push(r)
  }
  const dates = ok.map((r) => r.request.transaction_date).sort()
  return {
    plan,
    count: ok.length,
    rejected: bad,
    sum: formatMinor(
      ok.reduce((s, r) => s + r.minor, 0),
      exponent,
    ),
    from: dates[0],
    to: dates[dates.length - 1],
    rows: ok,
  }
}

const CASES: Array<[string, CsvMapping, { count: number; sum: string; from: string; to: string }]> = [
  ['de-dab-bnp-bom-semicolon-decimal-comma.csv', {}, { count: 7, sum: '10053.90', from: '2013-09-17', to: '2013-10-01' }],
  ['de-dkb-creditcard-latin1-preamble-lines.csv', {}, { count: 7, sum: '-184.70', from: '2012-02-22', to: '2013-02-02' }],
  ['de-gls-latin1-semicolon-no-final-newline.csv', {}, { count: 1, sum: '-98.76', from: '2017-10-10', to: '2017-10-10' }],
  [
    'ch-ubs-fr-semicolon-debit-credit-apostrophe-thousands.csv',
    { map: [['description', 'Description 1']] },
    { count: 3, sum: '30.00', from: '2019-02-28', to: '2019-04-27' },
  ],
  ['us-schwab-checking-quoted-dollar-withdrawal-deposit.csv', {}, { count: 4, sum: '-215.27', from: '2022-08-04', to: '2022-08-17' }],
  ['us-capitalone-card-debit-credit-columns.csv', {}, { count: 2, sum: '0.00', from: '2015-12-31', to: '2015-12-31' }],
  // The file does not say the direction: imported as written (positive), as csv2ofx does.
  ['tz-creditunion-cr-only-line-endings-unicode.csv', {}, { count: 8, sum: '465000.00', from: '2015-02-08', to: '2015-03-25' }],
  ['es-ing-crlf-ddmmyyyy-signed.csv', {}, { count: 10, sum: '350.21', from: '2022-03-24', to: '2022-12-31' }],
  ['us-chase-style-checking-signed-balance.csv', {}, { count: 6, sum: '-1490.16', from: '2016-03-04', to: '2016-03-18' }],
  ['fr-sample-cp1252-euro-no-final-newline.csv', {}, { count: 3, sum: '20.00', from: '2012-03-22', to: '2012-03-24' }],
  ['fr-sample-utf8-same-data.csv', {}, { count: 3, sum: '20.00', from: '2012-03-22', to: '2012-03-24' }],
  ['fr-sample-iso8859-1-same-data-lossy.csv', {}, { count: 3, sum: '20.00', from: '2012-03-22', to: '2012-03-24' }],
  [
    'fr-style-metadata-header-footer-debit-credit-decimal-comma.csv',
    { dateFormat: 'DD/MM/YY' },
    { count: 4, sum: '1069.32', from: '2020-04-01', to: '2020-04-02' },
  ],
  ['odoo-amount-with-dc-indicator-column.csv', {}, { count: 2, sum: '1500.00', from: '2018-12-15', to: '2018-12-15' }],
  [
    'lt-danske-cp1257-crlf-multiline-quoted.csv',
    {
      encoding: 'windows-1257',
      map: [
        ['amount', '-2'],
        ['description', '-6'],
        ['description', '-5'],
      ],
    },
    { count: 4, sum: '0.00', from: '2012-03-01', to: '2012-03-07' },
  ],
  [
    'lt-swedbank-dk-indicator-unescaped-quotes.csv',
    { where: [['2', '20']], map: [['description', 'Paaiškinimai']] },
    { count: 5, sum: '1058.46', from: '2012-01-02', to: '2012-02-29' },
  ],
]

describe.skipIf(!HAS_BANK_FILES)('real bank CSV files', () => {
  it.each(CASES)('%s', async (file, opts, want) => {
    const r = await importFile(file, opts)
    expect(r.rejected.map((x) => `${x.line}: ${x.reason}`)).toEqual([])
    expect({ count: r.count, sum: r.sum, from: r.from, to: r.to }).toEqual(want)
  })

  it('decodes cp1252, UTF-8 and ISO-8859-1 versions of one file to the same rows (but the lossy characters)', async () => {
    const cp = await importFile('fr-sample-cp1252-euro-no-final-newline.csv')
    const utf = await importFile('fr-sample-utf8-same-data.csv')
    expect(cp.plan.layout.encoding.encoding).toBe('windows-1252')
    expect(utf.plan.layout.encoding.encoding).toBe('utf-8')
    expect(cp.rows.map((r) => r.request.description)).toEqual(utf.rows.map((r) => r.request.description))
    expect(cp.rows.some((r) => r.request.description.includes('€'))).toBe(true)
  })

  it('refuses to guess ambiguous dates and names the flag to give', async () => {
    await expect(planImport(`${DIR}/fr-style-metadata-header-footer-debit-credit-decimal-comma.csv`)).rejects.toThrow(
      /--date-format DD.MM.YYYY or --date-format MM.DD.YYYY|--date-format/,
    )
    await expect(planImport(`${DIR}/fr-style-metadata-header-footer-debit-credit-decimal-comma.csv`)).rejects.toBeInstanceOf(ImportError)
  })

  it('reads 08/04/2022 in the ING file as 8 April (the other rows decide DD/MM)', async () => {
    const r = await importFile('es-ing-crlf-ddmmyyyy-signed.csv')
    expect(r.rows.map((x) => x.request.transaction_date)).toContain('2022-04-08')
    expect(r.rows.map((x) => x.request.transaction_date)).not.toContain('2022-08-04')
  })

  it('skips balance and footer lines without calling them rejects, and gives identical rows distinct identities', async () => {
    const r = await importFile('fr-style-metadata-header-footer-debit-credit-decimal-comma.csv', { dateFormat: 'DD/MM/YY' })
    expect(r.plan.headerLine).toBe(5)
    expect(r.plan.skipped.map((s) => s.line)).toEqual([10])
    const dkb = await importFile('de-dkb-creditcard-latin1-preamble-lines.csv')
    expect(new Set(dkb.rows.map((x) => x.request.import_ref)).size).toBe(7)
  })

  it('says when rows are ragged, and why a row of a ragged file was rejected', async () => {
    // Danske rows have 10 fields under a 12-field header: by header name the amount column is empty.
    const r = await importFile('lt-danske-cp1257-crlf-multiline-quoted.csv', { encoding: 'windows-1257' })
    expect(r.plan.notes).toContain(
      "ragged: all 4 rows have a number of fields other than the header's 12 (line 2 has 10); columns are matched by position from the left, --map FIELD=-N counts from the right end of each row",
    )
    expect(r.rejected.map((x) => `${x.line}: ${x.reason}`)).toEqual(
      [2, 4, 6, 7].map((l) => `${l}: amount is empty (the row has 10 fields, the header 12)`),
    )
    // A file whose rows all match the header gets no such note.
    const dkb = await importFile('de-dkb-creditcard-latin1-preamble-lines.csv')
    expect(dkb.plan.notes.some((n) => n.startsWith('ragged'))).toBe(false)
  })
})

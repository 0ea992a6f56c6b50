/**
 * Rows that carry a balance or a turnover instead of a movement: the three signals of
 * src/import/balance-rows.ts one by one, then through the CSV mapper on the hand-made fixtures of
 * test/fixtures/bank-files (each named after its trait) and the real Swedbank file of the corpus.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { balanceKind, RecordTypeFinder, RunningBalance } from '../../src/import/balance-rows.js'
import { planImport, type CsvMapping } from '../../src/import/plan.js'
import { RowMapper } from '../../src/import/map-rows.js'
import { readRecords } from '../../src/import/read-rows.js'
import { formatMinor } from '../../src/kernel/money.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'bank-files')

describe('balanceKind: a row that names itself a balance or a turnover', () => {
  it.each([
    ['Opening balance', 'opening balance'],
    ['OPENING BALANCE 30.04.2024', 'opening balance'],
    ['Likutis pradžiai', 'opening balance'],
    ['Likutis pabaigai', 'closing balance'],
    ['Apyvarta', 'turnover'],
    ['Anfangssaldo', 'opening balance'],
    ['Endsaldo EUR', 'closing balance'],
    ['Neuer Kontostand', 'closing balance'],
    ['Solde initial', 'opening balance'],
    ['Nouveau solde au 31/03/2024', 'closing balance'],
    ['Saldo inicial', 'opening balance'],
    ['Beginsaldo', 'opening balance'],
    ['Saldo początkowe', 'opening balance'],
    ['Sākuma atlikums', 'opening balance'],
    ['Lõppsaldo', 'closing balance'],
    ['Utgående saldo', 'closing balance'],
    ['Balance carried forward', 'closing balance'],
    ['Saldo', 'balance'],
    ['Saldo per 31.05.2024', 'balance'],
    ['Closing balance as of 31 May 2024 EUR', 'closing balance'],
    ['Umsatzsumme', 'turnover'],
    ['Käive', 'turnover'],
    ['Omsättning', 'turnover'],
    ['31.03.2024 Endsaldo', 'closing balance'],
    ['Inngående saldo', 'opening balance'],
    ['Ingående balans 2024-03-01', 'opening balance'],
    ['Saldo pr. 31.05.2024', 'balance'],
    ['Omsætning', 'turnover'],
    ['Zůstatek ke dni 31.05.2024', 'balance'],
    ['Počáteční zůstatek', 'opening balance'],
    ['Konečný zůstatek', 'closing balance'],
    ['Saldo końcowe', 'closing balance'],
    ['Входящий остаток', 'opening balance'],
    ['Остаток на 31.05.2024', 'balance'],
    ['Исходящее сальдо RUB', 'closing balance'],
    ['Залишок на кінець періоду', 'closing balance'],
    ['Вхідний залишок', 'opening balance'],
    ['Saldo contabilístico', 'balance'],
    ['Saldo contabilístico final EUR', 'closing balance'],
    ['Saldo contabile finale al 31/05/2024', 'closing balance'],
  ])('%s: %s', (text, kind) => {
    expect(balanceKind(text)).toBe(kind)
  })

  it.each([
    'Saldo Ausgleich Kreditkarte',
    'Balance transfer fee',
    'Payment of balance',
    'TOTAL',
    'Total Energies 1234',
    'Opening balance of the new savings account for the kids',
    'Stand 31.05.2024',
    'Grocery store',
    '',
  ])('a movement: %j', (text) => {
    expect(balanceKind(text)).toBeUndefined()
  })
})

describe('RecordTypeFinder: a column of record types', () => {
  const rows = (finder: RecordTypeFinder, list: Array<[string, boolean]>, column = 0) =>
    list.forEach(([code, named], i) => {
      const fields = ['', '', '']
      fields[column] = code
      finder.add(fields, i + 2, named)
    })

  it("an unnamed column of numeric codes, confirmed by the rows named by their text: the most common code is the movements'", () => {
    const f = new RecordTypeFinder(['', 'Date', 'Text'], new Set([1, 2]))
    rows(f, [
      ['10', true],
      ['20', false],
      ['20', false],
      ['82', false],
      ['86', true],
    ])
    expect(f.decide()).toEqual({ recordType: { column: 0, movement: '20', others: ['10', '82', '86'] }, lines: [{ line: 5, code: '82' }] })
  })

  it("unnamed: no row named by its text, letters instead of numbers, or a named row with the movements' code: no record type", () => {
    const none = new RecordTypeFinder(['', 'Date', 'Text'], new Set([1, 2]))
    rows(none, [
      ['20', false],
      ['20', false],
      ['82', false],
    ])
    expect(none.decide()).toBeUndefined()
    const letters = new RecordTypeFinder(['', 'Date', 'Text'], new Set([1, 2]))
    rows(letters, [
      ['BAL', true],
      ['POS', false],
      ['POS', false],
      ['ATM', false],
    ])
    expect(letters.decide()).toBeUndefined()
    const mixed = new RecordTypeFinder(['', 'Date', 'Text'], new Set([1, 2]))
    rows(mixed, [
      ['20', true],
      ['20', false],
      ['20', false],
      ['82', false],
    ])
    expect(mixed.decide()).toBeUndefined()
  })

  it('a column named a record type needs no text; a tie decides nothing; a mapped column is never one', () => {
    const named = new RecordTypeFinder(['Record type', 'Date', 'Text'], new Set([1, 2]))
    rows(
      named,
      [
        ['BAL', false],
        ['TXN', false],
        ['TXN', false],
        ['BAL', false],
      ].concat([['TXN', false]]) as Array<[string, boolean]>,
    )
    expect(named.decide()?.recordType).toEqual({ column: 0, movement: 'TXN', others: ['BAL'] })
    const tie = new RecordTypeFinder(['Record type', 'Date', 'Text'], new Set([1, 2]))
    rows(tie, [
      ['BAL', false],
      ['TXN', false],
    ])
    expect(tie.decide()).toBeUndefined()
    const mapped = new RecordTypeFinder(['', 'Date', 'Text'], new Set([0, 1, 2]))
    rows(mapped, [
      ['10', true],
      ['20', false],
      ['20', false],
    ])
    expect(mapped.decide()).toBeUndefined()
  })
})

describe('RunningBalance: a row equal to the balance so far', () => {
  it('after a balance row and two movements, a row equal to the balance plus them is a balance', () => {
    const r = new RunningBalance()
    r.balanceSeen('opening balance', 50_000)
    expect(r.balanceRow(120_000)).toBeUndefined()
    expect(r.balanceRow(-4_510)).toBeUndefined()
    expect(r.balanceRow(165_490)).toMatch(/^a balance: equals the balance row before it plus the 2 movements since$/)
    // and the next movements are summed from there
    expect(r.balanceRow(-490)).toBeUndefined()
    expect(r.balanceRow(1_000)).toBeUndefined()
    expect(r.balanceRow(166_000)).toMatch(/^a balance/)
  })

  it('never from zero, never after one movement, and a turnover row starts nothing', () => {
    const zero = new RunningBalance()
    for (const m of [-100, 200, 300]) expect(zero.balanceRow(m)).toBeUndefined()
    expect(zero.balanceRow(400)).toBeUndefined()
    const one = new RunningBalance()
    one.balanceSeen('opening balance', 1_000)
    expect(one.balanceRow(500)).toBeUndefined()
    expect(one.balanceRow(1_500)).toBeUndefined()
    const turnover = new RunningBalance()
    turnover.balanceSeen('turnover', 1_000)
    for (const m of [500, 500]) expect(turnover.balanceRow(m)).toBeUndefined()
    expect(turnover.balanceRow(1_000)).toBeUndefined()
  })
})

async function importFile(path: string, o: CsvMapping = {}) {
  const plan = await planImport(path, o)
  const conv = new RowMapper(plan, { accountId: 'acct', currency: 'EUR' })
  const ok: number[] = []
  for await (const rec of readRecords(path, plan.layout)) {
    const r = conv.map(rec)
    if (r?.ok) ok.push(r.minor)
    else if (r) throw new Error(r.reason)
  }
  return {
    plan,
    count: ok.length,
    sum: formatMinor(
      ok.reduce((s, m) => s + m, 0),
      2,
    ),
    skipped: conv.skipped,
  }
}

describe('through the CSV mapper', () => {
  const CASES: Array<[string, CsvMapping, { count: number; sum: string; skipped: number[]; planned: number }]> = [
    ['record-type-column-unnamed-turnover-text-unknown.csv', {}, { count: 3, sum: '1174.50', skipped: [2, 6, 7], planned: 3 }],
    ['record-type-column-named-no-balance-text.csv', {}, { count: 3, sum: '125.80', skipped: [2, 6], planned: 2 }],
    ['balance-and-turnover-rows-named-in-german.csv', {}, { count: 3, sum: '1530.00', skipped: [2, 6, 7], planned: 3 }],
    // the running sum is known only while converting: the plan does not count that row
    ['closing-row-equal-to-running-sum.csv', {}, { count: 3, sum: '1055.90', skipped: [2, 6], planned: 1 }],
    ['movement-equal-to-sum-before-it-kept.csv', {}, { count: 6, sum: '1.00', skipped: [], planned: 0 }],
  ]
  it.each(CASES)('%s', async (file, o, want) => {
    const r = await importFile(join(FIXTURES, file), o)
    expect({ count: r.count, sum: r.sum, skipped: r.skipped.map((s) => s.line) }).toEqual({
      count: want.count,
      sum: want.sum,
      skipped: want.skipped,
    })
    expect(r.plan.skipped).toHaveLength(want.planned)
    expect(r.plan.dataRows).toBe(want.count + want.skipped.length - want.planned)
  })

  it('--where chooses the rows alone: the balance rows it keeps are imported, and a column is named by its number or its header', async () => {
    const file = join(FIXTURES, 'record-type-column-named-no-balance-text.csv')
    expect(await importFile(file, { where: [['Record type', 'BAL']] })).toMatchObject({ count: 2, sum: '1125.80', skipped: [] })
    expect(await importFile(file, { where: [['1', 'TXN']], dateFormat: 'DD.MM.YYYY' })).toMatchObject({
      count: 3,
      sum: '125.80',
      skipped: [],
    })
    const german = await importFile(join(FIXTURES, 'balance-and-turnover-rows-named-in-german.csv'), {
      where: [['3', '1.000,00']],
      dateFormat: 'DD.MM.YYYY',
    })
    expect(german).toMatchObject({ count: 1, sum: '1000.00' })
    expect(german.plan.notes).toContain('--where chooses the rows: no balance or turnover row is skipped by itself')
  })

  it.skipIf(!HAS_BANK_FILES)(
    'the Swedbank file with only --map description=Paaiškinimai: its opening balance, two turnovers and closing balance are skipped',
    async () => {
      const r = await importFile(bankFile('csv', 'lt-swedbank-dk-indicator-unescaped-quotes.csv'), {
        map: [['description', 'Paaiškinimai']],
      })
      expect({ count: r.count, sum: r.sum, skipped: r.skipped.map((s) => s.line) }).toEqual({
        count: 5,
        sum: '1058.46',
        skipped: [2, 8, 9, 10],
      })
      expect(r.plan.notes).toContain(
        'record type in column 2: 20 is a movement; 10, 82, 86 are not (balances, turnovers): such rows are skipped',
      )
    },
  )
})

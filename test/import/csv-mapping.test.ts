/**
 * How a CSV's columns are mapped when the header alone does not tell: a
 * debit/credit indicator found by its header and values beside unsigned amounts, the plan's word
 * when amounts are unsigned and nothing says debit or credit, a date column found by its values, a
 * description never taken from a column with one value on every row, the plan line naming the
 * column of every field, and the plan's counts and date format as the file writes them. Hand-made
 * files of test/fixtures/bank-files/ and small inline files, read as `tx import` reads them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planImportBytes } from '../../src/import/plan.js'
import { readRecordsBytes } from '../../src/import/read-rows.js'
import { ImportError, planImport, type CsvMapping, type ImportPlan } from '../../src/import/plan.js'
import { rowsNote } from '../../src/import/plan-words.js'
import { readRecords, type CsvRecord } from '../../src/import/read-rows.js'
import { RowMapper } from '../../src/import/map-rows.js'
import { formatMinor } from '../../src/kernel/money.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'

const HAND_MADE = join(import.meta.dirname, '..', 'fixtures', 'bank-files')

async function convertAll(plan: ImportPlan, records: AsyncIterable<CsvRecord>) {
  const conv = new RowMapper(plan, { accountId: 'acct', currency: 'USD' })
  const rows = []
  for await (const rec of records) {
    const r = conv.map(rec)
    if (r?.ok) rows.push(r)
    else if (r) throw new Error(`line ${r.line}: ${r.reason}`)
  }
  return {
    plan,
    notes: plan.notes.join('\n'),
    rows,
    descriptions: rows.map((r) => r.request.description),
    sum: formatMinor(
      rows.reduce((s, r) => s + r.minor, 0),
      2,
    ),
  }
}

/** A hand-made file, planned and converted as `tx import` does. */
async function file(name: string, o: CsvMapping = {}) {
  const path = join(HAND_MADE, name)
  const plan = await planImport(path, o, true)
  return convertAll(plan, readRecords(path, plan.layout))
}

/** An inline file, through the same planning (as a statement upload reads it). */
async function text(csv: string, o: CsvMapping = {}) {
  const bytes = new TextEncoder().encode(csv)
  const plan = await planImportBytes(bytes, o)
  return convertAll(plan, readRecordsBytes(bytes, plan.layout))
}

/** A two-row file: 10.00 out and 4.00 in, unsigned, the direction in `column`. */
const twoRows = (column: string, debit: string, credit: string) =>
  `Date,Description,Amount,${column}\n2024-05-02,Shop,10.00,${debit}\n2024-05-03,Refund,4.00,${credit}\n`

describe('a debit/credit indicator beside unsigned amounts', () => {
  it('a personal-finance export: Transaction Type debit/credit gives each row its sign (-3,000.00, not +7,000.00)', async () => {
    const r = await file('unsigned-amounts-transaction-type-debit-credit.csv')
    expect(r.sum).toBe('-3000.00')
    expect(r.rows.map((x) => x.request.amount)).toEqual(['1500.00', '-3200.00', '-1250.00', '500.00', '-550.00'])
    expect(r.notes).toContain('indicator <- Transaction Type')
    expect(r.notes).toContain(
      'debit/credit indicator "Transaction Type": the amounts are unsigned, so it gives each row\'s sign: "debit" money out, "credit" money in',
    )
  })

  it.each([
    ['Transaction Type', 'debit', 'credit'],
    ['Type', 'DR', 'CR'],
    ['Type', 'Debit', 'Credit'],
    ['D/C', 'D', 'C'],
    ['Cr/Dr', 'DR', 'CR'],
    ['Debit/Credit', 'Debit', 'Credit'],
    ['Soll/Haben', 'S', 'H'],
    ['S/H', 'Soll', 'Haben'],
    ['Af Bij', 'Af', 'Bij'],
    ['Sens', 'Débit', 'Crédit'],
    ['Tipo', 'Cargo', 'Abono'],
    ['Debe/Haber', 'D', 'H'],
    ['D/K', 'D', 'K'],
    ['Kind', 'DBIT', 'CRDT'],
    // No header names a field: whole-word marks are enough.
    ['Flow', 'DEBIT', 'CREDIT'],
  ])('"%s" with %s / %s', async (column, debit, credit) => {
    const r = await text(twoRows(column, debit, credit))
    expect(r.sum).toBe('-6.00')
    expect(r.notes).toContain(`indicator <- ${column}`)
  })

  it('a type column of other kinds (POS, ATM) is no indicator: the plan says every row reads as money in', async () => {
    const r = await text(twoRows('Type', 'POS', 'ATM'))
    expect(r.sum).toBe('14.00')
    expect(r.notes).not.toContain('indicator <-')
    expect(r.notes).toContain(
      'amounts: all 2 amounts in "Amount" are unsigned and no column says debit or credit: every row reads as money in',
    )
  })

  it('single letters under a header of no field are the indicator only as a debit and credit pair on every row', async () => {
    const pair = await text(twoRows('Flag', 'D', 'C'))
    expect(pair.sum).toBe('-6.00')
    expect(pair.notes).toContain('indicator <- Flag')
    expect(pair.notes).toContain(
      'debit/credit indicator "Flag": the amounts are unsigned, so it gives each row\'s sign: "D" money out, "C" money in',
    )
    // A letter on one row only, or two letters of one side, could mean anything there.
    for (const [debit, credit] of [
      ['D', ''],
      ['D', 'S'],
      ['C', 'X'],
    ]) {
      const r = await text(twoRows('Flag', debit, credit))
      expect(r.sum).toBe('14.00')
      expect(r.notes).not.toContain('indicator <-')
      expect(r.notes).toContain('every row reads as money in')
    }
  })

  it('amounts with signs of their own keep them; the plan names the column of marks it did not take', async () => {
    const r = await text('Date,Description,Amount,Type\n2024-05-02,Shop,-10.00,DR\n2024-05-03,Refund,4.00,CR\n2024-05-04,Fee,-1.00,CR\n')
    expect(r.sum).toBe('-7.00')
    expect(r.notes).toContain(
      '"Type" holds debit/credit marks, but the amounts carry signs of their own, which are kept (--map indicator=Type takes the sign from it instead)',
    )
  })

  it('a file of unsigned amounts and no indicator says so; with --invert-sign, that every row reads as money out', async () => {
    const r = await file('unsigned-amounts-no-indicator.csv')
    expect(r.sum).toBe('39.60')
    expect(r.notes).toContain(
      'amounts: all 3 amounts in "Amount" are unsigned and no column says debit or credit: every row reads as money in (if some are money out',
    )
    const inverted = await file('unsigned-amounts-no-indicator.csv', { invertSign: true })
    expect(inverted.sum).toBe('-39.60')
    expect(inverted.notes).toContain('with --invert-sign every row reads as money out')
  })

  it('--indicator-debit finds the column holding its value; a value no column holds is refused, naming --map indicator', async () => {
    const csv = twoRows('Direction', 'Outgoing', 'Incoming')
    const r = await text(csv, { indicatorDebit: ['outgoing'] })
    expect(r.sum).toBe('-6.00')
    expect(r.notes).toContain('indicator <- Direction')
    await expect(text(csv, { indicatorDebit: ['Payment'] })).rejects.toThrow(
      '--indicator-debit: no column holds "payment": name the debit/credit column with --map indicator=Column',
    )
    await expect(text(csv, { indicatorDebit: ['Payment'] })).rejects.toBeInstanceOf(ImportError)
  })
})

describe('the date column found by its values', () => {
  it('a payments export whose date column is headed "created" (with a time) is read, and the plan says how', async () => {
    const r = await file('date-column-headed-created.csv')
    expect(r.rows.map((x) => x.request.transaction_date)).toEqual(['2024-03-01', '2024-03-02', '2024-03-04'])
    expect(r.notes).toContain('date <- created (its values are dates)')
  })

  it('a column of times, or of eight-digit numbers beside a dated column, is not taken', async () => {
    const r = await text('Ref,When,Time,Amount,Description\n20240115,15.01.2024,10:22:13,-1.00,A\n20240116,16.01.2024,11:02:10,-2.00,B\n')
    expect(r.notes).toContain('date <- When (its values are dates)')
    await expect(text('Time,Amount,Description\n10:22:13,-1.00,A\n11:02:10,-2.00,B\n')).rejects.toThrow(
      'cannot tell which column holds the date (--map date=Column)',
    )
  })
})

describe('the description', () => {
  it('a column with one value on every row is passed over for the numbered text columns, joined', async () => {
    const r = await file('constant-description-text-in-numbered-columns.csv')
    expect(r.descriptions).toEqual([
      'Paiement carte / Migros Lausanne',
      'Virement postal / ASSOCIATION DU QUARTIER / Rue du Lac 3, 1003 Lausanne',
      'Ordre e-banking / Loyer juin / Régie Dupont SA, 1005 Lausanne',
    ])
    expect(r.sum).toBe('-1745.20')
    expect(r.notes).toContain('description <- Description 1 + Description 2 + Description 3')
    expect(r.notes).toContain(
      'description: "Description" holds one value on every row ("Compte courant UBS"), so it is not the description',
    )
  })

  it('falls back to the merchant, then to the text column with the most values; keeps the column when nothing varies', async () => {
    const merchant = await text('Date,Description,Payee,Amount\n2024-05-02,Card,Shop A,-1.00\n2024-05-03,Card,Shop B,-2.00\n')
    expect(merchant.descriptions).toEqual(['Shop A', 'Shop B'])
    const other = await text(
      'Date,Description,Status,Details2,Amount\n2024-05-02,Card,Booked,Rent May,-1.00\n2024-05-03,Card,Booked,Power bill,-2.00\n',
    )
    expect(other.descriptions).toEqual(['Rent May', 'Power bill'])
    const same = await text('Date,Description,Amount\n2024-05-02,Card,-1.00\n2024-05-03,Card,-2.00\n')
    expect(same.descriptions).toEqual(['Card', 'Card'])
  })

  it('--map description wins over any of it', async () => {
    const r = await file('constant-description-text-in-numbered-columns.csv', { map: [['description', 'Description']] })
    expect(new Set(r.descriptions)).toEqual(new Set(['Compte courant UBS']))
    expect(r.notes).toContain('description <- Description (else ')
    expect(r.notes).not.toContain('so it is not the description')
  })

  it.skipIf(!HAS_BANK_FILES)('the real UBS export takes Description 1 + 2 + 3, not "Compte personnel UBS"', async () => {
    const path = bankFile('csv', 'ch-ubs-fr-semicolon-debit-credit-apostrophe-thousands.csv')
    const plan = await planImport(path)
    const r = await convertAll(plan, readRecords(path, plan.layout))
    expect(r.descriptions).not.toContain('Compte personnel UBS')
    expect(r.descriptions[1]).toBe('Virement postal / ASSOCIATION FOO-BAR / BVD DE QUELQUE-PART 1, 1201 GENEVE, CH')
    expect(r.sum).toBe('30.00')
  })
})

describe("the plan's words", () => {
  it('names the date format as the file writes it, and counts one row as one row', async () => {
    const r = await file('dates-dd-mm-yyyy-slashes-one-row.csv')
    expect(r.plan.dateFormat.name).toBe('DD/MM/YYYY')
    expect(r.plan.notes).toContain('dates DD/MM/YYYY (detected over 1 row)')
    expect(rowsNote(r.plan)).toBe('header on line 1; 1 transaction row')
    expect(r.notes).toContain('the one amount in "amount" is unsigned')
  })

  it('names the column taken for every field, in one line', async () => {
    const r = await file('unsigned-amounts-transaction-type-debit-credit.csv')
    expect(r.plan.notes[1]).toBe(
      'columns: date <- Date, amount <- Amount, indicator <- Transaction Type, description <- Description (else Original Description), category <- Category; change one with --map FIELD=Column',
    )
  })

  describe('a plan settled before the end of a file', () => {
    let dir: string
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'finctl-plan-'))
    })
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it('a small file is read whole even when nothing is left to decide (--decimal-comma): its counts are exact', async () => {
      const r = await file('lithuanian-windows-1257-no-bom.csv', { decimalComma: true })
      expect(r.plan.settledEarly).toBeUndefined()
      expect(rowsNote(r.plan)).toBe('header on line 1; 3 transaction rows')
    })

    it('a large one says it estimated, from at least the rows its dates were detected over', async () => {
      const path = join(dir, 'large.csv')
      const lines = ['Datum;Text;Betrag']
      for (let i = 0; i < 6000; i++) lines.push(`${String((i % 28) + 1).padStart(2, '0')}.01.2024;Row ${i};-${(i % 90) + 1},50`)
      writeFileSync(path, `${lines.join('\n')}\n`)
      const plan = await planImport(path, { decimalComma: true }, true)
      expect(plan.settledEarly).toBe(true)
      expect(plan.notes).toContain(
        'dates DD.MM.YYYY (detected over the first 2,000 rows, where no other format fits as many; every row is read with it)',
      )
      expect(plan.rowsRead).toBe(2000)
      expect(plan.dataRows).toBeGreaterThanOrEqual(plan.rowsRead)
      expect(rowsNote(plan)).toMatch(
        /^header on line 1; about [\d,]+ transaction rows \(estimated from the first 2,000 and the file's size\)$/,
      )
    })
  })
})

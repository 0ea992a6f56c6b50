/**
 * `original_description` is the bank's text verbatim (line breaks, runs of spaces, the text after a
 * line break); `description` is its tidied form. CSV (a quoted description spanning lines), MT940
 * (:86: continuation lines) and CAMT.053 (repeated Ustrd), on hand-made files of
 * test/fixtures/bank-files/ and on the real files of the bank-file corpus.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseUpload } from '../../src/domain/statements/parse.js'
import { planImport, type CsvMapping } from '../../src/import/plan.js'
import { RowMapper } from '../../src/import/map-rows.js'
import { readRecords } from '../../src/import/read-rows.js'
import { parseCamt053 } from '../../src/import/statements/camt.js'
import { parseMt940 } from '../../src/import/statements/mt940.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'

const HAND_MADE = join(import.meta.dirname, '..', 'fixtures', 'bank-files')
const bytes = (path: string) => new Uint8Array(readFileSync(path))

async function csvRequests(path: string, o: CsvMapping = {}) {
  const plan = await planImport(path, o)
  const conv = new RowMapper(plan, { accountId: 'acct', currency: 'EUR' })
  const out = []
  for await (const rec of readRecords(path, plan.layout)) {
    const r = conv.map(rec)
    if (r?.ok) out.push(r.request)
  }
  return out
}

describe('CSV: a quoted description that spans lines', () => {
  it('keeps its line breaks (CRLF written as \\n) and runs of spaces in original_description, tidied in description', async () => {
    const rows = await csvRequests(join(HAND_MADE, 'quoted-multiline-description.csv'))
    expect(rows.map((r) => [r.description, r.original_description])).toEqual([
      [
        'SEPA-Überweisung Miete Büro Januar 2026 Objekt Lindenstr. 12, 3. OG',
        'SEPA-Überweisung\nMiete Büro Januar 2026\nObjekt Lindenstr. 12, 3. OG',
      ],
      ['Kartenzahlung Bürobedarf Schmidt Filiale 12', 'Kartenzahlung  Bürobedarf Schmidt   Filiale 12'],
      // Nothing to keep: the service takes the description as the original.
      ['Gutschrift RE-2025-118', undefined],
    ])
  })

  it.skipIf(!HAS_BANK_FILES)('lt-danske-cp1257-crlf-multiline-quoted.csv: the embedded CRLF line breaks stay in the original', async () => {
    const rows = await csvRequests(bankFile('csv', 'lt-danske-cp1257-crlf-multiline-quoted.csv'), {
      encoding: 'windows-1257',
      map: [
        ['amount', '-2'],
        ['description', '-6'],
        ['description', '-5'],
      ],
    })
    const multiline = rows.filter((r) => r.original_description?.includes('\n'))
    expect(multiline).toHaveLength(2)
    for (const r of multiline) {
      expect(r.original_description).toContain('mokėjimo paskirtis:    .\nUžsienio')
      expect(r.original_description).not.toContain('\r')
      expect(r.description).toBe(r.original_description!.replace(/\s+/g, ' '))
    }
  })
})

describe('MT940: :86: continuation lines', () => {
  it('the memo is tidied, the raw memo keeps each line; an upload line gets both', async () => {
    const file = bytes(join(HAND_MADE, 'mt940-86-continuation-lines.sta'))
    const [first, second] = parseMt940(file, {}).statements[0].transactions
    expect(first.memo).toBe(
      'SEPA OVERBOEKING IBAN: NL20INGB0001234567 BIC: INGBNL2A NAAM: HUISVESTING BERG BV OMSCHRIJVING: HUUR KANTOOR JANUARI 2026 KENMERK: 2026-01',
    )
    expect(first.rawMemo).toBe(
      'SEPA OVERBOEKING\nIBAN: NL20INGB0001234567  BIC: INGBNL2A\nNAAM: HUISVESTING BERG BV\nOMSCHRIJVING: HUUR KANTOOR JANUARI 2026\nKENMERK: 2026-01',
    )
    expect(second.rawMemo).toBe('SEPA OVERBOEKING   IBAN: NL44RABO0123456789\nNAAM: MEIER HANDEL\nOMSCHRIJVING: FACTUUR RE-2025-118')
    const upload = await parseUpload(file, { fileName: 'x.sta', format: 'mt940', currency: 'EUR', exponent: 2 }, {})
    expect(upload.parts[0].lines.map((l) => [l.description, l.originalDescription])).toEqual([
      [first.memo, first.rawMemo],
      [second.memo, second.rawMemo],
    ])
  })

  it.skipIf(!HAS_BANK_FILES)('nl-ing-legacy-86-multiline.sta: the three lines of the first :86: stay three lines', () => {
    const [first] = parseMt940(bytes(bankFile('mt940', 'nl-ing-legacy-86-multiline.sta')), {}).statements[0].transactions
    expect(first.rawMemo).toBe(
      'RC AFREKENING BETALINGSVERKEER\nBETREFT REKENING 4715589 PERIODE: 01-10-2010 / 31-12-2010\nING Bank N.V. tarifering ING',
    )
    expect(first.memo).toBe(first.rawMemo!.replace(/\n/g, ' '))
  })

  it.skipIf(!HAS_BANK_FILES)(
    'de-sepa-86-structured-subfields.sta: structured purpose text runs on from subfield to subfield, as written',
    () => {
      const [first] = parseMt940(bytes(bankFile('mt940', 'de-sepa-86-structured-subfields.sta')), {}).statements[0].transactions
      expect(first.memo).toBe('EREF+EndToEndId TFNR 22 004 00001 SVWZ+Verw CTSc-01 BC-PPP TFNr 22 004')
      expect(first.rawMemo).toBe('EREF+EndToEndId TFNR 22 004 00001SVWZ+Verw CTSc-01 BC-PPP TFNr 22 004')
    },
  )
})

describe('CAMT.053: repeated Ustrd', () => {
  it('the memo joins them with spaces, the raw memo one per line with their spaces; the upload line puts the payee first in both', async () => {
    const file = bytes(join(HAND_MADE, 'camt053-ustrd-repeated-lines.xml'))
    const [rent, invoice] = parseCamt053(file, {}).statements[0].transactions
    expect(rent).toMatchObject({
      memo: 'Miete Buero Januar 2026 Objekt Lindenstr. 12, 3. OG Mieternr. 4711',
      rawMemo: 'Miete Buero Januar 2026\nObjekt Lindenstr. 12,  3. OG\nMieternr. 4711',
    })
    expect(invoice.memo).toBe('RE-2025-118')
    expect(invoice.rawMemo).toBeUndefined()
    const upload = await parseUpload(file, { fileName: 'x.xml', format: 'camt053', currency: 'EUR', exponent: 2 }, {})
    expect(upload.parts[0].lines.map((l) => [l.description, l.originalDescription])).toEqual([
      [
        'Hausverwaltung Berg GmbH / Miete Buero Januar 2026 Objekt Lindenstr. 12, 3. OG Mieternr. 4711',
        'Hausverwaltung Berg GmbH / Miete Buero Januar 2026\nObjekt Lindenstr. 12,  3. OG\nMieternr. 4711',
      ],
      ['Meier Handels GmbH / RE-2025-118', undefined],
    ])
  })
})

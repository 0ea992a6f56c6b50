/**
 * "Money fidelity" (the parser-level items), the CLI in process (test/helpers/in-process-cli.ts):
 * `tx import` of hand-made files shaped like real bank exports (test/fixtures/bank-files/, each
 * named after the trait it covers) and the real files of the bank-file corpus (read where they
 * are, never copied).
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bankFile, HAS_BANK_FILES } from '../../helpers/bank-files.js'
import { ROOT, tsv } from '../../helpers/cli.js'
import { fastKey, InProcessSandbox } from '../../helpers/in-process-cli.js'

const FIXTURES = join(ROOT, 'test', 'fixtures', 'bank-files')
const fixture = (name: string) => join(FIXTURES, name)

interface Summary {
  read: number
  created: number
  rejected: number
  reversals?: number
  amount_total: number
  rejects: Array<{ line: number; reason: string }>
}

describe('bank files imported as the bank meant them', () => {
  let sb: InProcessSandbox
  const account = (currency = 'USD') => sb.newAccount({ currency })
  const importJson = async (file: string, acct: string, ...flags: string[]) => {
    const r = await sb.run(['tx', 'import', file, '--account', acct, '--json', ...flags])
    expect(r.stderr).not.toMatch(/\n\s+at |internal error/)
    return { code: r.code, stderr: r.stderr, summary: r.stdout ? (JSON.parse(r.stdout) as Summary) : undefined }
  }

  beforeAll(async () => {
    sb = new InProcessSandbox('fidelity')
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    await fastKey(sb)
  })
  afterAll(() => sb?.cleanup())

  describe('debit and credit columns with reversals', () => {
    it('a reversed credit written 5,00- in the credit column is money out: the total is right, and --dry-run counts the reversal', async () => {
      const acct = await account('EUR')
      const file = fixture('debit-credit-reversal-trailing-minus.csv')
      const dry = await sb.run(['tx', 'import', file, '--account', acct, '--set', 'exchange_rate=1.1', '--dry-run'])
      expect(dry.code, dry.stderr).toBe(0)
      const table = tsv(dry.stdout)
      expect(table).toContainEqual(['reversals', '1'])
      expect(table).toContainEqual(['amount total', '-13.72 EUR'])
      expect(dry.stderr).toContain(
        'debit "Soll" is money out written unsigned, credit "Haben" money in written unsigned; a value with the other sign is a reversal and counts the other way',
      )
      const { code, summary } = await importJson(file, acct, '--set', 'exchange_rate=1.1')
      expect(code).toBe(0)
      expect(summary).toMatchObject({ created: 6, reversals: 1, amount_total: -13.72 })
      const txs = await sb.json<Array<{ description: string; amount: number }>>(['tx', 'list', '--account', acct, '--all', '--json'])
      expect(txs.find((t) => t.description.startsWith('Storno'))?.amount).toBe(-5)
    })

    it('-250.00 in the credit column and -60.00 in the debit column are reversals; a row with both columns is credit - debit', async () => {
      const acct = await account()
      const { code, summary } = await importJson(fixture('debit-credit-reversals-leading-minus-both-filled.csv'), acct)
      expect(code).toBe(0)
      // The file's Balance column runs from 5,000.00 before its first row to 8,461.01.
      expect(summary).toMatchObject({ created: 7, reversals: 2, amount_total: 3461.01 })
    })

    it.skipIf(!HAS_BANK_FILES)('a real debit column written with a minus ("-50,00") is money out, not reversals', async () => {
      const acct = await account('EUR')
      const file = bankFile('csv', 'fr-style-metadata-header-footer-debit-credit-decimal-comma.csv')
      const dry = await sb.run([
        'tx',
        'import',
        file,
        '--account',
        acct,
        '--set',
        'exchange_rate=1.1',
        '--date-format',
        'DD/MM/YY',
        '--dry-run',
      ])
      expect(dry.code, dry.stderr).toBe(0)
      expect(tsv(dry.stdout)).toContainEqual(['reversals', '0'])
      expect(tsv(dry.stdout)).toContainEqual(['amount total', '1069.32 EUR'])
      expect(dry.stderr).toContain('debit "Debit" is money out written with a minus')
    })
  })

  describe("original_description is the bank's text verbatim, description its tidied form", () => {
    interface Tx {
      description: string
      original_description: string
    }
    const texts = (txs: Tx[]) => txs.map((t) => [t.description, t.original_description]).sort()

    it('a quoted CSV description that spans lines keeps its line breaks and spaces', async () => {
      const acct = await account('EUR')
      const { code } = await importJson(fixture('quoted-multiline-description.csv'), acct, '--set', 'exchange_rate=1.1')
      expect(code).toBe(0)
      const txs = await sb.json<Tx[]>(['tx', 'list', '--account', acct, '--all', '--json'])
      expect(texts(txs)).toEqual([
        ['Gutschrift RE-2025-118', 'Gutschrift RE-2025-118'],
        ['Kartenzahlung Bürobedarf Schmidt Filiale 12', 'Kartenzahlung  Bürobedarf Schmidt   Filiale 12'],
        [
          'SEPA-Überweisung Miete Büro Januar 2026 Objekt Lindenstr. 12, 3. OG',
          'SEPA-Überweisung\nMiete Büro Januar 2026\nObjekt Lindenstr. 12, 3. OG',
        ],
      ])
    })

    it("MT940 :86: continuation lines and CAMT.053 repeated Ustrd stay lines in the uploaded statement's transactions", async () => {
      const mt940 = await sb.json<{ id: string }>([
        'statements',
        'upload',
        fixture('mt940-86-continuation-lines.sta'),
        '--account',
        await account('EUR'),
        '--exchange-rate',
        '1.1',
        '--json',
      ])
      expect(texts(await sb.json<Tx[]>(['statements', 'transactions', mt940.id, '--json']))).toEqual([
        [
          'SEPA OVERBOEKING IBAN: NL20INGB0001234567 BIC: INGBNL2A NAAM: HUISVESTING BERG BV OMSCHRIJVING: HUUR KANTOOR JANUARI 2026 KENMERK: 2026-01',
          'SEPA OVERBOEKING\nIBAN: NL20INGB0001234567  BIC: INGBNL2A\nNAAM: HUISVESTING BERG BV\nOMSCHRIJVING: HUUR KANTOOR JANUARI 2026\nKENMERK: 2026-01',
        ],
        [
          'SEPA OVERBOEKING IBAN: NL44RABO0123456789 NAAM: MEIER HANDEL OMSCHRIJVING: FACTUUR RE-2025-118',
          'SEPA OVERBOEKING   IBAN: NL44RABO0123456789\nNAAM: MEIER HANDEL\nOMSCHRIJVING: FACTUUR RE-2025-118',
        ],
      ])
      const camt = await sb.json<{ id: string }>([
        'statements',
        'upload',
        fixture('camt053-ustrd-repeated-lines.xml'),
        '--account',
        await account('EUR'),
        '--exchange-rate',
        '1.1',
        '--json',
      ])
      expect(texts(await sb.json<Tx[]>(['statements', 'transactions', camt.id, '--json']))).toEqual([
        [
          'Hausverwaltung Berg GmbH / Miete Buero Januar 2026 Objekt Lindenstr. 12, 3. OG Mieternr. 4711',
          'Hausverwaltung Berg GmbH / Miete Buero Januar 2026\nObjekt Lindenstr. 12,  3. OG\nMieternr. 4711',
        ],
        ['Meier Handels GmbH / RE-2025-118', 'Meier Handels GmbH / RE-2025-118'],
      ])
    })
  })

  it('QIF: L[Account] is a transfer (category Transfer, accounting and cash-flow category transfer, the account named in the description), and a split record keeps its memos', async () => {
    const acct = await account()
    const s = await sb.json<{ id: string; transaction_count: number }>([
      'statements',
      'upload',
      fixture('qif-transfers-and-split-memos.qif'),
      '--account',
      acct,
      '--json',
    ])
    expect(s.transaction_count).toBe(4)
    const txs = await sb.json<
      Array<{
        description: string
        category: string | null
        accounting_category: string | null
        cash_flow_category: string | null
        amount: number
      }>
    >(['statements', 'transactions', s.id, '--json'])
    expect(txs.map((t) => [t.description, t.category, t.accounting_category, t.cash_flow_category, t.amount]).sort()).toEqual([
      ['Hausverwaltung Berg / Rent January', 'Rent', null, null, -1250],
      ['Online banking / Monthly savings / Transfer to Business Savings', 'Transfer', 'transfer', 'transfer', -500],
      ['Staples / to the rainy-day fund; toner and paper', null, null, null, -345.5],
      ['Transfer from Business Savings', 'Transfer', 'transfer', 'transfer', 2000],
    ])
    const categories = await sb.json<{ categories: Array<{ name: string }> }>(['categories', '--json'])
    expect(categories.categories.map((c) => c.name)).toContain('Transfer')
    expect(categories.categories.map((c) => c.name)).not.toContain('[Business Savings]')
  })

  describe('one bad row never refuses a whole file', () => {
    it('an impossible date among ISO dates is one rejected row (exit 8, its line and reason), the rest imported', async () => {
      const acct = await account()
      const dry = await sb.run(['tx', 'import', fixture('iso-dates-one-impossible-date.csv'), '--account', acct, '--dry-run'])
      expect(dry.code, dry.stderr).toBe(8)
      expect(dry.stderr).toContain('dates YYYY-MM-DD (detected over 6 rows; 1 date does not fit it and its row is rejected)')
      expect(dry.stderr).toContain('line 4: date "2026-13-45" does not fit YYYY-MM-DD')
      const { code, summary } = await importJson(fixture('iso-dates-one-impossible-date.csv'), acct)
      expect(code).toBe(8)
      expect(summary).toMatchObject({
        read: 6,
        created: 5,
        rejected: 1,
        amount_total: 3573.57,
        rejects: [{ line: 4, reason: 'date "2026-13-45" does not fit YYYY-MM-DD' }],
      })
    })

    it('still refuses to guess when the valid dates are ambiguous (every day <= 12), an impossible one among them', async () => {
      const acct = await account('EUR')
      const r = await sb.run([
        'tx',
        'import',
        fixture('ambiguous-dates-one-impossible-date.csv'),
        '--account',
        acct,
        '--set',
        'exchange_rate=1.1',
      ])
      expect(r.code).toBe(6)
      expect(r.stderr).toContain(
        'error: the dates could be DD.MM.YYYY or MM.DD.YYYY (no day in the file is over 12): give --date-format DD.MM.YYYY or --date-format MM.DD.YYYY',
      )
      const given = await importJson(
        fixture('ambiguous-dates-one-impossible-date.csv'),
        acct,
        '--set',
        'exchange_rate=1.1',
        '--date-format',
        'DD.MM.YYYY',
      )
      expect(given.code).toBe(8)
      expect(given.summary).toMatchObject({
        created: 4,
        rejected: 1,
        amount_total: 1226.38,
        rejects: [{ line: 4, reason: 'date "31.31.2026" does not fit DD.MM.YYYY' }],
      })
    })

    it('a few unparseable amounts are rejected rows, not a refused file', async () => {
      const acct = await account()
      const { code, summary } = await importJson(fixture('unparseable-amounts-among-valid.csv'), acct)
      expect(code).toBe(8)
      expect(summary).toMatchObject({ read: 11, created: 9, rejected: 2, amount_total: 1503.32 })
      expect(summary!.rejects).toEqual([
        { line: 4, reason: 'debit "see image" is not an amount' },
        { line: 8, reason: 'debit "1..50" is not an amount' },
      ])
      const table = tsv((await sb.run(['tx', 'list', '--account', acct, '--all'])).stdout)
      expect(table.length - 1).toBe(9)
    })
  })
})

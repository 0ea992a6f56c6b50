/**
 * No statement line dropped, every upload option applied or refused, through
 * both transports on both stores, with the hand-made files of test/fixtures/bank-files:
 *
 * - a transaction line a parser cannot read (CSV, OFX, QIF, CAMT.053, MT940) fails the statement
 *   whole: nothing written, the error names the line, the warnings list every such line;
 * - bank quirks are read by their rule and said in the warnings (30 February, no :62F:, a balance
 *   without a currency, QIF comment lines);
 * - an option that does not apply to the file's format is a 400 naming the field.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../src/kernel/errors.js'
import { WORKER_THRESHOLD } from '../../src/domain/statements/jobs.js'
import type { Statement } from '../../src/domain/statements/schemas.js'
import type { Client } from '../../src/client/client.js'
import { createHarness, MATRIX, type Harness } from '../helpers/harness.js'

const FIXTURES = join(import.meta.dirname, '../fixtures/bank-files')
const handMade = (name: string) => readFileSync(join(FIXTURES, name))

describe.each(MATRIX)('statement lines over %s on %s', (kind, storeKind) => {
  let h: Harness
  let c: Client
  let n = 0

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    c = h.client({ apiKey: (await h.tenant('Lines')).key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const account = async (currency = 'EUR') =>
    (await c.accounts.create({ name: `Lines ${++n}`, account_type: 'checking', currency_code: currency })).id

  const upload = (accountId: string, file: string, fields: Record<string, unknown> = {}) =>
    c.statements.upload({
      bank_account_id: accountId,
      file_name: file,
      content_base64: handMade(file).toString('base64'),
      exchange_rate: '1',
      ...fields,
    })

  const processed = async (accountId: string, file: string, fields: Record<string, unknown> = {}): Promise<Statement> =>
    c.statements.wait((await upload(accountId, file, fields)).id)

  const accountTxs = async (accountId: string) => (await c.transactions.list({ bank_account_id: accountId, limit: 100 })).data

  describe('a transaction line that cannot be read fails the statement whole, naming it', () => {
    it.each([
      ['csv', 'unparseable-amounts-among-valid.csv', 'USD', [4, 8]],
      ['ofx', 'ofx-unreadable-transaction.ofx', 'USD', [22]],
      ['qif', 'qif-unreadable-amount.qif', 'EUR', [6]],
      ['camt053', 'camt053-unreadable-entry.xml', 'EUR', [15]],
      ['mt940', 'mt940-unreadable-61-line.sta', 'EUR', [7]],
    ])('%s: %s', async (_format, file, currency, lines) => {
      const acct = await account(currency)
      const s = await processed(acct, file)
      expect(s).toMatchObject({ status: 'failed', line_count: 0, transaction_count: 0 })
      expect(s.error).toContain(`${lines.length} transaction line${lines.length === 1 ? '' : 's'} of the statement cannot be read`)
      expect(s.error).toContain('nothing was imported')
      for (const line of lines) expect(s.error).toContain(`line ${line}: `)
      expect(s.warnings.map((w) => Number(/^line (\d+): /.exec(w)?.[1]))).toEqual(lines)
      expect(await accountTxs(acct)).toEqual([])
    })

    it('a file parsed on the worker thread (over 256 KiB) fails the same way, naming the line', async () => {
      const acct = await account()
      const chunks = [':20:BIG\n:25:NL91ABNA0417164300\n:28C:1/1\n:60F:C240101EUR1000,00\n']
      for (let i = 1; i <= 3000; i++) chunks.push(`:61:240102D0,01NTRFNONREF//B${i}\n:86:${'card payment '.repeat(7)}\n`)
      // After the 4 header lines and 1,499 two-line entries: line 3003.
      chunks.splice(1500, 0, ':61:24010XD0,01NTRFNONREF//BAD\n')
      chunks.push(':62F:C240102EUR970,00\n-\n')
      const bytes = Buffer.from(chunks.join(''))
      expect(bytes.length).toBeGreaterThan(WORKER_THRESHOLD)
      const s = await c.statements.wait(
        (
          await c.statements.upload({
            bank_account_id: acct,
            file_name: 'big.sta',
            content_base64: bytes.toString('base64'),
            exchange_rate: '1',
          })
        ).id,
      )
      expect(s).toMatchObject({ status: 'failed', line_count: 0 })
      expect(s.warnings).toEqual([expect.stringMatching(/^line 3003: :61: "24010XD0,01NTRFNONREF\/\/BAD"/)])
      expect(await accountTxs(acct)).toEqual([])
    })

    it('a pending CAMT entry alone is no unreadable line: it is said in the warnings and the statement completes', async () => {
      const acct = await account()
      const xml = handMade('camt053-unreadable-entry.xml')
        .toString('utf8')
        .replace('<CdtDbtInd>DEBIT</CdtDbtInd>', '<CdtDbtInd>DBIT</CdtDbtInd>')
      const s = await c.statements.wait(
        (
          await c.statements.upload({
            bank_account_id: acct,
            file_name: 'pending.xml',
            content_base64: Buffer.from(xml).toString('base64'),
            exchange_rate: '1',
          })
        ).id,
      )
      expect(s).toMatchObject({ status: 'completed', line_count: 2, balance_check: 'ok' })
      expect(s.warnings).toEqual(['line 20: entry skipped, its status is PDNG (not booked)'])
    })
  })

  describe('bank quirks, each by its rule and said', () => {
    it('MT940 30 February: the line is imported on the month last day, the balance checks', async () => {
      const acct = await account()
      const s = await processed(acct, 'mt940-value-date-30-february.sta')
      expect(s).toMatchObject({ status: 'completed', line_count: 1, transaction_count: 1, balance_check: 'ok' })
      expect(s.warnings).toEqual(["line 5: :61: date 240230: February has no day 30 in 2024: read as 2024-02-29, the month's last day"])
      expect((await accountTxs(acct)).map((t) => [t.transaction_date, t.amount])).toEqual([['2024-03-01', -125.5]])
    })

    it('MT940 whose last statement has no :62F:: every line imported, balance not checked', async () => {
      const acct = await account()
      const s = await processed(acct, 'mt940-last-statement-without-closing-balance.sta')
      expect(s).toMatchObject({
        status: 'completed',
        line_count: 3,
        balance_check: 'unavailable',
        opening_balance: 500,
        closing_balance: null,
      })
      expect(s.warnings).toEqual([expect.stringMatching(/^line 11: the statement has no closing balance .*balance not checked$/)])
    })

    it('MT940 with no :62F: at all: its lines imported', async () => {
      const acct = await account()
      const s = await processed(acct, 'mt940-no-closing-balance-at-all.sta')
      expect(s).toMatchObject({ status: 'completed', line_count: 3, balance_check: 'unavailable' })
    })

    it('MT940 :62M:/:60M: without a currency: the statement currency, and the pages reconcile', async () => {
      const acct = await account('PLN')
      const s = await processed(acct, 'mt940-intermediate-balances-without-currency.sta')
      expect(s).toMatchObject({ status: 'completed', line_count: 2, balance_check: 'ok', opening_balance: 1000, closing_balance: 950 })
      expect(s.warnings).toHaveLength(2)
    })

    it('QIF with # comment lines before the header', async () => {
      const acct = await account('USD')
      const s = await processed(acct, 'qif-comment-lines-before-header.qif')
      expect(s).toMatchObject({ status: 'completed', line_count: 2 })
      expect(s.warnings[0]).toBe('lines 1-2: 2 comment lines (#) before the first header, skipped')
    })
  })

  describe('QIF dates: given, or refused when they fit two formats', () => {
    it('13/08/12 without date_format fails naming both formats; with YY/MM/DD all 5 lines, in 2013', async () => {
      const acct = await account()
      const refused = await processed(acct, 'qif-year-first-short-dates.qif')
      expect(refused.status).toBe('failed')
      expect(refused.error).toContain('give --date-format DD/MM/YY or --date-format YY/MM/DD')
      const s = await processed(acct, 'qif-year-first-short-dates.qif', { date_format: 'YY/MM/DD' })
      expect(s).toMatchObject({ status: 'completed', line_count: 5, period_start: '2013-08-12', period_end: '2013-10-01' })
    })
  })

  describe('an option that does not apply to the format is a 400 naming it', () => {
    const refused = async (p: Promise<unknown>) => {
      const e = await p.then(
        () => new Error('expected a 400'),
        (err: unknown) => err,
      )
      expect(e).toBeInstanceOf(AppError)
      return e as AppError
    }

    it.each([
      ['mt940-value-date-30-february.sta', { date_format: 'DD/MM/YY' }, 'date_format', 'MT940 writes every date one way (YYMMDD)'],
      ['ofx-unreadable-transaction.ofx', { map: ['description=Memo'] }, 'map', 'it names the columns of a CSV file; an OFX file has none'],
      ['qif-comment-lines-before-header.qif', { delimiter: ';' }, 'delimiter', 'a QIF file has none'],
      ['camt053-unreadable-entry.xml', { invert_sign: true }, 'invert_sign', 'CAMT.053 amounts carry their own sign'],
      [
        'ofx-unreadable-transaction.ofx',
        { no_header: true },
        'no_header',
        "it says a CSV file's first line is a transaction; an OFX file has no header row",
      ],
    ])('%s with %j', async (file, fields, field, why) => {
      const acct = await account()
      const e = await refused(upload(acct, file, fields))
      expect(e.status).toBe(400)
      expect(e.details).toEqual([{ path: field, message: expect.stringContaining(why) }])
      expect((await c.statements.list({ bank_account_id: acct })).data).toEqual([])
    })
  })
})

/**
 * The CLI in process (test/helpers/in-process-cli.ts), embedded and towards `finctl serve`, with the
 * hand-made files of test/fixtures/bank-files. No command exits 0 having dropped a transaction
 * line: a statement with a line it cannot read exits 6 naming it (tx import: 8, the rest imported);
 * bank quirks are imported by their rule and said; QIF dates follow --date-format or are refused
 * naming the flags; a flag that does not apply to the file's format is refused (exit 2).
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stopServeAndCleanup, type ServeProcess } from '../../helpers/cli.js'
import { BOTH_TARGETS, type InProcessSandbox, servedSandbox } from '../../helpers/in-process-cli.js'

const FIXTURES = join(import.meta.dirname, '../../fixtures/bank-files')
const fixture = (name: string) => join(FIXTURES, name)

interface Statement {
  id: string
  status: string
  line_count: number
  balance_check: string | null
  error: string | null
  warnings: string[]
}

describe('statement lines, embedded and towards finctl serve', () => {
  let sb: InProcessSandbox
  let server: ServeProcess | undefined

  beforeAll(async () => {
    ;({ sb, server } = await servedSandbox('statement-lines', 'EUR'))
  })
  afterAll(() => stopServeAndCleanup(server, sb))

  describe.each(BOTH_TARGETS)('%s', (_target, target) => {
    const run = (args: string[]) => sb.run([...target, ...args])
    const account = async (currency = 'EUR') =>
      (
        await sb.json([
          ...target,
          'accounts',
          'create',
          '--name',
          `L${Math.random()}`,
          '--type',
          'checking',
          '--currency',
          currency,
          '--json',
        ])
      ).id as string

    it.each([
      ['CSV', 'unparseable-amounts-among-valid.csv', [4, 8]],
      ['OFX', 'ofx-unreadable-transaction.ofx', [22]],
      ['QIF', 'qif-unreadable-amount.qif', [6]],
      ['CAMT.053', 'camt053-unreadable-entry.xml', [15]],
      ['MT940', 'mt940-unreadable-61-line.sta', [7]],
    ])('statements upload, %s with an unreadable transaction line: exit 6, each line named, nothing written', async (_f, file, lines) => {
      const acct = await account()
      const r = await run(['statements', 'upload', fixture(file), '--account', acct])
      expect(r.code, r.stderr).toBe(6)
      expect(r.stderr).toMatch(
        /^error: statement \S+ failed: \d+ transaction lines? of the statement cannot be read.*nothing was imported/m,
      )
      for (const line of lines) expect(r.stderr).toMatch(new RegExp(`^warning: line ${line}: `, 'm'))
      expect(await sb.json([...target, 'tx', 'list', '--account', acct, '--json'])).toEqual([])
    })

    it('statements upload --json: the failed statement names the line in its error and warnings', async () => {
      const acct = await account()
      const r = await run(['statements', 'upload', fixture('mt940-unreadable-61-line.sta'), '--account', acct, '--json'])
      expect(r.code).toBe(6)
      const s = JSON.parse(r.stdout) as Statement
      expect(s).toMatchObject({ status: 'failed', line_count: 0 })
      expect(s.error).toContain('line 7: :61: "24060X0604D5,00NTRFNONREF//B0604001"')
      expect(s.warnings).toEqual([expect.stringMatching(/^line 7: :61: /)])
      // Towards a server, a note on the write comes first: the error is the last line.
      expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ code: 'statement_failed', statement_id: s.id })
    })

    it('statements upload --preview: exit 6, each unreadable line named, nothing uploaded', async () => {
      const acct = await account()
      const r = await run(['statements', 'upload', fixture('unparseable-amounts-among-valid.csv'), '--account', acct, '--preview'])
      expect(r.code).toBe(6)
      expect(r.stderr).toContain('warning: line 4: debit "see image" is not an amount')
      expect(r.stderr).toContain('warning: line 8: debit "1..50" is not an amount')
      expect(await sb.json([...target, 'statements', 'list', '--account', acct, '--json'])).toEqual([])
    })

    it('tx import of a CSV with unreadable rows: exit 8, the rows named on stderr and in --json, the rest imported', async () => {
      const acct = await account()
      const r = await run(['tx', 'import', fixture('unparseable-amounts-among-valid.csv'), '--account', acct, '--json', '--no-progress'])
      expect(r.code, r.stderr).toBe(8)
      const s = JSON.parse(r.stdout)
      expect(s).toMatchObject({ read: 11, created: 9, rejected: 2 })
      expect(s.rejects.map((x: { line: number; reason: string }) => [x.line, x.reason])).toEqual([
        [4, expect.stringContaining('see image')],
        [8, expect.stringContaining('1..50')],
      ])
    })

    it('MT940 30 February: exit 0, the line on the month last day, the rule said with its line', async () => {
      const acct = await account()
      const r = await run(['statements', 'upload', fixture('mt940-value-date-30-february.sta'), '--account', acct, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'completed', line_count: 1, balance_check: 'ok' })
      const txs = await sb.json([...target, 'tx', 'list', '--account', acct, '--json'])
      expect(txs.map((t: { transaction_date: string; amount: number }) => [t.transaction_date, t.amount])).toEqual([['2024-03-01', -125.5]])
      const table = await run(['statements', 'upload', fixture('mt940-no-closing-balance-at-all.sta'), '--account', acct])
      expect(table.code, table.stderr).toBe(0)
      expect(table.stderr).toMatch(
        /^warning: line 1: the statement has no closing balance .*its 2 lines are read, its balance not checked$/m,
      )
      expect(table.stderr).toMatch(/3 transactions created.*balance check unavailable/)
    })

    it('QIF: comment lines before the header skipped; 13/08/12 refused naming the flags, read with --date-format YY/MM/DD', async () => {
      const acct = await account()
      const comments = await run(['statements', 'upload', fixture('qif-comment-lines-before-header.qif'), '--account', acct])
      expect(comments.code, comments.stderr).toBe(0)
      expect(comments.stderr).toContain('warning: lines 1-2: 2 comment lines (#) before the first header, skipped')
      const file = fixture('qif-year-first-short-dates.qif')
      const refused = await run(['statements', 'upload', file, '--account', acct])
      expect(refused.code).toBe(6)
      expect(refused.stderr).toContain('give --date-format DD/MM/YY or --date-format YY/MM/DD')
      const s = await sb.json<Statement & { period_start: string }>([
        ...target,
        'statements',
        'upload',
        file,
        '--account',
        acct,
        '--date-format',
        'YY/MM/DD',
        '--json',
      ])
      expect(s).toMatchObject({ status: 'completed', line_count: 5, period_start: '2013-08-12' })
    })

    it.each([
      [
        'ofx-unreadable-transaction.ofx',
        ['--date-format', 'DD/MM/YYYY'],
        '--date-format applies to CSV and QIF files, not to this OFX file',
      ],
      ['qif-comment-lines-before-header.qif', ['--map', 'description=Memo'], '--map applies to CSV files, not to this QIF file'],
      ['mt940-value-date-30-february.sta', ['--invert-sign'], '--invert-sign applies to CSV files, not to this MT940 file'],
      ['mt940-value-date-30-february.sta', ['--no-header'], '--no-header applies to CSV files, not to this MT940 file'],
    ])('statements upload %s %j: exit 2 with the reason, nothing uploaded', async (file, flags, message) => {
      const acct = await account()
      const r = await run(['statements', 'upload', fixture(file), '--account', acct, ...flags])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`error: ${message}`)
      expect(await sb.json([...target, 'statements', 'list', '--account', acct, '--json'])).toEqual([])
    })

    it('tx import of a statement file: exit 2, naming the command that reads it', async () => {
      const acct = await account()
      const r = await run(['tx', 'import', fixture('qif-year-first-short-dates.qif'), '--account', acct, '--date-format', 'YY/MM/DD'])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/error: .*qif-year-first-short-dates\.qif is a QIF statement, not a CSV file: .*finctl statements upload/)
    })
  })
})

/**
 * `finctl export` in process (test/helpers/in-process-cli.ts): CSV to stdout, a journal to -o FILE
 * with its note, and the refusals before any write: usage errors naming the flag (exit 2), a
 * workbook to a terminal, an account not found (exit 5). The journals read by hledger, ledger and
 * bean-check, the workbook read back, and the remote run: test/e2e/export.test.ts.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

const PERIOD = ['--from', '2026-10-01', '--to', '2026-10-31']

describe('export, in process', () => {
  let sb: InProcessSandbox

  beforeAll(async () => {
    sb = new InProcessSandbox('export')
    await sb.ok(['init', '--company', 'Export Co', '--currency', 'USD', '--no-input'])
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    for (const [date, amount, description] of [
      ['2026-10-02', '-12.34', 'Paper'],
      ['2026-10-09', '1250.00', 'Invoice 7'],
      ['2026-11-01', '-5.00', 'Next month'],
    ])
      await sb.ok([
        'tx',
        'create',
        '--account',
        acct,
        '--date',
        date,
        '--amount',
        amount,
        '--description',
        description,
        '--category',
        'Office',
      ])
  })
  afterAll(() => sb?.cleanup())

  it('csv to stdout: a header and the rows of the period; the count on stderr', async () => {
    const r = await sb.ok(['export', '--format', 'csv', ...PERIOD])
    const lines = r.stdout.trimEnd().split('\r\n')
    expect(lines[0]).toMatch(/^id,date,description,amount,currency,/)
    expect(lines).toHaveLength(3)
    expect(r.stdout).toContain('Invoice 7')
    expect(r.stdout).not.toContain('Next month')
    expect(r.stderr).toBe('exported 2 transactions of 2026-10-01 to 2026-10-31 as csv\n')
  })

  it('a journal to -o FILE (the program hands -o to export as its file), named in the note', async () => {
    const file = sb.path('books.journal')
    const r = await sb.ok(['export', '--format', 'hledger', ...PERIOD, '-o', file])
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(`as hledger to ${file}`)
    expect(readFileSync(file, 'utf8')).toContain('Invoice 7')
  })

  it('refusals before any write: usage errors (exit 2) naming the flag; an account not found (exit 5)', async () => {
    writeFileSync(sb.path('kept.csv'), 'mine')
    const before = readdirSync(sb.dir).sort()
    const cases: Array<[string[], string]> = [
      [['export', ...PERIOD], "required option '--format <format>' not specified"],
      [['export', '--format', 'ods'], '--format ods: not one of ledger, hledger, beancount, xlsx, csv, datev, sie4, saft-no'],
      [
        ['export', '--format', 'csv', '--from', '2026-10-31', '--to', '2026-10-01'],
        '--from 2026-10-31 --to 2026-10-01: the period would end on 2026-10-01, before it starts on 2026-10-31',
      ],
      [['export', '--format', 'csv', '--accounts-map', sb.path('map.yaml')], '--accounts-map is for the journals'],
      [['export', '--format', 'csv', '-o', sb.path('kept.csv')], `--output: ${sb.path('kept.csv')} already exists`],
      [['export', '--format', 'csv', '-o', sb.path('no', 'such', 'x.csv')], '--output'],
    ]
    for (const [args, message] of cases) {
      const r = await sb.run(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toContain(message)
      expect(r.stdout).toBe('')
    }
    const tty = await sb.run(['export', '--format', 'xlsx', ...PERIOD], { tty: { stdout: true } })
    expect(tty.code).toBe(2)
    expect(tty.stderr).toContain('a workbook is not for a terminal: give --output FILE.xlsx')
    const missing = await sb.run([
      'export',
      '--format',
      'csv',
      '--account',
      '00000000-0000-4000-8000-000000000000',
      '-o',
      sb.path('none.csv'),
    ])
    expect(missing.code).toBe(5)
    expect(readdirSync(sb.dir).sort()).toEqual(before)
    expect(readFileSync(sb.path('kept.csv'), 'utf8')).toBe('mine')
    expect(existsSync(sb.path('none.csv'))).toBe(false)
  })
})

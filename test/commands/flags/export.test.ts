/** `finctl export` flag parsing through its runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerExport } from '../../../commands/export/write.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('export flags', () => {
  it('--format is required and one of the export formats', async () => {
    expect((await parseError(registerExport, ['export'])).code).toBe('commander.missingMandatoryOptionValue')
    const err = await parseError(registerExport, ['export', '--format', 'pdf'])
    expect(err.code).toBe('commander.invalidArgument')
    expect(err.stderr).toContain('Allowed choices are ledger, hledger, beancount, xlsx, csv')
    expect((await parseFlags(registerExport, ['export', '--format', 'beancount'])).opts).toEqual({ format: 'beancount' })
  })

  it('-o and --output after export are the file, in each spelling; before it, the output format', async () => {
    for (const argv of [
      ['export', '--format', 'hledger', '-o', 'books.journal'],
      ['export', '--format', 'hledger', '--output', 'books.journal'],
      ['export', '--format', 'hledger', '--output=books.journal'],
      ['export', '-obooks.journal', '--format', 'hledger'],
    ]) {
      const { opts, globals } = await parseFlags(registerExport, argv)
      expect(opts).toEqual({ format: 'hledger', outputFile: 'books.journal' })
      expect(globals.output).toBeUndefined()
    }
    const { opts, globals } = await parseFlags(registerExport, ['-o', 'json', 'export', '--format', 'csv'])
    expect(opts.outputFile).toBeUndefined()
    expect(globals.output).toBe('json')
  })

  it('--from, --to, --account, --accounts-map take values; --overwrite is a switch', async () => {
    const { opts } = await parseFlags(registerExport, [
      'export',
      '--format',
      'xlsx',
      '--from',
      '2026-10-01',
      '--to',
      '2026-10-31',
      '--account',
      'Operating',
      '--accounts-map',
      'a.yaml',
      '--overwrite',
    ])
    expect(opts).toEqual({
      format: 'xlsx',
      from: '2026-10-01',
      to: '2026-10-31',
      account: 'Operating',
      accountsMap: 'a.yaml',
      overwrite: true,
    })
  })
})

/** `finctl export` flag parsing through its runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import type { Command } from 'commander'
import { registerCheck } from '../../../commands/export/check.js'
import { registerMapClear } from '../../../commands/export/map-clear.js'
import { registerMapSet } from '../../../commands/export/map-set.js'
import { registerMapShow } from '../../../commands/export/map-show.js'
import { registerMapSuggest } from '../../../commands/export/map-suggest.js'
import { registerExport } from '../../../commands/export/write.js'
import type { Runner } from '../../../src/cli/runner.js'
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

  it('--strict and --checksum are switches; --as-of takes a moment', async () => {
    const { opts } = await parseFlags(registerExport, [
      'export',
      '--format',
      'sie4',
      '--strict',
      '--checksum',
      '--as-of',
      '2026-11-05T09:00:00Z',
    ])
    expect(opts).toEqual({ format: 'sie4', strict: true, checksum: true, asOf: '2026-11-05T09:00:00Z' })
  })

  // The subcommands under `export` as its index makes them (an export with a runF that must not run).
  const underExport = (program: Command, run: Runner) =>
    registerExport(program, run, async () => {
      throw new Error('export itself ran')
    })
  const underMap = (program: Command, run: Runner) => underExport(program, run).command('map')

  it('export check FILE [--xsd FILE]; a flag of export after it is refused', async () => {
    const { opts, args } = await parseFlags(registerCheck, ['export', 'check', 'f.xml', '--xsd', 's.xsd'], underExport)
    expect(opts).toEqual({ xsd: 's.xsd' })
    expect(args).toEqual(['f.xml'])
    const err = await parseError(registerCheck, ['export', 'check', 'f.xml', '--strict'], underExport)
    expect(err.stderr).toContain('--strict is an option of `finctl export`, not of `finctl export check`')
  })

  it('export map suggest --chart C -o FILE: -o after the subcommand is its file, --overwrite its switch', async () => {
    const { opts } = await parseFlags(
      registerMapSuggest,
      ['export', 'map', 'suggest', '--chart', 'bas', '-o', 'c.yaml', '--overwrite'],
      underMap,
    )
    expect(opts).toEqual({ chart: 'bas', outputFile: 'c.yaml', overwrite: true })
    expect((await parseError(registerMapSuggest, ['export', 'map', 'suggest', '--chart', 'gaap'], underMap)).code).toBe(
      'commander.invalidArgument',
    )
  })

  it('export map set FILE, show and clear take no flags of their own', async () => {
    expect((await parseFlags(registerMapSet, ['export', 'map', 'set', 'chart.yaml'], underMap)).args).toEqual(['chart.yaml'])
    expect((await parseError(registerMapSet, ['export', 'map', 'set'], underMap)).code).toBe('commander.missingArgument')
    expect((await parseFlags(registerMapShow, ['export', 'map', 'show'], underMap)).opts).toEqual({})
    expect((await parseError(registerMapClear, ['export', 'map', 'clear', '--all'], underMap)).code).toBe('commander.unknownOption')
  })
})

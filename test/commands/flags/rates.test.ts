/** `finctl rates` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerDelete } from '../../../commands/rates/delete.js'
import { registerImport } from '../../../commands/rates/import.js'
import { registerList } from '../../../commands/rates/list.js'
import { registerSet } from '../../../commands/rates/set.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('rates flags', () => {
  it('import: FILE is required; --format is any word here (the run refuses one not ecb or plain)', async () => {
    expect(await parseError(registerImport, ['rates', 'import'], 'rates')).toMatchObject({
      code: 'commander.missingArgument',
      stderr: expect.stringContaining("missing required argument 'file'"),
    })
    const { opts, args } = await parseFlags(registerImport, ['rates', 'import', 'r.csv', '--format', 'xml'], 'rates')
    expect(args).toEqual(['r.csv'])
    expect(opts).toEqual({ format: 'xml' })
  })

  it('list: no flag sets nothing (the service pages); --limit is text, --all a switch', async () => {
    expect((await parseFlags(registerList, ['rates', 'list'], 'rates')).opts).toEqual({})
    const { opts, globals } = await parseFlags(
      registerList,
      ['rates', 'list', '--currency', 'usd', '--limit', '5', '--all', '-o', 'csv'],
      'rates',
    )
    expect(opts).toEqual({ currency: 'usd', limit: '5', all: true })
    expect(globals.output).toBe('csv')
  })

  it('list: --limit without its value and an unknown option are refused by commander', async () => {
    expect((await parseError(registerList, ['rates', 'list', '--limit'], 'rates')).code).toBe('commander.optionMissingArgument')
    expect((await parseError(registerList, ['rates', 'list', '--since', '2026-01-01'], 'rates')).code).toBe('commander.unknownOption')
  })

  it('set: --date, --currency and --rate are required; --source is optional', async () => {
    const err = await parseError(registerSet, ['rates', 'set', '--date', '2026-03-02', '--rate', '0.92'], 'rates')
    expect(err.code).toBe('commander.missingMandatoryOptionValue')
    expect(err.message).toContain("'--currency <code>'")
    const { opts } = await parseFlags(
      registerSet,
      ['rates', 'set', '--date', '2026-03-02', '--currency', 'USD', '--rate', '0.9231'],
      'rates',
    )
    expect(opts).toEqual({ date: '2026-03-02', currency: 'USD', rate: '0.9231' })
  })

  it("delete: --date and --currency required; --yes after the verb is the program's (the run reads both)", async () => {
    expect((await parseError(registerDelete, ['rates', 'delete', '--date', '2026-03-02'], 'rates')).code).toBe(
      'commander.missingMandatoryOptionValue',
    )
    const { opts, globals } = await parseFlags(
      registerDelete,
      ['rates', 'delete', '--date', '2026-03-02', '--currency', 'USD', '--yes'],
      'rates',
    )
    expect(opts).toEqual({ date: '2026-03-02', currency: 'USD' })
    expect(globals.yes).toBe(true)
  })
})

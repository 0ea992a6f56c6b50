/** `finctl statements` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerFile } from '../../../commands/statements/file.js'
import { registerGet } from '../../../commands/statements/get.js'
import { registerList } from '../../../commands/statements/list.js'
import { registerTransactions } from '../../../commands/statements/transactions.js'
import { registerUpload } from '../../../commands/statements/upload.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('statements flags', () => {
  it('upload: FILE required; it waits, reads a header and a layout unless told --no-', async () => {
    expect((await parseError(registerUpload, ['statements', 'upload', '--account', 'A1'], 'statements')).code).toBe(
      'commander.missingArgument',
    )
    const { opts, args } = await parseFlags(registerUpload, ['statements', 'upload', 'march.sta'], 'statements')
    expect(args).toEqual(['march.sta'])
    expect(opts).toEqual({ wait: true, header: true, layout: true, balanceCheck: true })
    const off = await parseFlags(
      registerUpload,
      ['statements', 'upload', 'a.csv', '--no-wait', '--no-header', '--no-layout', '--no-balance-check'],
      'statements',
    )
    expect(off.opts).toEqual({ wait: false, header: false, layout: false, balanceCheck: false })
  })

  it('upload: --map and --where repeat; --preview and --decimal-comma are switches', async () => {
    const { opts } = await parseFlags(
      registerUpload,
      ['statements', 'upload', 'a.csv', '--map', 'date=1', '--map', 'amount=3', '--where', 'Konto=1', '--preview', '--decimal-comma'],
      'statements',
    )
    expect(opts).toMatchObject({ map: ['date=1', 'amount=3'], where: ['Konto=1'], preview: true, decimalComma: true })
  })

  it('upload: --review is a switch', async () => {
    const { opts } = await parseFlags(registerUpload, ['statements', 'upload', 'a.ofx', '--account', 'Main', '--review'], 'statements')
    expect(opts).toMatchObject({ account: 'Main', review: true })
  })

  it('upload: --format is any word here (the run refuses an unknown one with exit 2)', async () => {
    expect((await parseFlags(registerUpload, ['statements', 'upload', 'a.x', '--format', 'pdf'], 'statements')).opts.format).toBe('pdf')
  })

  it('list: --account, --status and paging', async () => {
    expect((await parseFlags(registerList, ['statements', 'list'], 'statements')).opts).toEqual({})
    const { opts } = await parseFlags(registerList, ['statements', 'list', '--status', 'failed', '--limit', '20', '--all'], 'statements')
    expect(opts).toEqual({ status: 'failed', limit: '20', all: true })
  })

  it('get and transactions: ID required; transactions sorts and pages', async () => {
    expect((await parseError(registerGet, ['statements', 'get'], 'statements')).code).toBe('commander.missingArgument')
    expect((await parseError(registerTransactions, ['statements', 'transactions'], 'statements')).code).toBe('commander.missingArgument')
    const { opts, args } = await parseFlags(
      registerTransactions,
      ['statements', 'transactions', 'S1', '--sort', '-amount', '--all'],
      'statements',
    )
    expect(args).toEqual(['S1'])
    expect(opts).toEqual({ sort: '-amount', all: true })
  })

  it('file: ID required; -o and --output after the verb are the file, - included; --overwrite a switch', async () => {
    expect((await parseError(registerFile, ['statements', 'file'], 'statements')).code).toBe('commander.missingArgument')
    for (const argv of [
      ['statements', 'file', 'S1', '-o', 'march.ofx'],
      ['statements', 'file', 'S1', '--output', 'march.ofx'],
      ['statements', 'file', 'S1', '--output=march.ofx'],
    ]) {
      const { opts, args, globals } = await parseFlags(registerFile, argv, 'statements')
      expect(args).toEqual(['S1'])
      expect(opts).toEqual({ outputFile: 'march.ofx' })
      expect(globals.output).toBeUndefined()
    }
    expect((await parseFlags(registerFile, ['statements', 'file', 'S1', '-o', '-', '--overwrite'], 'statements')).opts).toEqual({
      outputFile: '-',
      overwrite: true,
    })
  })
})

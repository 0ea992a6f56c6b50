/** `finctl tx` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { registerBulkDelete } from '../../../commands/tx/bulk-delete.js'
import { registerBulkUpdate } from '../../../commands/tx/bulk-update.js'
import { registerCreate } from '../../../commands/tx/create.js'
import { registerDelete } from '../../../commands/tx/delete.js'
import { registerGet } from '../../../commands/tx/get.js'
import { registerImport } from '../../../commands/tx/import.js'
import { registerList } from '../../../commands/tx/list.js'
import { registerReview } from '../../../commands/tx/review.js'
import { registerUpdate } from '../../../commands/tx/update.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

// As commands/tx/index.ts makes it: `transactions` works as well as `tx`.
const tx = (program: Command) => program.command('tx').alias('transactions')

describe('tx flags', () => {
  it("list: no flag sets nothing (the page size and the period are the run's and the service's)", async () => {
    const { opts, command } = await parseFlags(registerList, ['tx', 'list'], tx)
    expect(opts).toEqual({})
    expect(command).toBe('tx list')
  })

  it('list: under the alias `transactions`; --reconciled is a switch, --min-amount takes a negative value', async () => {
    const { opts, command } = await parseFlags(
      registerList,
      ['transactions', 'list', '--reconciled', '--min-amount', '-100', '--limit', '10', '--all', '--sort', '-amount'],
      tx,
    )
    expect(command).toBe('tx list')
    expect(opts).toEqual({ reconciled: true, minAmount: '-100', limit: '10', all: true, sort: '-amount' })
  })

  it('list: --json FIELDS is the global flag; an argument or an unknown flag is refused', async () => {
    const { opts, globals } = await parseFlags(registerList, ['tx', 'list', '--json', 'id,amount'], tx)
    expect(globals.json).toBe('id,amount')
    expect(opts).toEqual({})
    expect((await parseError(registerList, ['tx', 'list', 'rent'], tx)).code).toBe('commander.excessArguments')
    expect((await parseError(registerList, ['tx', 'list', '--reconciled=yes'], tx)).code).toBe('commander.unknownOption')
  })

  it('get: ID required; --json before it stands alone, not taking ID as its fields', async () => {
    expect((await parseError(registerGet, ['tx', 'get'], tx)).code).toBe('commander.missingArgument')
    const { args, globals } = await parseFlags(registerGet, ['tx', 'get', '--json', '0193a0c4'], tx)
    expect(args).toEqual(['0193a0c4'])
    // runProgram writes it `--json=`: JSON, no fields.
    expect(globals.json).toBe('')
    // A word with a comma is FIELDS, even before the argument.
    const fields = await parseFlags(registerGet, ['tx', 'get', '--json', 'id,amount', '0193a0c4'], tx)
    expect(fields.args).toEqual(['0193a0c4'])
    expect(fields.globals.json).toBe('id,amount')
  })

  it('update: --reconciled takes a value here (unlike list); "" is kept to clear a field', async () => {
    const { opts, args } = await parseFlags(
      registerUpdate,
      ['tx', 'update', 'T1', '--reconciled', 'false', '--category', '', '--tags', 'a,b'],
      tx,
    )
    expect(args).toEqual(['T1'])
    expect(opts).toEqual({ reconciled: 'false', category: '', tags: 'a,b' })
    expect((await parseError(registerUpdate, ['tx', 'update', 'T1', '--reconciled'], tx)).code).toBe('commander.optionMissingArgument')
  })

  it("delete: ID required; --yes after the verb is the program's flag (the run reads both)", async () => {
    expect((await parseError(registerDelete, ['tx', 'delete', '--yes'], tx)).code).toBe('commander.missingArgument')
    const { opts, globals } = await parseFlags(registerDelete, ['tx', 'delete', 'T1', '--yes'], tx)
    expect(opts.yes).toBeUndefined()
    expect(globals.yes).toBe(true)
  })

  it('bulk-update: --set takes one value and repeats; the filters, but no paging', async () => {
    const { opts } = await parseFlags(
      registerBulkUpdate,
      ['tx', 'bulk-update', '--search', 'AWS', '--set', 'category=Software', '--set', 'status=posted', '--dry-run'],
      tx,
    )
    expect(opts).toEqual({ search: 'AWS', set: ['category=Software', 'status=posted'], dryRun: true })
    // A second word after --set is no value of it: bulk-update takes no argument.
    expect((await parseError(registerBulkUpdate, ['tx', 'bulk-update', '--set', 'category=X', 'AWS'], tx)).code).toBe(
      'commander.excessArguments',
    )
    expect((await parseError(registerBulkUpdate, ['tx', 'bulk-update', '--limit', '5'], tx)).code).toBe('commander.unknownOption')
  })

  it('bulk-delete: the selection flags and the filters, no --set, no paging, no argument', async () => {
    const { opts, command } = await parseFlags(
      registerBulkDelete,
      ['tx', 'bulk-delete', '--search', 'AWS', '--from', '2026-05-01', '--ids-file', '-', '--dry-run'],
      tx,
    )
    expect(command).toBe('tx bulk-delete')
    expect(opts).toEqual({ search: 'AWS', from: '2026-05-01', idsFile: '-', dryRun: true })
    expect((await parseError(registerBulkDelete, ['tx', 'bulk-delete', '--set', 'category=X'], tx)).code).toBe('commander.unknownOption')
    expect((await parseError(registerBulkDelete, ['tx', 'bulk-delete', '--limit', '5'], tx)).code).toBe('commander.unknownOption')
    expect((await parseError(registerBulkDelete, ['tx', 'bulk-delete', 'AWS'], tx)).code).toBe('commander.excessArguments')
  })

  it('create: nothing required by commander (it prompts); --amount takes a negative value', async () => {
    expect((await parseFlags(registerCreate, ['tx', 'create'], tx)).opts).toEqual({})
    const { opts } = await parseFlags(registerCreate, ['tx', 'create', '--amount', '-349.90', '--posted-date', '2026-11-21', '--force'], tx)
    expect(opts).toEqual({ amount: '-349.90', postedDate: '2026-11-21', force: true })
  })

  it('import: FILE required; the --no- flags default to on, --progress to neither', async () => {
    expect((await parseError(registerImport, ['tx', 'import', '--account', 'A'], tx)).code).toBe('commander.missingArgument')
    const { opts, args } = await parseFlags(registerImport, ['tx', 'import', 'f.csv'], tx)
    expect(args).toEqual(['f.csv'])
    // undefined --mapping means "the saved one whose header the file has"; --progress unset means "on a terminal".
    expect(opts).toEqual({ layout: true, header: true, balanceCheck: true })
    const off = await parseFlags(
      registerImport,
      ['tx', 'import', 'f.csv', '--no-mapping', '--no-layout', '--no-header', '--no-progress', '--no-balance-check'],
      tx,
    )
    expect(off.opts).toEqual({ mapping: false, layout: false, header: false, progress: false, balanceCheck: false })
  })

  it('import: --map, --set, --where and --indicator-debit collect one value per flag', async () => {
    const { opts } = await parseFlags(
      registerImport,
      [
        'tx',
        'import',
        'f.csv',
        '--map',
        'description=Payee',
        '--map',
        'description=Memo',
        '--set',
        'currency_code=EUR',
        '--set',
        'tags=a,b',
        '--where',
        'Konto=123',
        '--indicator-debit',
        'S',
        '--indicator-debit',
        'D',
      ],
      tx,
    )
    expect(opts.map).toEqual(['description=Payee', 'description=Memo'])
    expect(opts.set).toEqual(['currency_code=EUR', 'tags=a,b'])
    expect(opts.where).toEqual(['Konto=123'])
    expect(opts.indicatorDebit).toEqual(['S', 'D'])
    // Unlike bulk-update's --set, one value each: a second word is an extra argument.
    expect((await parseError(registerImport, ['tx', 'import', 'f.csv', '--set', 'currency_code=EUR', 'tags=a'], tx)).code).toBe(
      'commander.excessArguments',
    )
  })

  it('review: --list is a switch, --limit and --below are text', async () => {
    const { opts } = await parseFlags(registerReview, ['tx', 'review', '--list', '--below', '0.95', '--limit', '20'], tx)
    expect(opts).toEqual({ list: true, below: '0.95', limit: '20' })
  })
})

/** `finctl accounts` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerCreate } from '../../../commands/accounts/create.js'
import { registerDelete } from '../../../commands/accounts/delete.js'
import { registerGet } from '../../../commands/accounts/get.js'
import { registerList } from '../../../commands/accounts/list.js'
import { registerTransactions } from '../../../commands/accounts/transactions.js'
import { registerUpdate } from '../../../commands/accounts/update.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('accounts flags', () => {
  it('list: --status and --type are any word here (the service checks them); no flag sets nothing', async () => {
    expect((await parseFlags(registerList, ['accounts', 'list'], 'accounts')).opts).toEqual({})
    const { opts } = await parseFlags(registerList, ['accounts', 'list', '--status', 'active', '--type', 'checking'], 'accounts')
    expect(opts).toEqual({ status: 'active', type: 'checking' })
  })

  it('get and delete: ID required', async () => {
    expect((await parseError(registerGet, ['accounts', 'get'], 'accounts')).code).toBe('commander.missingArgument')
    expect((await parseFlags(registerGet, ['accounts', 'get', 'Operating'], 'accounts')).args).toEqual(['Operating'])
    expect((await parseError(registerDelete, ['accounts', 'delete'], 'accounts')).code).toBe('commander.missingArgument')
  })

  it("delete: --yes after the verb is the program's flag, not the verb's own (the run reads both)", async () => {
    const { opts, globals } = await parseFlags(registerDelete, ['accounts', 'delete', 'A1', '--yes'], 'accounts')
    expect(opts.yes).toBeUndefined()
    expect(globals.yes).toBe(true)
  })

  it('create: every flag takes a value; nothing required by commander (it prompts)', async () => {
    expect((await parseFlags(registerCreate, ['accounts', 'create'], 'accounts')).opts).toEqual({})
    const { opts } = await parseFlags(
      registerCreate,
      [
        'accounts',
        'create',
        '--name',
        'Operating',
        '--opening-balance',
        '-20.00',
        '--opening-balance-date',
        '2026-01-01',
        '--opening-rate',
        '1.08',
      ],
      'accounts',
    )
    expect(opts).toEqual({ name: 'Operating', openingBalance: '-20.00', openingBalanceDate: '2026-01-01', openingRate: '1.08' })
    expect((await parseError(registerCreate, ['accounts', 'create', '--name'], 'accounts')).code).toBe('commander.optionMissingArgument')
  })

  it('update: "" is kept, to clear the institution and the account number', async () => {
    const { opts, args } = await parseFlags(
      registerUpdate,
      ['accounts', 'update', 'A1', '--institution-name', '', '--account-number', '', '--status', 'closed'],
      'accounts',
    )
    expect(args).toEqual(['A1'])
    expect(opts).toEqual({ institutionName: '', accountNumber: '', status: 'closed' })
  })

  it('transactions: the list filters without --account (the argument is the account)', async () => {
    const { opts, args } = await parseFlags(registerTransactions, ['accounts', 'transactions', 'A1', '--unreconciled', '--all'], 'accounts')
    expect(args).toEqual(['A1'])
    expect(opts).toEqual({ unreconciled: true, all: true })
    expect((await parseError(registerTransactions, ['accounts', 'transactions', 'A1', '--account', 'A2'], 'accounts')).code).toBe(
      'commander.unknownOption',
    )
  })
})

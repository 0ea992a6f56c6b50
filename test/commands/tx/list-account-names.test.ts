/**
 * One page of `tx list` as a table names its rows' accounts from the page's own answer
 * (`include_account_names`); a `finctl serve` from before refuses the parameter, and the command
 * reads the accounts' list and the page as it did then.
 */
import { describe, expect, it } from 'vitest'
import { listNamingAccounts } from '../../../commands/tx/list.js'
import type { VerbHost } from '../../../src/cli/runner.js'
import { accountNames } from '../../../src/cli/short-ids.js'
import type { Client, TransactionQuery } from '../../../src/client/client.js'
import { AppError } from '../../../src/kernel/errors.js'

const ROW = { id: 't1', bank_account_id: 'a1' }

/** A client whose transactions list knows the names (new) or refuses them (old); every call recorded. */
function fakeClient(server: 'new' | 'old' | 'forbidden', calls: string[]): Client {
  return {
    transactions: {
      list: async (q: TransactionQuery) => {
        calls.push(`list ${JSON.stringify(q)}`)
        if (q.include_account_names && server === 'old')
          throw new AppError('validation_error', 'invalid query', {
            details: [{ path: 'include_account_names', message: 'is not a field of this request' }],
          })
        if (q.include_account_names && server === 'forbidden') throw new AppError('forbidden', 'needs the read scope')
        return {
          status: 200,
          data: [ROW],
          headers: new Headers(),
          ...(q.include_account_names ? { accountNames: { a1: 'Named on the page' } } : {}),
        }
      },
    },
    accounts: {
      list: async () => {
        calls.push('accounts')
        return { status: 200, data: [{ id: 'a1', name: 'From the accounts list' }], headers: new Headers() }
      },
    },
  } as unknown as Client
}

const host = { printer: { format: 'table' }, io: {} } as unknown as VerbHost

describe('tx list: the accounts named with the page', () => {
  it('asks the page for its names and reads no list of the accounts', async () => {
    accountNames.clear()
    const calls: string[] = []
    const page = await listNamingAccounts(host, fakeClient('new', calls), { limit: 5 })
    expect(page.data).toEqual([ROW])
    expect(calls).toEqual(['list {"limit":5,"include_account_names":true}'])
    expect(accountNames.get('a1')).toBe('Named on the page')
  })

  it('from a server before the names: the accounts list, then the page without the parameter', async () => {
    accountNames.clear()
    const calls: string[] = []
    const page = await listNamingAccounts(host, fakeClient('old', calls), { limit: 5 })
    expect(page.data).toEqual([ROW])
    expect(calls).toEqual(['list {"limit":5,"include_account_names":true}', 'accounts', 'list {"limit":5}'])
    expect(accountNames.get('a1')).toBe('From the accounts list')
  })

  it('any other refusal is the command’s error', async () => {
    const calls: string[] = []
    await expect(listNamingAccounts(host, fakeClient('forbidden', calls), {})).rejects.toMatchObject({ code: 'forbidden' })
    expect(calls).toHaveLength(1)
  })
})

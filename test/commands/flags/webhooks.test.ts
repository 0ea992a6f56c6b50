/** `finctl webhooks` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerCreate } from '../../../commands/webhooks/create.js'
import { registerDelete } from '../../../commands/webhooks/delete.js'
import { registerDeliver } from '../../../commands/webhooks/deliver.js'
import { registerGet } from '../../../commands/webhooks/get.js'
import { registerList } from '../../../commands/webhooks/list.js'
import { registerTest } from '../../../commands/webhooks/test.js'
import { registerUpdate } from '../../../commands/webhooks/update.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('webhooks flags', () => {
  it('create: --url and --events are required', async () => {
    const err = await parseError(registerCreate, ['webhooks', 'create', '--url', 'https://erp.example.com/finctl'], 'webhooks')
    expect(err.code).toBe('commander.missingMandatoryOptionValue')
    expect(err.message).toContain('--events')
    const { opts } = await parseFlags(
      registerCreate,
      ['webhooks', 'create', '--url', 'https://h/x', '--events', 'transaction.created,transactions.imported'],
      'webhooks',
    )
    expect(opts).toEqual({ url: 'https://h/x', events: 'transaction.created,transactions.imported' })
  })

  it('update: ID required; "*" for every event; --enable and --disable are switches', async () => {
    expect((await parseError(registerUpdate, ['webhooks', 'update', '--enable'], 'webhooks')).code).toBe('commander.missingArgument')
    const { opts, args } = await parseFlags(registerUpdate, ['webhooks', 'update', 'W1', '--events', '*', '--enable'], 'webhooks')
    expect(args).toEqual(['W1'])
    expect(opts).toEqual({ events: '*', enable: true })
  })

  it("get, test, delete: ID required; delete's --yes after the verb is the program's flag", async () => {
    expect((await parseError(registerGet, ['webhooks', 'get'], 'webhooks')).code).toBe('commander.missingArgument')
    expect((await parseError(registerTest, ['webhooks', 'test'], 'webhooks')).code).toBe('commander.missingArgument')
    const { opts, globals } = await parseFlags(registerDelete, ['webhooks', 'delete', 'W1', '--yes'], 'webhooks')
    expect(opts.yes).toBeUndefined()
    expect(globals.yes).toBe(true)
  })

  it('list and deliver take no argument; deliver reads --quiet as the global flag', async () => {
    expect((await parseError(registerList, ['webhooks', 'list', 'W1'], 'webhooks')).code).toBe('commander.excessArguments')
    expect((await parseFlags(registerDeliver, ['webhooks', 'deliver', '--quiet'], 'webhooks')).globals.quiet).toBe(true)
  })
})

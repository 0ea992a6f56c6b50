/** `finctl events` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerGet } from '../../../commands/events/get.js'
import { registerList } from '../../../commands/events/list.js'
import { registerResend } from '../../../commands/events/resend.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('events flags', () => {
  it('list: no flag sets nothing; --type is one comma-separated value, --after and --limit text', async () => {
    expect((await parseFlags(registerList, ['events', 'list'], 'events')).opts).toEqual({})
    const { opts } = await parseFlags(
      registerList,
      ['events', 'list', '--type', 'transaction.created,transactions.imported', '--after', '120', '--all'],
      'events',
    )
    expect(opts).toEqual({ type: 'transaction.created,transactions.imported', after: '120', all: true })
  })

  it('get and resend: ID required; resend --endpoint takes an id', async () => {
    expect((await parseError(registerGet, ['events', 'get'], 'events')).code).toBe('commander.missingArgument')
    expect((await parseError(registerResend, ['events', 'resend', '--endpoint', 'W1'], 'events')).code).toBe('commander.missingArgument')
    const { opts, args } = await parseFlags(registerResend, ['events', 'resend', 'E1', '--endpoint', 'W1'], 'events')
    expect(args).toEqual(['E1'])
    expect(opts).toEqual({ endpoint: 'W1' })
  })
})

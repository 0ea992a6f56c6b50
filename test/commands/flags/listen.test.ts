/** `finctl listen` flag parsing through its runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerListen } from '../../../commands/listen.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('listen flags', () => {
  it('--forward-to and --events take values, --print-json is a switch; none by default', async () => {
    expect((await parseFlags(registerListen, ['listen'])).opts).toEqual({})
    const { opts } = await parseFlags(registerListen, [
      'listen',
      '--forward-to',
      'http://localhost:4242/webhooks',
      '--events',
      'transaction.created,transactions.imported',
      '--print-json',
    ])
    expect(opts).toEqual({
      forwardTo: 'http://localhost:4242/webhooks',
      events: 'transaction.created,transactions.imported',
      printJson: true,
    })
    expect((await parseError(registerListen, ['listen', 'http://localhost:4242'])).code).toBe('commander.excessArguments')
  })
})

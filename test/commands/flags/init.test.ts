/** `finctl init` flag parsing through its runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerInit } from '../../../commands/init.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('init flags', () => {
  it('no flag sets nothing; --no-input is the global flag', async () => {
    const { opts, globals } = await parseFlags(registerInit, ['init'])
    expect(opts).toEqual({})
    expect(globals.input).toBe(true)
    expect((await parseFlags(registerInit, ['init', '--no-input'])).globals.input).toBe(false)
  })

  it('--demo and --password-stdin are switches, --company, --currency, --email, --database take values', async () => {
    const { opts } = await parseFlags(registerInit, [
      'init',
      '--company',
      'Acme',
      '--currency',
      'EUR',
      '--email',
      'me@acme.test',
      '--password-stdin',
      '--database',
      'postgres://db/x',
      '--demo',
    ])
    expect(opts).toEqual({
      company: 'Acme',
      currency: 'EUR',
      email: 'me@acme.test',
      passwordStdin: true,
      database: 'postgres://db/x',
      demo: true,
    })
    expect((await parseError(registerInit, ['init', '--currency'])).code).toBe('commander.optionMissingArgument')
  })
})

/** `finctl login | logout | whoami` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerLogin } from '../../../commands/auth/login.js'
import { registerLogout } from '../../../commands/auth/logout.js'
import { registerWhoami } from '../../../commands/auth/whoami.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('auth flags', () => {
  it('login: --email takes a value, --password-stdin and --insecure-storage are switches', async () => {
    expect((await parseFlags(registerLogin, ['login'])).opts).toEqual({})
    const { opts, globals } = await parseFlags(registerLogin, [
      '--profile',
      'prod',
      'login',
      '--email',
      'me@acme.test',
      '--password-stdin',
      '--insecure-storage',
    ])
    expect(opts).toEqual({ email: 'me@acme.test', passwordStdin: true, insecureStorage: true })
    expect(globals.profile).toBe('prod')
    expect((await parseError(registerLogin, ['login', '--email'])).code).toBe('commander.optionMissingArgument')
  })

  it('login: --invite takes the invitation token, with --password-stdin for scripts', async () => {
    const { opts } = await parseFlags(registerLogin, ['login', '--invite', 'fdi_abc', '--password-stdin'])
    expect(opts).toEqual({ invite: 'fdi_abc', passwordStdin: true })
    expect((await parseError(registerLogin, ['login', '--invite'])).code).toBe('commander.optionMissingArgument')
  })

  it('login: no password flag (it is read from stdin or asked, never typed on the line)', async () => {
    expect((await parseError(registerLogin, ['login', '--password', 'x'])).code).toBe('commander.unknownOption')
  })

  it('logout and whoami take no argument; whoami --json is the global flag', async () => {
    expect((await parseError(registerLogout, ['logout', 'prod'])).code).toBe('commander.excessArguments')
    expect((await parseFlags(registerWhoami, ['whoami', '--json'])).globals.json).toBe(true)
  })
})

/** `finctl users` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerDisable } from '../../../commands/users/disable.js'
import { registerInvite } from '../../../commands/users/invite.js'
import { registerList } from '../../../commands/users/list.js'
import { registerSetRole } from '../../../commands/users/set-role.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('users flags', () => {
  it('list takes no argument nor flag', async () => {
    expect((await parseFlags(registerList, ['users', 'list'], 'users')).opts).toEqual({})
    expect((await parseError(registerList, ['users', 'list', 'x'], 'users')).code).toBe('commander.excessArguments')
  })

  it('invite: --email and --role take values', async () => {
    const { opts } = await parseFlags(registerInvite, ['users', 'invite', '--email', 'a@b.test', '--role', 'viewer'], 'users')
    expect(opts).toEqual({ email: 'a@b.test', role: 'viewer' })
    expect((await parseError(registerInvite, ['users', 'invite', '--role'], 'users')).code).toBe('commander.optionMissingArgument')
  })

  it('set-role: USER and --role', async () => {
    const { opts, args } = await parseFlags(registerSetRole, ['users', 'set-role', 'a@b.test', '--role', 'auditor'], 'users')
    expect(opts).toEqual({ role: 'auditor' })
    expect(args).toEqual(['a@b.test'])
    expect((await parseError(registerSetRole, ['users', 'set-role', '--role', 'auditor'], 'users')).code).toBe('commander.missingArgument')
  })

  it("disable: USER required; --yes after the verb is the program's flag (the run reads both)", async () => {
    const { opts, globals, args } = await parseFlags(registerDisable, ['users', 'disable', 'U1', '--yes'], 'users')
    expect(opts.yes).toBeUndefined()
    expect(globals.yes).toBe(true)
    expect(args).toEqual(['U1'])
    expect((await parseError(registerDisable, ['users', 'disable'], 'users')).code).toBe('commander.missingArgument')
  })
})

/** `finctl users` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerDisable } from '../../../commands/users/disable.js'
import { registerInvitations } from '../../../commands/users/invitations.js'
import { registerInvite } from '../../../commands/users/invite.js'
import { registerList } from '../../../commands/users/list.js'
import { registerRevokeInvite } from '../../../commands/users/revoke-invite.js'
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

  it('invitations: --all; revoke-invite: ID required', async () => {
    expect((await parseFlags(registerInvitations, ['users', 'invitations'], 'users')).opts).toEqual({})
    expect((await parseFlags(registerInvitations, ['users', 'invitations', '--all'], 'users')).opts).toEqual({ all: true })
    expect((await parseError(registerInvitations, ['users', 'invitations', 'x'], 'users')).code).toBe('commander.excessArguments')
    expect((await parseFlags(registerRevokeInvite, ['users', 'revoke-invite', 'I1'], 'users')).args).toEqual(['I1'])
    expect((await parseError(registerRevokeInvite, ['users', 'revoke-invite'], 'users')).code).toBe('commander.missingArgument')
  })
})

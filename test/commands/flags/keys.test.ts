/** `finctl keys` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerCreate } from '../../../commands/keys/create.js'
import { registerList } from '../../../commands/keys/list.js'
import { registerRevoke } from '../../../commands/keys/revoke.js'
import { registerRoll } from '../../../commands/keys/roll.js'
import { registerShow } from '../../../commands/keys/show.js'
import { registerUsage } from '../../../commands/keys/usage.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('keys flags', () => {
  it('list: --status defaults to all', async () => {
    expect((await parseFlags(registerList, ['keys', 'list'], 'keys')).opts).toEqual({ status: 'all' })
    expect((await parseFlags(registerList, ['keys', 'list', '--status', 'active'], 'keys')).opts).toEqual({ status: 'active' })
  })

  it('show takes no argument; usage: --recent defaults to 20', async () => {
    expect((await parseError(registerShow, ['keys', 'show', 'K1'], 'keys')).code).toBe('commander.excessArguments')
    expect((await parseFlags(registerUsage, ['keys', 'usage'], 'keys')).opts).toEqual({ recent: '20' })
    expect((await parseFlags(registerUsage, ['keys', 'usage', '--key-id', 'K1', '--recent', '50'], 'keys')).opts).toEqual({
      keyId: 'K1',
      recent: '50',
    })
  })

  it('create: its flags take values; --output-file and --overwrite', async () => {
    const { opts } = await parseFlags(
      registerCreate,
      ['keys', 'create', '--name', 'ci', '--scopes', 'read,transactions', '--expires-in', '90d', '--output-file', 'ci.key', '--overwrite'],
      'keys',
    )
    expect(opts).toEqual({ name: 'ci', scopes: 'read,transactions', expiresIn: '90d', outputFile: 'ci.key', overwrite: true })
  })

  it("create: --agent is a switch (an agent's key)", async () => {
    const { opts } = await parseFlags(registerCreate, ['keys', 'create', '--agent', '--name', 'claude', '--scopes', 'read,write'], 'keys')
    expect(opts).toEqual({ agent: true, name: 'claude', scopes: 'read,write' })
  })

  it('create: -o before the command is the output format', async () => {
    const { opts, globals } = await parseFlags(registerCreate, ['-o', 'json', 'keys', 'create', '--name', 'ci'], 'keys')
    expect(globals.output).toBe('json')
    expect(opts.outputFile).toBeUndefined()
  })

  // -o goes to --output-file only where that flag is hidden (export's); a key was once written to "json".
  it('create: -o json after the command is the output format, not a file named json', async () => {
    const { opts, globals } = await parseFlags(registerCreate, ['keys', 'create', '--name', 'ci', '-o', 'json'], 'keys')
    expect(opts.outputFile).toBeUndefined()
    expect(globals.output).toBe('json')
  })

  it('roll: -o json after the command is the output format, not a file named json', async () => {
    const { opts, globals } = await parseFlags(registerRoll, ['keys', 'roll', 'K1', '-o', 'json'], 'keys')
    expect(opts.outputFile).toBeUndefined()
    expect(globals.output).toBe('json')
  })

  it('roll: ID required; --grace defaults to 1h', async () => {
    expect((await parseError(registerRoll, ['keys', 'roll'], 'keys')).code).toBe('commander.missingArgument')
    const { opts, args } = await parseFlags(registerRoll, ['keys', 'roll', 'K1'], 'keys')
    expect(args).toEqual(['K1'])
    expect(opts).toEqual({ grace: '1h' })
    expect((await parseFlags(registerRoll, ['keys', 'roll', 'K1', '--grace', '0', '--save-profile', 'ci'], 'keys')).opts).toEqual({
      grace: '0',
      saveProfile: 'ci',
    })
  })

  it("revoke: ID required; --yes after the verb is the program's flag (the run reads both)", async () => {
    expect((await parseError(registerRevoke, ['keys', 'revoke'], 'keys')).code).toBe('commander.missingArgument')
    const { opts, globals } = await parseFlags(registerRevoke, ['keys', 'revoke', 'K1', '--yes'], 'keys')
    expect(opts.yes).toBeUndefined()
    expect(globals.yes).toBe(true)
  })
})

/** `finctl profile` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerAdd } from '../../../commands/profile/add.js'
import { registerList } from '../../../commands/profile/list.js'
import { registerProtect } from '../../../commands/profile/protect.js'
import { registerRemove } from '../../../commands/profile/remove.js'
import { registerShow } from '../../../commands/profile/show.js'
import { registerUnprotect } from '../../../commands/profile/unprotect.js'
import { registerUse } from '../../../commands/profile/use.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('profile flags', () => {
  it('add: NAME required; --use, --protected and --api-key-stdin are switches', async () => {
    expect((await parseError(registerAdd, ['profile', 'add', '--database', 'a.db'], 'profile')).code).toBe('commander.missingArgument')
    const { opts, args } = await parseFlags(
      registerAdd,
      ['profile', 'add', 'local2', '--database', 'a.db', '--use', '--protected', '--api-key-stdin'],
      'profile',
    )
    expect(args).toEqual(['local2'])
    expect(opts).toEqual({ database: 'a.db', use: true, protected: true, apiKeyStdin: true })
  })

  it("add: --base-url after the verb is the program's flag, not the verb's own (the run reads both)", async () => {
    const { opts, globals } = await parseFlags(
      registerAdd,
      ['profile', 'add', 'prod', '--base-url', 'https://finctl.example.com'],
      'profile',
    )
    expect(opts.baseUrl).toBeUndefined()
    expect(globals.baseUrl).toBe('https://finctl.example.com')
  })

  it('show: NAME optional (the current profile); list takes none', async () => {
    expect((await parseFlags(registerShow, ['profile', 'show'], 'profile')).args).toEqual([])
    expect((await parseFlags(registerShow, ['profile', 'show', 'prod'], 'profile')).args).toEqual(['prod'])
    expect((await parseError(registerList, ['profile', 'list', 'prod'], 'profile')).code).toBe('commander.excessArguments')
  })

  it('use, remove, protect, unprotect: NAME required', async () => {
    for (const [register, verb] of [
      [registerUse, 'use'],
      [registerRemove, 'remove'],
      [registerProtect, 'protect'],
      [registerUnprotect, 'unprotect'],
    ] as const) {
      expect((await parseError(register, ['profile', verb], 'profile')).code).toBe('commander.missingArgument')
      expect((await parseFlags(register, ['profile', verb, 'staging'], 'profile')).args).toEqual(['staging'])
    }
  })

  it('--profile before the group is the global flag, not a profile argument', async () => {
    const { args, globals } = await parseFlags(registerShow, ['--profile', 'prod', 'profile', 'show'], 'profile')
    expect(args).toEqual([])
    expect(globals.profile).toBe('prod')
  })
})

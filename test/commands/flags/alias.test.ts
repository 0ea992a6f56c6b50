/** `finctl alias` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { registerDelete } from '../../../commands/alias/delete.js'
import { registerList } from '../../../commands/alias/list.js'
import { registerSet } from '../../../commands/alias/set.js'
import type { RunVerb, Runner } from '../../../src/cli/runner.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

// set takes finctl's command names before its runF.
const set = (alias: Command, run: Runner, runF: RunVerb<{ clobber?: boolean }, any>) =>
  registerSet(alias, run, new Set(['tx', 'close']), runF)

describe('alias flags', () => {
  it('set: NAME and EXPANSION required; the quoted expansion is one argument, its flags are not parsed', async () => {
    expect((await parseError(set, ['alias', 'set', 'co'], 'alias')).code).toBe('commander.missingArgument')
    const { opts, args } = await parseFlags(set, ['alias', 'set', 'chase', 'tx list --account "Chase Checking" --json'], 'alias')
    expect(args).toEqual(['chase', 'tx list --account "Chase Checking" --json'])
    expect(opts).toEqual({})
  })

  it('set: an unquoted expansion is refused (one word too many), not cut short', async () => {
    expect((await parseError(set, ['alias', 'set', 'ls', 'tx', 'list'], 'alias')).code).toBe('commander.excessArguments')
  })

  it('set: --clobber is a switch', async () => {
    expect((await parseFlags(set, ['alias', 'set', 'co', 'close', '--clobber'], 'alias')).opts).toEqual({ clobber: true })
  })

  it('list takes no argument; delete needs NAME', async () => {
    expect((await parseError(registerList, ['alias', 'list', 'co'], 'alias')).code).toBe('commander.excessArguments')
    expect((await parseError(registerDelete, ['alias', 'delete'], 'alias')).code).toBe('commander.missingArgument')
    expect((await parseFlags(registerDelete, ['alias', 'delete', 'co'], 'alias')).args).toEqual(['co'])
  })
})

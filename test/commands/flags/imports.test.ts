/** `finctl imports` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerList } from '../../../commands/imports/list.js'
import { registerShow } from '../../../commands/imports/show.js'
import { registerRevert } from '../../../commands/imports/revert.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('imports flags', () => {
  it('list: --account, --kind and paging; no argument', async () => {
    expect((await parseFlags(registerList, ['imports', 'list'], 'imports')).opts).toEqual({})
    const { opts } = await parseFlags(
      registerList,
      ['imports', 'list', '--account', 'Main', '--kind', 'csv', '--limit', '5', '--all'],
      'imports',
    )
    expect(opts).toEqual({ account: 'Main', kind: 'csv', limit: '5', all: true })
    expect((await parseError(registerList, ['imports', 'list', 'B1'], 'imports')).code).toBe('commander.excessArguments')
  })

  it('show: BATCH required', async () => {
    expect((await parseError(registerShow, ['imports', 'show'], 'imports')).code).toBe('commander.missingArgument')
    const { args, globals } = await parseFlags(registerShow, ['imports', 'show', '1a2b3c4d', '--json'], 'imports')
    expect(args).toEqual(['1a2b3c4d'])
    expect(globals.json).toBe(true)
  })

  it('revert: BATCH required; --dry-run, --include-edited; --yes', async () => {
    expect((await parseError(registerRevert, ['imports', 'revert'], 'imports')).code).toBe('commander.missingArgument')
    const plain = await parseFlags(registerRevert, ['imports', 'revert', '1a2b3c4d'], 'imports')
    expect([plain.args, plain.opts]).toEqual([['1a2b3c4d'], {}])
    const { args, opts, globals } = await parseFlags(
      registerRevert,
      ['imports', 'revert', '1a2b3c4d', '--dry-run', '--include-edited', '--yes'],
      'imports',
    )
    expect(args).toEqual(['1a2b3c4d'])
    // --yes after the verb is the program's flag (the run reads both).
    expect(opts).toEqual({ dryRun: true, includeEdited: true })
    expect(globals.yes).toBe(true)
    expect((await parseError(registerRevert, ['imports', 'revert', 'a', 'b'], 'imports')).code).toBe('commander.excessArguments')
  })
})

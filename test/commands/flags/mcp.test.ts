/** `finctl mcp` flag parsing through its runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerMcp } from '../../../commands/mcp.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('mcp flags', () => {
  it('no flag: CSV text only; --files names the folder propose_import may read', async () => {
    expect((await parseFlags(registerMcp, ['mcp'])).opts).toEqual({})
    expect((await parseFlags(registerMcp, ['mcp', '--files', '/srv/exports'])).opts).toEqual({ files: '/srv/exports' })
    expect((await parseError(registerMcp, ['mcp', '--files'])).code).toBe('commander.optionMissingArgument')
  })
})

/** `finctl doctor` flag parsing through its runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerDoctor } from '../../../commands/doctor.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('doctor flags', () => {
  it('no flags of its own: the global ones after it, no argument', async () => {
    const { opts, globals } = await parseFlags(registerDoctor, ['doctor', '--profile', 'prod', '--json'])
    expect(opts).toEqual({})
    expect(globals).toMatchObject({ profile: 'prod', json: true })
    expect((await parseError(registerDoctor, ['doctor', 'prod'])).code).toBe('commander.excessArguments')
  })
})

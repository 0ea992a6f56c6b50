/** `finctl seed` flag parsing through its runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerSeed } from '../../../commands/seed.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('seed flags', () => {
  it('FILE required; --dry-run and --overwrite are switches, --env-out takes a file', async () => {
    expect((await parseError(registerSeed, ['seed', '--dry-run'])).code).toBe('commander.missingArgument')
    const { opts, args } = await parseFlags(registerSeed, ['seed', 'ci/seed.yaml', '--env-out', '.seed.env', '--overwrite', '--dry-run'])
    expect(args).toEqual(['ci/seed.yaml'])
    expect(opts).toEqual({ envOut: '.seed.env', overwrite: true, dryRun: true })
  })
})

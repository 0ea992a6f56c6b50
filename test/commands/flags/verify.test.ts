/** `finctl verify` flag parsing through its runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerVerify } from '../../../commands/verify.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('verify flags', () => {
  it('no flag: the whole chain; --close, --dir and --accounts-map take values', async () => {
    expect((await parseFlags(registerVerify, ['verify'])).opts).toEqual({})
    const { opts } = await parseFlags(registerVerify, ['verify', '--close', '2026-10', '--dir', 'books/', '--accounts-map', 'a.yaml'])
    expect(opts).toEqual({ close: '2026-10', dir: 'books/', accountsMap: 'a.yaml' })
    expect((await parseError(registerVerify, ['verify', '2026-10'])).code).toBe('commander.excessArguments')
    expect((await parseError(registerVerify, ['verify', '--close'])).code).toBe('commander.optionMissingArgument')
  })

  it('--pack and --public-key take values', async () => {
    const { opts } = await parseFlags(registerVerify, ['verify', '--pack', 'p.zip', '--public-key', 'KEY'])
    expect(opts).toEqual({ pack: 'p.zip', publicKey: 'KEY' })
    expect((await parseError(registerVerify, ['verify', '--pack'])).code).toBe('commander.optionMissingArgument')
  })
})

/** `finctl api` flag parsing through its runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerApi } from '../../../commands/api.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('api flags', () => {
  it('METHOD and PATH required, in that order', async () => {
    const err = await parseError(registerApi, ['api', 'GET'])
    expect(err.code).toBe('commander.missingArgument')
    expect(err.message).toContain("'path'")
    expect((await parseFlags(registerApi, ['api', 'GET', '/api-v1/company'])).args).toEqual(['GET', '/api-v1/company'])
  })

  it('-H repeats, collected in order; -d takes the body; -i and --paginate are switches', async () => {
    const { opts } = await parseFlags(registerApi, ['api', 'POST', '/x', '-H', 'X-A: 1', '--header', 'X-B: 2', '-d', '@-', '-i'])
    expect(opts).toEqual({ header: ['X-A: 1', 'X-B: 2'], data: '@-', include: true })
    expect((await parseFlags(registerApi, ['api', 'GET', '/x', '--paginate'])).opts).toEqual({ paginate: true })
  })

  it('a query string with --json after the path stays the path', async () => {
    const { args, globals } = await parseFlags(registerApi, ['api', 'GET', '/api-v1/transactions?status=pending', '--json'])
    expect(args).toEqual(['GET', '/api-v1/transactions?status=pending'])
    expect(globals.json).toBe(true)
  })
})

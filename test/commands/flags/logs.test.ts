/** `finctl logs` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerTail } from '../../../commands/logs/tail.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('logs flags', () => {
  it('tail: every filter takes a value; none set by default', async () => {
    expect((await parseFlags(registerTail, ['logs', 'tail'], 'logs')).opts).toEqual({})
    const { opts } = await parseFlags(
      registerTail,
      ['logs', 'tail', '--status', '4xx', '--method', 'POST', '--path', '/api-v1/transactions', '--key', 'fds_ab12'],
      'logs',
    )
    expect(opts).toEqual({ status: '4xx', method: 'POST', path: '/api-v1/transactions', key: 'fds_ab12' })
    expect((await parseError(registerTail, ['logs', 'tail', '--status'], 'logs')).code).toBe('commander.optionMissingArgument')
  })
})

/** `finctl serve` flag parsing through its runF: nothing runs (test/helpers/flag-parsing.ts). */
import { describe, expect, it } from 'vitest'
import { registerServe } from '../../../commands/serve.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

describe('serve flags', () => {
  it('defaults: 127.0.0.1:8080, 10 connections, log level info (as docs/cli.md and serving.md say)', async () => {
    expect((await parseFlags(registerServe, ['serve'])).opts).toEqual({ host: '127.0.0.1', port: '8080', poolSize: '10', logLevel: 'info' })
  })

  it('flags replace the defaults; --webhooks-allow-private is a switch', async () => {
    const { opts } = await parseFlags(registerServe, [
      'serve',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--database',
      'postgres://finctl@db/finctl',
      '--log-level',
      'warn',
      '--webhooks-allow-private',
    ])
    expect(opts).toEqual({
      host: '0.0.0.0',
      port: '0',
      poolSize: '10',
      logLevel: 'warn',
      database: 'postgres://finctl@db/finctl',
      webhooksAllowPrivate: true,
    })
    expect((await parseError(registerServe, ['serve', '--port'])).code).toBe('commander.optionMissingArgument')
  })

  it('--mcp is a switch; --mcp-files takes the folder', async () => {
    const { opts } = await parseFlags(registerServe, ['serve', '--mcp', '--mcp-files', '/srv/exports'])
    expect(opts).toMatchObject({ mcp: true, mcpFiles: '/srv/exports' })
  })
})

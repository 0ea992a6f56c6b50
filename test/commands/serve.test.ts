/**
 * `finctl serve` in process, up to where it would listen: its usage errors name the flag (exit 2)
 * before anything starts, and its flags reach the run function as the program parses them (a fake
 * run function through the real program). The server itself, its signals and its logs:
 * test/e2e/remote.test.ts, test/e2e/webhooks.test.ts and the other e2e files that start it.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { registerServe, type ServeHost, type ServeOptions } from '../../commands/serve.js'
import { runProgram } from '../../src/cli/program.js'
import { InProcessSandbox, memoryIO } from '../helpers/in-process-cli.js'

describe('serve, in process', () => {
  const sb = new InProcessSandbox('serve')
  afterAll(() => sb.cleanup())

  it('bad flags are exit 2 naming the flag, and nothing listens', async () => {
    for (const [args, message] of [
      [['--log-level', 'loud'], '--log-level loud: not one of debug, info, warn, error, silent'],
      [['--port', '65536'], '--port must be a number from 0 to 65535'],
      [['--port', 'http'], '--port must be a number from 0 to 65535'],
      [['--pool-size', '0'], '--pool-size must be a whole number of at least 1'],
    ] as const) {
      const r = await sb.run(['serve', ...args, '--database', sb.path('serve.db')])
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toContain(message)
      expect(r.stderr).not.toContain('listening on')
    }
  })

  it('its flags reach the run function with their defaults, and its host names the profile', async () => {
    const seen: Array<{ opts: ServeOptions; profile: unknown }> = []
    const fake = async (host: ServeHost, opts: ServeOptions) => {
      seen.push({ opts, profile: host.profile() })
      return 0
    }
    const run = (argv: string[]) =>
      runProgram(argv, memoryIO(sb.env()).io, {
        names: new Set(['serve']),
        register: async (program, runner) => registerServe(program, runner, fake),
        complete: async () => 0,
      })
    expect(await run(['serve'])).toBe(0)
    expect(await run(['serve', '--host', '0.0.0.0', '--port', '0', '--pool-size', '3', '--log-level', 'warn', '--database', 'x.db'])).toBe(
      0,
    )
    expect(seen).toEqual([
      { opts: { host: '127.0.0.1', port: '8080', poolSize: '10', logLevel: 'info' }, profile: undefined },
      { opts: { host: '0.0.0.0', port: '0', poolSize: '3', logLevel: 'warn', database: 'x.db' }, profile: undefined },
    ])
  })
})

/**
 * One company on each target, for a test that must hold on both: `embedded` (the core in this
 * process, on a SQLite file) and `remote` (a spawned `finctl serve` on its own file, the CLI in this
 * process through a profile `remote` with the base URL, an API key without rate limits and the
 * owner's login). Both run the CLI in process (test/helpers/in-process-cli.ts); each target is a
 * company of its own, so that a close on one does not touch the other.
 */
import { expect } from 'vitest'
import { type ServeProcess, spawnServe } from './cli.js'
import { type InProcessResult, type InProcessRunOptions, InProcessSandbox, fastKey } from './in-process-cli.js'

export type TargetKind = 'embedded' | 'remote'
export const TARGET_KINDS: TargetKind[] = ['embedded', 'remote']

export interface Target {
  kind: TargetKind
  sb: InProcessSandbox
  email: string
  /** The profile the commands use: `local` (embedded) or `remote`. */
  profile: string
  /** The service's URL (remote). */
  baseUrl?: string
  run(args: string[], o?: InProcessRunOptions): Promise<InProcessResult>
  ok(args: string[], o?: InProcessRunOptions): Promise<InProcessResult>
  json<T = any>(args: string[], o?: InProcessRunOptions): Promise<T>
  /** Stop the server (remote) and remove the sandbox. */
  close(): Promise<void>
}

const PASSWORD = 'password-for-two-targets'

/** A company on `kind`, its owner `owner@<name>.test` logged in on the profile the commands use. */
export async function openTarget(
  kind: TargetKind,
  name: string,
  o: { currency?: string; demo?: boolean; serveArgs?: string[] } = {},
): Promise<Target> {
  const sb = new InProcessSandbox(`${name}-${kind}`)
  const email = `owner@${name}.test`
  await sb.ok(
    [
      'init',
      '--company',
      `${name} Co`,
      '--currency',
      o.currency ?? 'USD',
      '--email',
      email,
      '--password-stdin',
      '--no-input',
      ...(o.demo ? ['--demo'] : []),
    ],
    {
      input: `${PASSWORD}\n`,
    },
  )
  const { key } = await fastKey(sb)
  let server: ServeProcess | undefined
  let env: Record<string, string> = {}
  if (kind === 'remote') {
    server = await spawnServe(['--database', sb.database, ...(o.serveArgs ?? [])], { cwd: sb.dir, env: sb.env(), stopTimeoutMs: 15_000 })
    await sb.ok(['profile', 'add', 'remote', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
    await sb.ok(['--profile', 'remote', 'login', '--email', email, '--password-stdin', '--no-input'], { input: `${PASSWORD}\n` })
    env = { FINCTL_PROFILE: 'remote' }
  }
  const run = (args: string[], ro: InProcessRunOptions = {}) => sb.run(args, { ...ro, env: { ...env, ...ro.env } })
  return {
    kind,
    sb,
    email,
    profile: kind === 'remote' ? 'remote' : 'local',
    baseUrl: server?.url,
    run,
    async ok(args, ro) {
      const r = await run(args, ro)
      expect(r.code, `finctl ${args.join(' ')} (${kind}) failed:\n${r.stderr}`).toBe(0)
      return r
    },
    async json(args, ro) {
      const r = await run(args, ro)
      expect(r.code, `finctl ${args.join(' ')} (${kind}) failed:\n${r.stderr}`).toBe(0)
      return JSON.parse(r.stdout)
    },
    async close() {
      try {
        if (server) {
          const { code, signal } = await server.stop()
          expect(signal, server.stderr()).toBeNull()
          expect(code, server.stderr()).toBe(0)
        }
      } finally {
        sb.cleanup()
      }
    },
  }
}

/**
 * End-to-end helpers: run the BUILT CLI (`node bin/finctl.cjs ...`) as a child process, each group
 * in its own temporary FINCTL_CONFIG_DIR, with no terminal (pipes only) and a clean environment.
 * Nothing from src/ is imported: these tests see finctl exactly as a user's shell does.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createHttpServer, type RequestListener } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect } from 'vitest'

export const ROOT = resolve(import.meta.dirname, '../..')
export const BIN = join(ROOT, 'bin', 'finctl.cjs')

/** A full API key as printed once by `keys create`. */
export const FULL_KEY = /^fds_[0-9A-Za-z]{43}$/
/** The same, anywhere in a text. */
export const FULL_KEY_ANYWHERE = /fds_[0-9A-Za-z]{43}/
/** The start of an ANSI escape sequence (colour, cursor). */
export const ANSI = '\x1b['

export interface CliResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface RunOptions {
  /** Written to the child's stdin, which is then closed (stdin is always a pipe, never a terminal). */
  input?: string
  /** Extra environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>
  timeoutMs?: number
}

function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'cli.cjs'))) {
    throw new Error('dist/cli.cjs is missing: run `npm run build` before the e2e tests')
  }
}

/** The parent's environment without anything that changes finctl's behaviour, plus `extra`. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if ((k.startsWith('FINCTL_') && k !== 'FINCTL_TEST_PASSWORD_COST') || k.startsWith('XDG_') || k.startsWith('VITEST')) continue
    if (['CI', 'FORCE_COLOR', 'NO_COLOR', 'NODE_OPTIONS', 'NODE_DISABLE_COLORS'].includes(k)) continue
    // Never the developer's own keyring (D-Bus session bus): a test that wants one starts its own.
    if (k === 'DBUS_SESSION_BUS_ADDRESS') continue
    env[k] = v
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }
  return env
}

/** Run `node bin/finctl.cjs ...args` and collect its exit code and output. */
export function runFinctl(
  args: string[],
  env: NodeJS.ProcessEnv,
  o: { cwd: string; input?: string; timeoutMs?: number },
): Promise<CliResult> {
  assertBuilt()
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: o.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`finctl ${args.join(' ')} did not finish in ${o.timeoutMs ?? 60_000} ms\nstderr: ${stderr}`))
    }, o.timeoutMs ?? 60_000)
    child.once('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      // finctl always exits by itself: a signal or a native assertion (better-sqlite3 on a Node.js it
      // was not built for) is a crash, whatever the test then checks.
      if (signal !== null || stderr.includes('Assertion failed')) {
        reject(new Error(`finctl ${args.join(' ')} crashed (${signal ?? `exit ${code}`}):\n${stderr}`))
        return
      }
      resolvePromise({ code, signal, stdout, stderr })
    })
    // EPIPE when the child exits without reading stdin is not an error of the test.
    child.stdin.on('error', () => {})
    child.stdin.end(o.input ?? '')
  })
}

/** One test group's world: a temporary folder that is FINCTL_CONFIG_DIR (and so the data folder too). */
/** A sandbox's profiles.json as finctl writes it (the fields the tests read). */
export interface ProfilesFile {
  current?: string
  profiles: Record<
    string,
    {
      target: string
      api_key?: string
      access_token?: string
      email?: string
      company_id?: string
      database?: string
      token_expires_at?: string
    }
  >
}

export const readProfiles = (path: string): ProfilesFile => JSON.parse(readFileSync(path, 'utf8')) as ProfilesFile

export class Sandbox {
  #dir: string | undefined
  /** Every full API key this group created, to look for in the database afterwards. */
  readonly secrets = new Set<string>()

  /**
   * Nothing is made here: a group may be built while its file is collected and then skipped.
   * `ownCache`: the launcher's code cache in the sandbox's home (~/.cache), not the run's shared one.
   */
  constructor(
    readonly name: string,
    private readonly o: { ownCache?: boolean } = {},
  ) {}

  /** The folder, made on first use (in a hook or a test). */
  get dir(): string {
    this.#dir ??= mkdtempSync(join(tmpdir(), `finctl-e2e-${this.name}-`))
    return this.#dir
  }

  get configDir(): string {
    return join(this.dir, 'config')
  }

  /** The embedded database `finctl init` creates when only FINCTL_CONFIG_DIR is set. */
  get database(): string {
    return join(this.configDir, 'finctl.db')
  }

  get profilesPath(): string {
    return join(this.configDir, 'profiles.json')
  }

  env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
    return cleanEnv({
      HOME: this.dir,
      XDG_CACHE_HOME: this.o.ownCache ? undefined : process.env.FINCTL_TEST_CACHE_HOME,
      FINCTL_CONFIG_DIR: this.configDir,
      // A refused request (429) is an answer at once, not a wait.
      FINCTL_MAX_RETRIES: '0',
      // Secrets stay in the sandbox's profiles.json; the keyring's own tests turn it on (keyring.test.ts).
      FINCTL_KEYRING: 'off',
      ...extra,
    })
  }

  run(args: string[], o: RunOptions = {}): Promise<CliResult> {
    return runFinctl(args, this.env(o.env), { cwd: this.dir, input: o.input, timeoutMs: o.timeoutMs })
  }

  /** Run, expect exit 0, and parse stdout as JSON. */
  async json<T = any>(args: string[], o: RunOptions = {}): Promise<T> {
    const r = await this.run(args, o)
    expect(r.code, `finctl ${args.join(' ')} failed:\n${r.stderr}`).toBe(0)
    return JSON.parse(r.stdout) as T
  }

  /** Run, expect exit 0. */
  async ok(args: string[], o: RunOptions = {}): Promise<CliResult> {
    const r = await this.run(args, o)
    expect(r.code, `finctl ${args.join(' ')} failed:\n${r.stderr}`).toBe(0)
    return r
  }

  profiles(): ProfilesFile {
    return readProfiles(this.profilesPath)
  }

  /** Remember a full key (and check its shape) so that the at-rest check looks for it. */
  remember(key: string | undefined): string {
    expect(key).toMatch(FULL_KEY)
    this.secrets.add(key!)
    return key!
  }

  cleanup(): void {
    // A process that is still exiting (a tmux pane's finctl after kill-server) may write one last file.
    if (this.#dir !== undefined) rmSync(this.#dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
}

/** The bytes of a SQLite database and of its -wal and -shm files when present. */
export function databaseFiles(database: string): Array<{ path: string; bytes: Buffer }> {
  return [database, `${database}-wal`, `${database}-shm`].filter((p) => existsSync(p)).map((p) => ({ path: p, bytes: readFileSync(p) }))
}

/** Split non-terminal table output (tab-separated, header line first) into rows of cells. */
export function tsv(stdout: string): string[][] {
  return stdout
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => line.split('\t'))
}

export interface ServeProcess {
  child: ChildProcess
  url: string
  /** Everything the server wrote on stderr so far. */
  stderr(): string
  /** SIGTERM (or the signal given), then wait for the exit; fails (and kills) after the stop timeout. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Stop the server of a group (when it started) and check it exited by itself with 0; then remove the sandbox. */
export async function stopServeAndCleanup(server: ServeProcess | undefined, sb: Pick<Sandbox, 'cleanup'> | undefined): Promise<void> {
  try {
    if (server) {
      const { code, signal } = await server.stop()
      expect(signal).toBeNull()
      expect(code, server.stderr()).toBe(0)
    }
  } finally {
    sb?.cleanup()
  }
}

/** Start `finctl serve --port 0 --database DB` in a sandbox (this one or an in-process one) and wait for its "listening on URL" line. */
export function startServe(sandbox: Pick<Sandbox, 'dir' | 'env'>, database: string): Promise<ServeProcess> {
  return spawnServe(['--database', database], { cwd: sandbox.dir, env: sandbox.env(), stopTimeoutMs: 15_000 })
}

/** `finctl serve --port 0 ...args`, stderr captured for its whole life, once it listens. */
export async function spawnServe(
  args: string[],
  o: { cwd?: string; env: NodeJS.ProcessEnv; stopTimeoutMs: number },
): Promise<ServeProcess> {
  assertBuilt()
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    cwd: o.cwd,
    env: o.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let err = ''
  // Keep draining stderr (access logs) for the whole life of the server, or it blocks on a full pipe.
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    child.once('exit', (code, signal) => res({ code, signal })),
  )
  const url = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`finctl serve did not start in 60 s:\n${err}`)), 60_000)
    const check = () => {
      const m = /listening on (http:\/\/\S+)/.exec(err)
      if (m) {
        clearTimeout(timer)
        child.stderr!.off('data', check)
        res(m[1])
      }
    }
    child.stderr!.on('data', check)
    void exited.then(({ code, signal }) => {
      clearTimeout(timer)
      rej(new Error(`finctl serve exited (${code ?? signal}) before listening:\n${err}`))
    })
  })
  return {
    child,
    url,
    stderr: () => err,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_, rej) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL') // leave no server behind, but fail: it should have stopped
          rej(new Error(`finctl serve did not stop within ${o.stopTimeoutMs / 1000} s of ${signal}:\n${err}`))
        }, o.stopTimeoutMs)
      })
      try {
        return await Promise.race([exited, timeout])
      } finally {
        clearTimeout(timer)
      }
    },
  }
}

/** A stand-in service on 127.0.0.1 (answers the real one never gives); `close` stops it. */
export async function listenLocal(handler: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createHttpServer(handler)
  server.keepAliveTimeout = 1
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

/** A local port with nothing listening on it (bound, then released). */
export function closedPort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer()
    s.once('error', rej)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => res(port))
    })
  })
}

/**
 * The database (and its -wal / -shm files when present) holds no full API key the group created,
 * nor any of `plain` (passwords). The key prefixes, which are stored on purpose, are found there:
 * proof that the search reads the right files.
 */
export function expectNoSecretsAtRest(sb: Pick<Sandbox, 'secrets'>, database: string, plain: string[] = []): void {
  const files = databaseFiles(database)
  expect(files.map((f) => f.path)).toContain(database)
  expect(sb.secrets.size).toBeGreaterThan(0)
  const all = Buffer.concat(files.map((f) => f.bytes))
  for (const key of sb.secrets) {
    expect(all.includes(Buffer.from(key.slice(0, 12))), `prefix ${key.slice(0, 12)} not found: wrong file?`).toBe(true)
    for (const f of files) expect(f.bytes.includes(Buffer.from(key)), `${f.path} holds a full API key`).toBe(false)
  }
  for (const secret of plain) {
    for (const f of files) expect(f.bytes.includes(Buffer.from(secret)), `${f.path} holds a secret in clear`).toBe(false)
  }
}

/**
 * A key for the `local` profile with rate limits that a long test file cannot reach (the key
 * `finctl init` makes allows 60 requests a minute). Made with `keys create --save-profile local`.
 */
export async function fastKey(sb: Sandbox): Promise<{ id: string; key: string }> {
  const created = await sb.json([
    'keys',
    'create',
    '--name',
    'e2e-fast',
    '--scopes',
    'read,write,transactions',
    '--rate-limit-per-minute',
    '1000000',
    '--rate-limit-per-day',
    '100000000',
    '--save-profile',
    'local',
    '--json',
  ])
  const key = sb.remember(sb.profiles().profiles.local.api_key)
  expect(key.slice(0, 12)).toBe(created.key_prefix)
  return { id: created.id, key }
}

/** One request to a running `finctl serve` with an API key: the status and the parsed envelope. */
export async function callApi(
  server: ServeProcess,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { 'x-api-key': apiKey, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}

/**
 * Run `fn` against `finctl serve` on the sandbox's database (for cheap bulk set-up through the
 * service's own endpoints), then stop the server and check that it stopped cleanly.
 */
export async function withServe<T>(sb: Sandbox, fn: (server: ServeProcess) => Promise<T>): Promise<T> {
  const server = await startServe(sb, sb.database)
  let result: T
  try {
    result = await fn(server)
  } finally {
    const { code, signal } = await server.stop()
    expect(signal, server.stderr()).toBeNull()
    expect(code, server.stderr()).toBe(0)
  }
  return result
}

/**
 * In-process command tests (cli/cli's way): the argv goes through the real program
 * (`commands/root.ts`: parsing, the Context, error reporting, exit codes) with an IO of memory
 * streams, in this process, against the embedded core on a SQLite file in a temporary folder.
 * No build, no child process: a command costs its own work, not Node's start.
 *
 * `InProcessSandbox` has the API of the spawning `Sandbox` (test/helpers/cli.ts), so a test moves
 * between the two by changing the class. What only a process shows (signals, pipes closing, the
 * exit of a process, Node lines, start-up) stays with `Sandbox` in test/e2e.
 *
 * Differences to know: relative paths resolve against the test process's folder (give absolute
 * paths, `sb.path('x.csv')`); settings the core reads from `process.env` (FINCTL_DATE_WINDOW,
 * FINCTL_RATE_MAX_AGE_DAYS) are the test process's, not `env`'s.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { expect } from 'vitest'
import { runProgram } from '../../commands/root.js'
import type { IO } from '../../src/cli/io.js'
import { FULL_KEY, type ProfilesFile, readProfiles, type ServeProcess, cleanEnv, startServe } from './cli.js'

export interface InProcessResult {
  code: number
  /** Always null: kept for the shape of the spawning Sandbox's result. */
  signal: null
  stdout: string
  stderr: string
}

export interface InProcessRunOptions {
  /** Stdin's text, then its end (stdin is never a terminal unless `tty.stdin`). */
  input?: string
  /** Extra environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>
  /** Which streams claim to be terminals (all false by default, as with the spawning Sandbox's pipes). */
  tty?: { stdout?: boolean; stderr?: boolean; stdin?: boolean }
  /** The terminal's width, when stdout is one. */
  columns?: number
  /** The command's clock (IO.now); the core keeps the real one. */
  now?: () => Date
  /** Kept for the spawning Sandbox's API; a command in process is not timed out here. */
  timeoutMs?: number
  /**
   * A person at the terminal, in order: once stderr shows the text (after what the previous step
   * waited for), the keys are typed. Stdin stays open while the command runs (an ended stdin ends a prompt).
   */
  script?: Array<[waitFor: string, keys: string]>
}

/** A fake IO of memory streams; `output()` gives what was written so far. */
export function memoryIO(
  env: NodeJS.ProcessEnv,
  o: Omit<InProcessRunOptions, 'env' | 'timeoutMs'> = {},
): { io: IO; output: () => { stdout: string; stderr: string } } {
  const stdout = Object.assign(new PassThrough(), o.columns === undefined ? {} : { columns: o.columns })
  const stderr = new PassThrough()
  const stdin = new PassThrough()
  let out = ''
  let err = ''
  stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
  stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
  if (o.script) {
    // A prompt ends the stream it draws on when it is answered; process.stderr ignores that, and so does this one.
    stderr.end = (() => stderr) as never
    const steps = [...o.script]
    let from = 0
    stderr.on('data', () => {
      const at = steps.length ? err.indexOf(steps[0][0], from) : -1
      if (at < 0) return
      const [waitFor, keys] = steps.shift()!
      from = at + waitFor.length
      // Typed once the prompt listens: after the frame that showed the text.
      setTimeout(() => stdin.write(keys), 20)
    })
    if (o.input) stdin.write(o.input)
  } else stdin.end(o.input ?? '')
  const io: IO = {
    stdout,
    stderr,
    stdin,
    isStdoutTTY: Boolean(o.tty?.stdout),
    isStderrTTY: Boolean(o.tty?.stderr),
    isStdinTTY: Boolean(o.tty?.stdin),
    env,
    now: o.now ?? (() => new Date()),
  }
  return { io, output: () => ({ stdout: out, stderr: err }) }
}

/** One test group's world in this process: a temporary folder that is HOME and holds FINCTL_CONFIG_DIR. */
export class InProcessSandbox {
  #dir: string | undefined
  /** Every full API key this group created, to look for in the database afterwards. */
  readonly secrets = new Set<string>()

  /** Nothing is made here: a group may be built while its file is collected and then skipped. */
  constructor(readonly name: string) {}

  /** The folder, made on first use (in a hook or a test). */
  get dir(): string {
    this.#dir ??= mkdtempSync(join(tmpdir(), `finctl-inproc-${this.name}-`))
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

  /** A path inside the sandbox's folder (commands in process do not run in it: give them absolute paths). */
  path(...parts: string[]): string {
    return join(this.dir, ...parts)
  }

  env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
    return cleanEnv({
      HOME: this.dir,
      FINCTL_CONFIG_DIR: this.configDir,
      // A refused request (429) is an answer at once, not a wait.
      FINCTL_MAX_RETRIES: '0',
      // Secrets stay in the sandbox's profiles.json, never in the keyring of the test's own session.
      FINCTL_KEYRING: 'off',
      ...extra,
    })
  }

  /** Run `finctl ...args` in this process and collect its exit code and output. */
  async run(args: string[], o: InProcessRunOptions = {}): Promise<InProcessResult> {
    const { io, output } = memoryIO(this.env(o.env), o)
    const code = await runProgram(args, io)
    if (o.script) (io.stdin as PassThrough).end()
    // Let the streams hand over what was written last.
    await new Promise((r) => setImmediate(r))
    return { code, signal: null, ...output() }
  }

  /** Run, expect exit 0, and parse stdout as JSON. */
  async json<T = any>(args: string[], o: InProcessRunOptions = {}): Promise<T> {
    const r = await this.run(args, o)
    expect(r.code, `finctl ${args.join(' ')} failed:\n${r.stderr}`).toBe(0)
    return JSON.parse(r.stdout) as T
  }

  /** Run, expect exit 0. */
  async ok(args: string[], o: InProcessRunOptions = {}): Promise<InProcessResult> {
    const r = await this.run(args, o)
    expect(r.code, `finctl ${args.join(' ')} failed:\n${r.stderr}`).toBe(0)
    return r
  }

  #accounts = 0

  /** A new bank account of a name of its own (`accounts create`); `flags`: more, a profile's among them. */
  async newAccount(o: { currency?: string; type?: string; flags?: string[] } = {}): Promise<string> {
    const { currency = 'USD', type = 'checking', flags = [] } = o
    const name = `${this.name} account ${++this.#accounts}`
    const args = ['accounts', 'create', '--name', name, '--type', type, '--currency', currency, '--json', ...flags]
    return (await this.json<{ id: string }>(args)).id
  }

  /** `tx create` of one row; its id. */
  async newTransaction(account: string, date: string, amount: string, description: string): Promise<string> {
    const args = ['tx', 'create', '--account', account, '--date', date, '--amount', amount, '--description', description, '--json']
    return (await this.json<{ id: string }>(args)).id
  }

  profiles(): ProfilesFile {
    return readProfiles(this.profilesPath)
  }

  /** Remember a full key (and check its shape) so that an at-rest check looks for it. */
  remember(key: string | undefined): string {
    expect(key).toMatch(FULL_KEY)
    this.secrets.add(key!)
    return key!
  }

  cleanup(): void {
    if (this.#dir !== undefined) rmSync(this.#dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
}

/**
 * A key for the `local` profile with rate limits that a test file cannot reach (the key `finctl
 * init` makes allows 60 requests a minute), as `fastKey` of test/helpers/cli.ts.
 */
export async function fastKey(sb: InProcessSandbox): Promise<{ id: string; key: string }> {
  const created = await sb.json<{ id: string; key_prefix: string }>([
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

/**
 * A sandbox on `currency`, `finctl serve` on its database and a profile `remote` towards it (a key
 * of `fastKey`): one company, the CLI in process on both ways in (`BOTH_TARGETS`).
 */
export async function servedSandbox(name: string, currency: string): Promise<{ sb: InProcessSandbox; server: ServeProcess }> {
  const sb = new InProcessSandbox(name)
  await sb.ok(['init', '--no-input', '--currency', currency])
  const { key } = await fastKey(sb)
  const server = await startServe(sb, sb.database)
  await sb.ok(['profile', 'add', 'remote', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
  return { sb, server }
}

/** The two ways in of a `servedSandbox`, for `describe.each`: the embedded core, and `--profile remote`. */
export const BOTH_TARGETS: Array<[string, string[]]> = [
  ['embedded', []],
  ['remote', ['--profile', 'remote']],
]

/**
 * What every command gets: its IO, the resolved global settings (flag > environment > profile >
 * default, one resolver per setting) and lazy thunks for the profile store and the client, so
 * `finctl --help` opens no database.
 */
import { Chalk, type ChalkInstance } from 'chalk'
import { AppError, databaseUnreachable } from '../kernel/errors.js'
import { didYouMean } from '../kernel/near-names.js'
import { redactPasswords } from '../kernel/redact.js'
import type { Client, RequestLog } from '../client/client.js'
import type { Target } from '../client/target.js'
import type { IO } from './io.js'
import { setMoneyLocale } from './money.js'
import { OUTPUT_FORMATS, type OutputFormat, type Printer, warn } from './output.js'
import { JSON_FIELDS, shapeOf } from './json-shape.js'
import { ProfileSecrets } from './credentials.js'
import { DEFAULT_PROFILE, ProfileStore, configDir, defaultDatabase, type Profile } from './profiles.js'
import { printableLine } from './terminal-text.js'

export interface GlobalOptions {
  profile?: string
  baseUrl?: string
  apiKey?: string
  token?: string
  output?: string
  /** true, or the FIELDS of `--json FIELDS` (json-shape.ts). */
  json?: boolean | string
  jq?: string
  /** --jq-timeout SECONDS, as typed (json-shape.ts checks it). */
  jqTimeout?: string
  template?: string
  quiet?: boolean
  verbose?: boolean
  color?: boolean
  input?: boolean
  debug?: boolean
  /** The locale amounts are written in for people (money.ts setMoneyLocale). */
  locale?: string
  /** Confirm without asking: destructive commands and writes through a protected profile. */
  yes?: boolean
}

export class Context {
  private store?: ProfileStore
  private secretsStore?: ProfileSecrets
  private clientPromise?: Promise<Client>
  private closers: Array<() => Promise<void>> = []
  private writeGate?: Promise<void>
  private settings?: { apiKey?: string; token?: string; maxRetries: number }
  private draft?: Profile
  readonly printer: Printer
  readonly chalk: ChalkInstance

  constructor(
    readonly io: IO,
    readonly globals: GlobalOptions,
    /** The command's path ("tx list"): which fields `--json FIELDS` may name. */
    command = '',
  ) {
    const env = io.env
    const force = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
    // NO_COLOR counts when set to a non-empty value (no-color.org).
    const color = force || (!env.NO_COLOR && globals.color !== false && io.isStdoutTTY)
    this.chalk = new Chalk({ level: color ? 1 : 0 })
    setMoneyLocale(globals.locale, env)
    const shape = shapeOf(globals, command)
    // jq loads on its thread meanwhile: the command's start is not the filter's (jq-thread.ts).
    if (shape?.jq !== undefined) void import('./jq-thread.js').then((m) => m.warmJqThread())
    const json = globals.json !== undefined && globals.json !== false
    const format = (json || shape ? 'json' : (globals.output ?? 'table')) as OutputFormat
    if (!OUTPUT_FORMATS.includes(format)) {
      throw new AppError('usage', `--output must be one of ${OUTPUT_FORMATS.join(', ')}`)
    }
    this.printer = { format, color, quiet: Boolean(globals.quiet), shape, fieldsKnown: JSON_FIELDS[command] !== undefined }
  }

  get env(): NodeJS.ProcessEnv {
    return this.io.env
  }

  profiles(): ProfileStore {
    this.store ??= new ProfileStore(this.env)
    return this.store
  }

  /** The profiles' secrets, in the OS keyring or the file (credentials.ts); the keyring loads on first use. */
  secrets(): ProfileSecrets {
    this.secretsStore ??= new ProfileSecrets(this.profiles(), configDir(this.env), this.env, (line) => warn(this.io, line))
    return this.secretsStore
  }

  /** --profile > FINCTL_PROFILE > the profile in use > "local" */
  profileName(): string {
    return this.globals.profile ?? this.env.FINCTL_PROFILE ?? this.profiles().current ?? DEFAULT_PROFILE
  }

  profile(): Profile | undefined {
    return this.profiles().get(this.profileName()) ?? this.draft
  }

  /**
   * `login` into a named profile that does not exist yet makes it, on the target the default
   * profile uses (unless --base-url or FINCTL_BASE_URL gives one), so that a second person on this
   * machine logs into the same books; kept in memory until the login saves it. The draft, or undefined.
   */
  draftProfile(): Profile | undefined {
    if (this.profile() || (this.globals.profile === undefined && this.env.FINCTL_PROFILE === undefined)) return undefined
    const base = this.profiles().get(this.profiles().current ?? DEFAULT_PROFILE)
    this.draft = { target: base?.target ?? 'embedded', ...(base?.database ? { database: base.database } : {}) }
    return this.draft
  }

  /** --base-url > FINCTL_BASE_URL: a remote target given outside the profile, and where it came from. */
  baseUrlSetting(): { url: string; from: '--base-url' | 'FINCTL_BASE_URL' } | undefined {
    if (this.globals.baseUrl) return { url: this.globals.baseUrl, from: '--base-url' }
    if (this.env.FINCTL_BASE_URL) return { url: this.env.FINCTL_BASE_URL, from: 'FINCTL_BASE_URL' }
    return undefined
  }

  /** --base-url > FINCTL_BASE_URL > the profile's target > embedded */
  target(): Target {
    const given = this.baseUrlSetting()
    if (given) return { kind: 'remote', baseUrl: httpUrl(given.url, given.from) }
    const p = this.profile()
    if (p && p.target !== 'embedded') return { kind: 'remote', baseUrl: p.target }
    return { kind: 'embedded', database: this.env.FINCTL_DATABASE ?? p?.database ?? defaultDatabase(this.env) }
  }

  /** --api-key > FINCTL_API_KEY > profile */
  apiKey(): string | undefined {
    if (this.globals.apiKey) {
      warn(this.io, 'an API key given as a flag is visible in process lists: use FINCTL_API_KEY or `finctl profile add --api-key-stdin`')
      return this.globals.apiKey
    }
    // With an explicit --base-url, the profile's key belongs to another target: do not send it there.
    if (this.env.FINCTL_API_KEY) return this.env.FINCTL_API_KEY
    return this.usesProfileCredentials() ? this.secrets().read(this.profileName(), 'api_key') : undefined
  }

  /** --token > FINCTL_TOKEN > profile */
  token(): string | undefined {
    if (this.globals.token) return this.globals.token
    if (this.env.FINCTL_TOKEN) return this.env.FINCTL_TOKEN
    return this.usesProfileCredentials() ? this.secrets().read(this.profileName(), 'access_token') : undefined
  }

  private usesProfileCredentials(): boolean {
    const url = this.baseUrlSetting()?.url
    if (!url) return true
    const p = this.profile()
    return p !== undefined && p.target === url
  }

  /** Prompts only when stdin and stderr are terminals, CI is unset and --no-input is not given. */
  canPrompt(): boolean {
    return this.io.isStdinTTY && this.io.isStderrTTY && !this.env.CI && this.globals.input !== false
  }

  /** The client for the resolved target, opened once. */
  client(opts: { apiKey?: string; token?: string; thread?: boolean } = {}): Promise<Client> {
    this.clientPromise ??= this.openClient(opts)
    return this.clientPromise
  }

  /**
   * Close the client opened so far; the next `client()` opens another. For a job that opens its own
   * (tx import's thread): the core of a lookup before it is not held through the whole job.
   */
  async releaseClient(): Promise<void> {
    if (!this.clientPromise) return
    await this.clientPromise.catch(() => undefined)
    this.clientPromise = undefined
    await this.close()
  }

  /**
   * A profile named by --profile or FINCTL_PROFILE must exist (unless --base-url or FINCTL_BASE_URL
   * says where to go): a typo is a usage error that lists the profiles, not a request without credentials.
   */
  private checkNamedProfile(): void {
    const from = this.globals.profile !== undefined ? '--profile' : this.env.FINCTL_PROFILE !== undefined ? 'FINCTL_PROFILE' : undefined
    if (!from || this.profile() || this.baseUrlSetting()) return
    const names = Object.keys(this.profiles().list())
    const known = names.length
      ? `the profiles are ${names.join(', ')} (finctl profile list)`
      : 'there is no profile yet: run `finctl init`, or `finctl profile add NAME --base-url URL`'
    throw new AppError(
      'usage',
      `profile "${this.profileName()}" (${from}) does not exist${didYouMean(names, this.profileName())}: ${known}`,
    )
  }

  private async openClient(override: { apiKey?: string; token?: string; thread?: boolean }): Promise<Client> {
    this.checkNamedProfile()
    const { Client, EMBEDDED_BASE_URL } = await import('../client/client.js')
    const target = this.target()
    const settings = this.clientSettings()
    const common = {
      apiKey: override.apiKey ?? settings.apiKey,
      token: override.token ?? settings.token,
      maxRetries: settings.maxRetries,
      onRequest: this.globals.verbose ? (l: RequestLog) => this.logRequest(l) : undefined,
      beforeWrite: this.writeGated() ? () => this.confirmWrite() : undefined,
    }
    if (target.kind === 'remote') {
      const { openRemote } = await import('../client/remote.js')
      const t = openRemote()
      this.closers.push(t.close)
      return new Client({ baseUrl: target.baseUrl, fetch: t.fetch, ...common })
    }
    // Long jobs run the core on a thread of its own (embedded/embedded-thread.ts): this thread then
    // never loads the core's modules.
    const open = override.thread
      ? (db: string) => import('../embedded/embedded-thread.js').then((m) => m.openEmbeddedThread(db))
      : (db: string) =>
          import('../embedded/embedded.js').then(({ openEmbedded, useLiteWebClasses }) => {
            // This process serves no HTTP: Hono may answer with the lite Response (embedded/in-process.ts).
            useLiteWebClasses()
            return openEmbedded(db)
          })
    // A database that cannot be opened (missing folder, read-only, not a database) is a target that
    // cannot be reached: say which, without a stack trace.
    const t = await open(target.database).catch((err: unknown) => {
      // A setting of the core's own (FINCTL_DATE_WINDOW) is the user's to fix, not the database.
      if (err instanceof AppError && err.code === 'usage') throw err
      throw databaseUnreachable(this.describeTarget(), err)
    })
    this.closers.push(t.close)
    return new Client({ baseUrl: EMBEDDED_BASE_URL, fetch: t.fetch, ...common })
  }

  /** Credentials and the 429 retry count for this command's clients, resolved once. */
  clientSettings(): { apiKey?: string; token?: string; maxRetries: number } {
    if (!this.settings) {
      const retries = this.env.FINCTL_MAX_RETRIES !== undefined ? Number(this.env.FINCTL_MAX_RETRIES) : 3
      this.settings = { apiKey: this.apiKey(), token: this.token(), maxRetries: Number.isFinite(retries) ? retries : 3 }
    }
    return this.settings
  }

  /** --verbose: one line per request on stderr. */
  logRequest(l: RequestLog): void {
    this.io.stderr.write(`${l.method} ${printableLine(l.url)} -> ${l.status} (${l.ms} ms)\n`)
  }

  /** Whether writes pass the gate: a remote target is named, a protected profile asks first. */
  writeGated(): boolean {
    return this.target().kind === 'remote' || this.protectedProfile() !== undefined
  }

  /** The gate, once per command, before its first write. */
  confirmWrite(): Promise<void> {
    this.writeGate ??= this.beforeFirstWrite()
    return this.writeGate
  }

  /** The name of the profile in use when it is marked protected (`profile add --protected`). */
  protectedProfile(): string | undefined {
    return this.profile()?.protected && this.usesProfileCredentials() ? this.profileName() : undefined
  }

  private async beforeFirstWrite(): Promise<void> {
    const { guardWrite } = await import('./write-guard.js')
    await guardWrite(this)
  }

  /** Describe the target for messages: the profile name and host, never a secret. */
  describeTarget(): string {
    const t = this.target()
    if (t.kind === 'embedded') return `embedded (${redactPasswords(t.database)})`
    try {
      return new URL(t.baseUrl).host
    } catch {
      return t.baseUrl
    }
  }

  async close(): Promise<void> {
    const closers = this.closers
    this.closers = []
    for (const c of closers.reverse()) await c()
  }
}

/** A remote target's URL as given, if it is an http(s) URL; a usage error naming where it came from otherwise. */
function httpUrl(url: string, from: string): string {
  const u = URL.parse(url)
  if (u && (u.protocol === 'http:' || u.protocol === 'https:') && u.host) return url
  throw new AppError(
    'usage',
    `${from} "${url}" is not an http(s) URL: give one such as http://127.0.0.1:8080 or https://finctl.example.com`,
  )
}

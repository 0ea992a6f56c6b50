/**
 * The profile store: one profile per target, with its credentials, in a `conf` file that is
 * written with mode 0600 inside a 0700 folder (a temporary file renamed over it), and never through
 * a symbolic link. FINCTL_CONFIG_DIR moves it (tests always set it).
 */
import { chmodSync, lstatSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type Conf from 'conf'
import { loadConf } from './conf-loader.js'
import { configDir } from './config-dir.js'
import { AppError } from '../kernel/errors.js'

export interface Profile {
  /** "embedded" or a base URL */
  target: string
  /** Embedded only: SQLite file path or postgres:// URL */
  database?: string
  api_key?: string
  access_token?: string
  token_expires_at?: string
  email?: string
  company_id?: string
  protected?: boolean
}

interface ProfileFile {
  current?: string
  profiles: Record<string, Profile>
}

export const DEFAULT_PROFILE = 'local'

export { configDir, dataDir, defaultDatabase } from './config-dir.js'

export class ProfileStore {
  /** conf, opened for the first write (or to create the file): reading the profiles does not load it. */
  private conf?: Conf<ProfileFile>
  private readonly dir: string
  readonly path: string

  constructor(env: NodeJS.ProcessEnv) {
    const dir = configDir(env)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    try {
      chmodSync(dir, 0o700)
    } catch {
      // not ours to change (a shared folder): the file itself is still 0600
    }
    // The file holds keys and tokens: written only as a file of its own, never through a link to another.
    const file = join(dir, 'profiles.json')
    if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink())
      throw new AppError('usage', `${file} is a symbolic link: finctl keeps credentials only in a regular file; put the file itself there`)
    this.dir = dir
    this.path = file
    // conf writes its defaults into a file that lacks them (a first start): let it, as it always did.
    const stored = readStored(file)
    if (stored === undefined || !Object.hasOwn(stored, 'profiles')) this.open()
  }

  private open(): Conf<ProfileFile> {
    this.conf ??= new (loadConf())<ProfileFile>({
      cwd: this.dir,
      configName: 'profiles',
      projectName: 'finctl',
      configFileMode: 0o600,
      defaults: { profiles: {} },
    })
    return this.conf
  }

  /** The file as conf reads it: read anew each time (another finctl may have written it). */
  private read(): ProfileFile {
    if (this.conf) return this.conf.store
    return { profiles: {}, ...readStored(this.path) }
  }

  get current(): string | undefined {
    return this.read().current
  }

  setCurrent(name: string): void {
    this.open().set('current', name)
  }

  list(): Record<string, Profile> {
    return this.read().profiles ?? {}
  }

  get(name: string): Profile | undefined {
    return this.list()[name]
  }

  set(name: string, profile: Profile): void {
    const all = { ...this.list(), [name]: stripUndefined(profile) }
    this.open().set('profiles', all)
  }

  update(name: string, patch: Partial<Profile>): Profile {
    const next = { ...(this.get(name) ?? { target: 'embedded' }), ...patch }
    this.set(name, next)
    return next
  }

  remove(name: string): boolean {
    const all = { ...this.list() }
    if (!(name in all)) return false
    delete all[name]
    const conf = this.open()
    conf.set('profiles', all)
    if (this.current === name) conf.delete('current')
    return true
  }
}

/** The JSON object in the file, or undefined when there is no file; a file that is no JSON throws, as conf does. */
function readStored(file: string): Partial<ProfileFile> | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw e
  }
  const { __internal__: _, ...stored } = JSON.parse(text) as Partial<ProfileFile> & { __internal__?: unknown }
  return stored
}

function stripUndefined(p: Profile): Profile {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as unknown as Profile
}

export function validProfileName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)
}

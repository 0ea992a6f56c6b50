/**
 * The profile store: one profile per target, with its credentials, in a private file of the config
 * folder (private-conf.ts: 0600 in a 0700 folder, never through a link). FINCTL_CONFIG_DIR moves it
 * (tests always set it).
 */
import type Conf from 'conf'
import { privateConf } from './private-conf.js'

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
  /** The secrets the OS keyring holds for this profile (credentials.ts); the file then holds none of them. */
  keyring?: Array<'api_key' | 'access_token'>
}

interface ProfileFile {
  current?: string
  profiles: Record<string, Profile>
  /** Command-line aliases (aliases.ts): name -> expansion. */
  aliases?: Record<string, string>
}

export const DEFAULT_PROFILE = 'local'

export { configDir, dataDir, defaultDatabase } from './config-dir.js'

export class ProfileStore {
  private readonly conf: Conf<ProfileFile>
  readonly path: string

  constructor(env: NodeJS.ProcessEnv) {
    // The file holds keys and tokens: written only as a file of its own, never through a link to another.
    this.conf = privateConf<ProfileFile>(
      env,
      'profiles',
      { profiles: {} },
      'finctl keeps credentials only in a regular file; put the file itself there',
    )
    this.path = this.conf.path
  }

  get current(): string | undefined {
    return this.conf.get('current')
  }

  setCurrent(name: string): void {
    this.conf.set('current', name)
  }

  list(): Record<string, Profile> {
    return this.conf.get('profiles') ?? {}
  }

  get(name: string): Profile | undefined {
    return this.list()[name]
  }

  set(name: string, profile: Profile): void {
    const all = { ...this.list(), [name]: stripUndefined(profile) }
    this.conf.set('profiles', all)
  }

  update(name: string, patch: Partial<Profile>): Profile {
    const next = { ...(this.get(name) ?? { target: 'embedded' }), ...patch }
    this.set(name, next)
    return next
  }

  aliases(): Record<string, string> {
    return this.conf.get('aliases') ?? {}
  }

  setAlias(name: string, expansion: string): void {
    this.conf.set('aliases', { ...this.aliases(), [name]: expansion })
  }

  deleteAlias(name: string): boolean {
    const all = { ...this.aliases() }
    if (!(name in all)) return false
    delete all[name]
    this.conf.set('aliases', all)
    return true
  }

  remove(name: string): boolean {
    const all = { ...this.list() }
    if (!(name in all)) return false
    delete all[name]
    this.conf.set('profiles', all)
    if (this.current === name) this.conf.delete('current')
    return true
  }
}

function stripUndefined(p: Profile): Profile {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as unknown as Profile
}

export function validProfileName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)
}

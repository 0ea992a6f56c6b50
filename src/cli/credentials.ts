/**
 * Where a profile's secrets (its API key, its login token) are kept: in the OS keyring when there
 * is one (macOS Keychain, Windows Credential Manager, the Secret Service on Linux), else in the
 * 0600 profiles file as before. The profile in the file then holds no secret, only `keyring`: the
 * names of the secrets the keyring holds for it. docs/credentials.md, "Where secrets are kept".
 *
 * The keyring's binding (@napi-rs/keyring, prebuilt for every platform) loads on the first read or
 * write of a secret in it, never on a command that needs none (start-up time).
 */
import { createRequire } from 'node:module'
import type { Profile, ProfileStore } from './profiles.js'

export const SECRETS = ['api_key', 'access_token'] as const
export type SecretName = (typeof SECRETS)[number]
export type Storage = 'keyring' | 'file'

/** The one interface a keyring is used through (the OS's, or a test double). Failures throw. */
export interface SecretStore {
  get(account: string): string | undefined
  set(account: string, secret: string): void
  delete(account: string): void
}

/** The keyring's service name; the account names profile, secret and config folder. */
export const KEYRING_SERVICE = 'finctl'

export function keyringAccount(configDir: string, profile: string, secret: SecretName): string {
  return `${profile}:${secret}@${configDir}`
}

interface KeyringModule {
  Entry: new (
    service: string,
    account: string,
    options?: { linux?: { store?: 'secret-service' } },
  ) => {
    getPassword(): string | null
    setPassword(s: string): void
    deletePassword(): boolean
  }
}

/** The OS keyring. On Linux only the Secret Service: the kernel keyring the binding would fall back to forgets at reboot. */
export function osKeyring(): SecretStore {
  let mod: KeyringModule | undefined
  const entry = (account: string) => {
    mod ??= createRequire(import.meta.url)('@napi-rs/keyring') as KeyringModule
    return new mod.Entry(KEYRING_SERVICE, account, process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined)
  }
  return {
    get: (a) => entry(a).getPassword() ?? undefined,
    set: (a, s) => entry(a).setPassword(s),
    delete: (a) => {
      entry(a).deletePassword()
    },
  }
}

/** A keyring failure as one line (the binding's message, no stack). */
export function keyringReason(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err)
  // A server or container without a desktop session: libdbus's own words name X11 autolaunch.
  if (/DBUS_SESSION_BUS_ADDRESS/.test(text)) return 'no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set'
  return text.split('\n')[0].replace(/\s+/g, ' ').trim().slice(0, 200) || 'unknown error'
}

/** For messages: where secrets were saved. */
export function storageWords(where: Storage | undefined): string {
  return where === 'keyring' ? 'in the OS keyring' : 'in profiles.json (mode 0600)'
}

const WORDS: Record<SecretName, string> = { api_key: 'API key', access_token: 'login token' }

export interface SaveOptions {
  /** `--insecure-storage`: the file, even when a keyring answers. */
  insecure?: boolean
  /** Replace the whole profile (init) rather than merging into it. */
  replace?: boolean
}

/** Reads and writes a profile's secrets in the keyring or the file; `notice` prints a one-line message. */
export class ProfileSecrets {
  private readonly cache = new Map<string, string | undefined>()
  /** Accounts the keyring failed to read (not: had no entry for). */
  private readonly unreadable = new Set<string>()
  private store?: SecretStore

  constructor(
    private readonly profiles: ProfileStore,
    private readonly configDir: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly notice: (line: string) => void,
    private readonly openKeyring: () => SecretStore = osKeyring,
  ) {}

  private keyring(): SecretStore {
    this.store ??= this.openKeyring()
    return this.store
  }

  /** FINCTL_KEYRING=off keeps every secret in the file, without trying the keyring. */
  keyringEnabled(): boolean {
    return this.env.FINCTL_KEYRING !== 'off'
  }

  /** Where a profile's secret is kept, without reading it. */
  where(p: Profile | undefined, secret: SecretName): Storage | undefined {
    if (p?.[secret]) return 'file'
    return p?.keyring?.includes(secret) ? 'keyring' : undefined
  }

  account(profile: string, secret: SecretName): string {
    return keyringAccount(this.configDir, profile, secret)
  }

  /** The secret, from wherever it is; a keyring that cannot be read is a notice, and no secret. */
  read(name: string, secret: SecretName): string | undefined {
    const p = this.profiles.get(name)
    if (p?.[secret]) return p[secret]
    if (!p?.keyring?.includes(secret)) return undefined
    const account = this.account(name, secret)
    if (this.cache.has(account)) return this.cache.get(account)
    let value: string | undefined
    try {
      value = this.keyring().get(account)
      if (value === undefined)
        this.notice(
          `the ${WORDS[secret]} of profile "${name}" is missing from the OS keyring: ${secret === 'api_key' ? `keep a new one with \`finctl keys create --save-profile ${name}\`` : 'run `finctl login`'}`,
        )
    } catch (err) {
      this.unreadable.add(account)
      this.notice(`the ${WORDS[secret]} of profile "${name}" is in the OS keyring, which cannot be read (${keyringReason(err)})`)
    }
    this.cache.set(account, value)
    return value
  }

  /**
   * Save a profile with its secrets: to the keyring unless `insecure` (or FINCTL_KEYRING=off), to the
   * file when the keyring fails (one notice). Secrets already kept move with it and leave the old
   * place. Returns where the secrets are now (undefined: the profile holds none).
   */
  save(name: string, patch: Partial<Profile>, o: SaveOptions = {}): Storage | undefined {
    const old = this.profiles.get(name)
    const base: Partial<Profile> = o.replace ? {} : { ...old }
    const values: Partial<Record<SecretName, string>> = {}
    // Kept in a keyring that cannot be read now: left where they are, never deleted.
    const unread: SecretName[] = []
    for (const s of SECRETS) {
      const given = patch[s]
      if (given) values[s] = given
      else if (!o.replace && this.where(old, s) !== undefined) {
        const v = this.read(name, s)
        if (v) values[s] = v
        else if (this.unreadable.has(this.account(name, s))) unread.push(s)
      }
    }
    const next: Profile = { target: 'embedded', ...base, ...patch } as Profile
    for (const s of SECRETS) delete next[s]
    delete next.keyring
    const held = SECRETS.filter((s) => values[s])
    let where: Storage | undefined = held.length ? 'file' : undefined
    if (held.length && !o.insecure && this.keyringEnabled()) {
      const written: SecretName[] = []
      try {
        for (const s of held) {
          this.keyring().set(this.account(name, s), values[s] as string)
          written.push(s)
        }
        where = 'keyring'
      } catch (err) {
        // All in one place: what went in before the failure comes out again (best effort).
        for (const s of written.filter((w) => !old?.keyring?.includes(w))) {
          try {
            this.keyring().delete(this.account(name, s))
          } catch {
            // the keyring that just failed: nothing more to do
          }
        }
        this.notice(
          `the OS keyring is not available (${keyringReason(err)}): the secrets of profile "${name}" are kept in profiles.json (mode 0600)`,
        )
      }
    }
    if (where !== 'keyring') Object.assign(next, values)
    const listed = SECRETS.filter((s) => (where === 'keyring' && held.includes(s)) || unread.includes(s))
    if (listed.length) next.keyring = listed
    this.profiles.set(name, next)
    // The new place holds them: now clear the old one (a profile replaced whole drops its other secrets too).
    const stale = SECRETS.filter((s) => old?.keyring?.includes(s) && !unread.includes(s) && (where !== 'keyring' || !held.includes(s)))
    this.forgetInKeyring(name, stale)
    for (const s of held) this.cache.set(this.account(name, s), values[s])
    return where
  }

  /** Remove secrets of a profile (logout, profile remove) from both places. */
  forget(name: string, secrets: readonly SecretName[], o: { removeProfile?: boolean } = {}): void {
    const p = this.profiles.get(name)
    if (!p) return
    const inKeyring = secrets.filter((s) => p.keyring?.includes(s))
    if (!o.removeProfile) {
      const next: Profile = { ...p }
      for (const s of secrets) delete next[s]
      const left = (p.keyring ?? []).filter((s) => !secrets.includes(s))
      if (left.length) next.keyring = left
      else delete next.keyring
      this.profiles.set(name, next)
    }
    this.forgetInKeyring(name, inKeyring)
  }

  private forgetInKeyring(name: string, secrets: readonly SecretName[]): void {
    if (secrets.length === 0) return
    try {
      for (const s of secrets) {
        this.keyring().delete(this.account(name, s))
        this.cache.delete(this.account(name, s))
      }
    } catch (err) {
      this.notice(`could not remove the old secrets of profile "${name}" from the OS keyring (${keyringReason(err)})`)
    }
  }
}

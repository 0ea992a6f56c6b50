/**
 * The companies' pack keys this user has seen (docs/closing.md, "Checking a pack"): company id ->
 * Ed25519 public key, pinned the first time a pack of the company is checked, when --public-key
 * is given, or when `finctl company` shows the key, as ssh's known_hosts pins a host's key. A
 * later pack signed with another key is then refused offline. One file in the config folder,
 * mode 0600, written whole (a temporary file renamed over it) and never through a link.
 */
import { join } from 'node:path'
import type Conf from 'conf'
import { configDir } from './config-dir.js'
import { AppError } from '../kernel/errors.js'
import { keyFingerprint, type PackVerification, type PinnedKey } from '../jobs/pack/verify.js'
import { privateConf } from './private-conf.js'

export const KNOWN_KEYS_FILE = 'known-company-keys.json'

export interface KnownKey {
  public_key: string
  company_name: string | null
  pinned_at: string
  /** How it was pinned: the first pack checked, --public-key, or `finctl company`. */
  source: 'first-pack' | 'public-key' | 'company-show'
}

export class KnownKeys {
  private readonly conf: Conf<{ companies: Record<string, KnownKey> }>
  readonly path: string

  constructor(env: NodeJS.ProcessEnv) {
    // A key pinned through a link could be pinned in a file someone else controls.
    this.conf = privateConf(env, 'known-company-keys', { companies: {} }, "finctl keeps the companies' keys only in a regular file")
    this.path = this.conf.path
  }

  get(companyId: string): KnownKey | undefined {
    const all = this.conf.get('companies')
    return Object.hasOwn(all, companyId) ? all[companyId] : undefined
  }

  pin(companyId: string, key: Omit<KnownKey, 'pinned_at'>, now: Date): void {
    this.conf.set('companies', { ...this.conf.get('companies'), [companyId]: { ...key, pinned_at: now.toISOString() } })
  }
}

/** The store, and a lookup for verify; when the folder cannot be read, no store and a note saying what that leaves unchecked. */
export interface OpenedKnownKeys {
  store: KnownKeys | null
  lookup: (companyId: string) => PinnedKey | undefined
  note: string | null
}

export function openKnownKeys(env: NodeJS.ProcessEnv): OpenedKnownKeys {
  let store: KnownKeys | null = null
  let note: string | null = null
  try {
    store = new KnownKeys(env)
  } catch (e) {
    if (e instanceof AppError) throw e
    note = `the companies' pinned keys (${join(configDir(env), KNOWN_KEYS_FILE)}) could not be read (${(e as Error).message}): the signature was not checked against a pinned key, and none was pinned`
  }
  const lookup = (companyId: string): PinnedKey | undefined => {
    const k = store?.get(companyId)
    return k && store ? { public_key: k.public_key, pinned_at: k.pinned_at, where: store.path } : undefined
  }
  return { store, lookup, note }
}

/**
 * After a pack is checked: a key that proved it whole is pinned for its company when none was (the
 * first pack: said plainly, it was checked against nothing) or when given with --public-key (which
 * replaces the pinned one: how a rotated key is accepted on purpose).
 */
export function pinPackKey(known: OpenedKnownKeys, r: PackVerification, now: Date): void {
  const store = known.store
  const key = r.key
  if (!key) return
  const company = `company ${r.company_id ?? '?'}${r.company ? ` (${r.company})` : ''}`
  const unchecked = `give --public-key (finctl company prints it) to know that the company signed it`
  if (!store || !r.intact || r.company_id === null || key.source === 'known') {
    if (key.source === 'pack') r.notes.push(`the signature was checked with the key in the pack: ${unchecked}`)
    return
  }
  const before = store.get(r.company_id)
  if (before?.public_key === key.public_key) return
  try {
    store.pin(
      r.company_id,
      { public_key: key.public_key, company_name: r.company, source: key.source === 'given' ? 'public-key' : 'first-pack' },
      now,
    )
  } catch (e) {
    // The pack was checked; only remembering its key failed: said, not an error.
    r.notes.push(`the key ${key.fingerprint} could not be pinned in ${store.path} (${(e as Error).message}): ${unchecked}`)
    return
  }
  if (key.source === 'pack')
    r.notes.push(
      `first pack of ${company} checked here: its key ${key.fingerprint} was pinned now in ${store.path}, and was not checked against anything; ${unchecked}. A later pack of the company signed with another key is refused`,
    )
  else if (before)
    r.notes.push(
      `the key given (${key.fingerprint}) replaces the one pinned for ${company} (${keyFingerprint(before.public_key)}, pinned ${before.pinned_at}) in ${store.path}`,
    )
  else r.notes.push(`the key given (${key.fingerprint}) is pinned now for ${company} in ${store.path}`)
}

/**
 * `finctl company` shows the key the service holds: pinned when none is for the company. One that
 * differs from the pinned key is not replaced here (a profile may point at any service): a warning
 * says so, and how to replace it.
 */
export function pinCompanyKey(
  env: NodeJS.ProcessEnv,
  c: { id: string; name: string; pack_public_key?: string | null },
  now: Date,
): string | null {
  if (!c.pack_public_key) return null
  let store: KnownKeys
  try {
    store = new KnownKeys(env)
  } catch {
    return null // showing the company does not depend on the pinned keys
  }
  const before = store.get(c.id)
  if (!before) {
    try {
      store.pin(c.id, { public_key: c.pack_public_key, company_name: c.name, source: 'company-show' }, now)
    } catch {
      // as above: the company is shown all the same
    }
    return null
  }
  if (before.public_key === c.pack_public_key) return null
  return `warning: the company's pack key ${keyFingerprint(c.pack_public_key)} is not the one pinned for it (${keyFingerprint(before.public_key)}, pinned ${before.pinned_at}) in ${store.path}: verify --pack refuses its packs until given --public-key with the new key, which replaces the pinned one`
}

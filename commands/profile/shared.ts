/** What the verbs of `finctl profile` share: their host, a profile as shown, protecting one. */
import type { Context } from '../../src/cli/context.js'
import { mask } from '../../src/cli/format.js'
import { note } from '../../src/cli/output.js'
import type { Profile } from '../../src/cli/profiles.js'
import type { VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { didYouMean } from '../../src/kernel/near-names.js'
import { redactPasswords } from '../../src/kernel/redact.js'

/** The host of the `profile` verbs: the profile store, the secrets, the current profile's name. */
export type ProfileHost = VerbHost & Pick<Context, 'profiles' | 'secrets' | 'profileName'>

/** A profile that is not there: exit 5, the nearest names suggested. */
export function noProfile(host: Pick<Context, 'profiles'>, name: string): AppError {
  const near = didYouMean(Object.keys(host.profiles().list()), name)
  return new AppError('not_found', `no profile named "${name}"${near}: see \`finctl profile list\``)
}

/** Where a profile keeps a secret, read from the file alone (the keyring is not opened to list profiles). */
function storage(p: Profile, secret: 'api_key' | 'access_token'): string | null {
  return p[secret] ? 'profiles.json' : p.keyring?.includes(secret) ? 'keyring' : null
}

export function describe(name: string, p: Profile, current: boolean) {
  return {
    name,
    current,
    target: p.target,
    database: p.database ? redactPasswords(p.database) : null,
    api_key: p.api_key ? mask(p.api_key) : p.keyring?.includes('api_key') ? 'set' : null,
    access_token: p.access_token || p.keyring?.includes('access_token') ? 'set' : null,
    api_key_storage: storage(p, 'api_key'),
    access_token_storage: storage(p, 'access_token'),
    token_expires_at: p.token_expires_at ?? null,
    email: p.email ?? null,
    protected: Boolean(p.protected),
  }
}

/** `profile protect` and `profile unprotect`: the mark set or taken away; a profile not there is exit 5. */
export function setProtected(host: ProfileHost, name: string, on: boolean): number {
  if (!host.profiles().get(name)) throw noProfile(host, name)
  host.profiles().update(name, { protected: on || undefined })
  note(
    host.io,
    host.printer,
    on
      ? `profile "${name}" is protected: writes through it ask to type its name (or need --yes)`
      : `profile "${name}" is no longer protected`,
  )
  return 0
}

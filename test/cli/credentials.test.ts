/**
 * Where a profile's secrets are kept (src/cli/credentials.ts), through a test double of the keyring
 * behind the same SecretStore interface the OS keyring implements. The real Secret Service is
 * exercised through the built CLI in test/e2e/keyring.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ProfileSecrets, type SecretStore, keyringAccount, keyringReason } from '../../src/cli/credentials.js'
import { ProfileStore } from '../../src/cli/profiles.js'

class MemoryKeyring implements SecretStore {
  readonly entries = new Map<string, string>()
  failing: string | undefined
  opened = 0
  get(account: string): string | undefined {
    this.check()
    return this.entries.get(account)
  }
  set(account: string, secret: string): void {
    this.check()
    this.entries.set(account, secret)
  }
  delete(account: string): void {
    this.check()
    this.entries.delete(account)
  }
  private check(): void {
    if (this.failing) throw new Error(`${this.failing}\n    at native code`)
  }
}

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function world(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'finctl-credentials-'))
  dirs.push(dir)
  const keyring = new MemoryKeyring()
  const notices: string[] = []
  const profiles = new ProfileStore({ FINCTL_CONFIG_DIR: dir })
  const secrets = new ProfileSecrets(
    profiles,
    dir,
    env,
    (l) => notices.push(l),
    () => {
      keyring.opened++
      return keyring
    },
  )
  const file = () => readFileSync(join(dir, 'profiles.json'), 'utf8')
  return {
    dir,
    keyring,
    notices,
    profiles,
    secrets,
    file,
    account: (p: string, s: 'api_key' | 'access_token') => keyringAccount(dir, p, s),
  }
}

describe('profile secrets', () => {
  it('go to the keyring when it answers: the file keeps only which secrets it holds', () => {
    const w = world()
    expect(w.secrets.save('local', { target: 'embedded', api_key: 'fds_key', access_token: 'jwt.token' }, { replace: true })).toBe(
      'keyring',
    )
    expect(w.file()).not.toContain('fds_key')
    expect(w.file()).not.toContain('jwt.token')
    expect(w.profiles.get('local')).toEqual({ target: 'embedded', keyring: ['api_key', 'access_token'] })
    expect(w.keyring.entries.get(w.account('local', 'api_key'))).toBe('fds_key')
    const fresh = new ProfileSecrets(
      w.profiles,
      w.dir,
      {},
      () => {},
      () => w.keyring,
    )
    expect(fresh.read('local', 'api_key')).toBe('fds_key')
    expect(fresh.read('local', 'access_token')).toBe('jwt.token')
    expect(w.notices).toEqual([])
  })

  it('--insecure-storage moves them to the file and out of the keyring; a later save moves them back', () => {
    const w = world()
    w.secrets.save('local', { target: 'embedded', api_key: 'fds_key', access_token: 'old' }, { replace: true })
    expect(w.secrets.save('local', { access_token: 'new' }, { insecure: true })).toBe('file')
    expect(w.profiles.get('local')).toEqual({ target: 'embedded', api_key: 'fds_key', access_token: 'new' })
    expect(w.keyring.entries.size).toBe(0)
    expect(w.secrets.save('local', { access_token: 'newer' })).toBe('keyring')
    expect(w.profiles.get('local')).toEqual({ target: 'embedded', keyring: ['api_key', 'access_token'] })
    expect([...w.keyring.entries.values()].sort()).toEqual(['fds_key', 'newer'])
  })

  it('a keyring that fails falls back to the file with one line, never a stack', () => {
    const w = world()
    w.keyring.failing = 'Platform failure: DBus error: no session bus'
    expect(w.secrets.save('local', { target: 'embedded', api_key: 'fds_key' }, { replace: true })).toBe('file')
    expect(w.profiles.get('local')).toEqual({ target: 'embedded', api_key: 'fds_key' })
    expect(w.notices).toEqual([
      'the OS keyring is not available (Platform failure: DBus error: no session bus): the secrets of profile "local" are kept in profiles.json (mode 0600)',
    ])
    expect(w.secrets.read('local', 'api_key')).toBe('fds_key')
  })

  it('a keyring that fails half-way keeps nothing: both secrets go to the file', () => {
    const w = world()
    const set = w.keyring.set.bind(w.keyring)
    let calls = 0
    w.keyring.set = (a, v) => {
      if (++calls === 2) throw new Error('Platform failure: the collection was locked meanwhile')
      set(a, v)
    }
    expect(w.secrets.save('local', { target: 'embedded', api_key: 'fds_key', access_token: 'jwt' }, { replace: true })).toBe('file')
    expect(w.keyring.entries.size).toBe(0)
    expect(w.profiles.get('local')).toEqual({ target: 'embedded', api_key: 'fds_key', access_token: 'jwt' })
    expect(w.notices).toHaveLength(1)
  })

  it('FINCTL_KEYRING=off keeps them in the file without opening the keyring', () => {
    const w = world({ FINCTL_KEYRING: 'off' })
    expect(w.secrets.save('local', { target: 'embedded', api_key: 'fds_key' }, { replace: true })).toBe('file')
    expect(w.keyring.opened).toBe(0)
    expect(w.secrets.read('local', 'api_key')).toBe('fds_key')
    expect(w.keyring.opened).toBe(0)
    expect(w.notices).toEqual([])
  })

  it('a keyring that cannot be read is a notice and no secret; its entries are never deleted then', () => {
    const w = world()
    w.secrets.save('local', { target: 'embedded', api_key: 'fds_key' }, { replace: true })
    w.keyring.failing = 'Secret Service: the collection is locked'
    const later = new ProfileSecrets(
      w.profiles,
      w.dir,
      {},
      (l) => w.notices.push(l),
      () => w.keyring,
    )
    expect(later.read('local', 'api_key')).toBeUndefined()
    expect(w.notices).toEqual([
      'the API key of profile "local" is in the OS keyring, which cannot be read (Secret Service: the collection is locked)',
    ])
    later.save('local', { access_token: 'jwt' })
    expect(w.profiles.get('local')?.keyring).toEqual(['api_key'])
    expect(w.profiles.get('local')?.access_token).toBe('jwt')
    w.keyring.failing = undefined
    expect(w.keyring.entries.get(w.account('local', 'api_key'))).toBe('fds_key')
  })

  it('a secret missing from the keyring is dropped from the profile on the next save', () => {
    const w = world()
    w.secrets.save('local', { target: 'embedded', api_key: 'fds_key' }, { replace: true })
    w.keyring.entries.clear()
    const later = new ProfileSecrets(
      w.profiles,
      w.dir,
      {},
      (l) => w.notices.push(l),
      () => w.keyring,
    )
    later.save('local', { access_token: 'jwt' })
    expect(w.profiles.get('local')).toEqual({ target: 'embedded', keyring: ['access_token'] })
    expect(w.notices).toEqual([
      'the API key of profile "local" is missing from the OS keyring: keep a new one with `finctl keys create --save-profile local`',
    ])
  })

  it('forget removes a secret from wherever it is (logout, profile remove)', () => {
    const w = world()
    w.secrets.save('local', { target: 'embedded', api_key: 'fds_key', access_token: 'jwt' }, { replace: true })
    w.secrets.forget('local', ['access_token'])
    expect(w.profiles.get('local')).toEqual({ target: 'embedded', keyring: ['api_key'] })
    expect([...w.keyring.entries.keys()]).toEqual([w.account('local', 'api_key')])
    expect(w.secrets.where(w.profiles.get('local'), 'access_token')).toBeUndefined()
    expect(w.secrets.where(w.profiles.get('local'), 'api_key')).toBe('keyring')
  })

  it('a failure reads as its first line', () => {
    expect(keyringReason(new Error('Platform failure: locked\n    at x (y.js:1:1)'))).toBe('Platform failure: locked')
    expect(
      keyringReason(
        new Error(
          'Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead',
        ),
      ),
    ).toBe('no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set')
  })
})

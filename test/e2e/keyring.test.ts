/**
 * End-to-end: secrets in a real OS keyring. A private D-Bus session bus and gnome-keyring's Secret
 * Service, unlocked with a password on stdin, run for this file alone (its HOME is the sandbox);
 * the built CLI keeps the API key and login token there, moves them to profiles.json and back on
 * `login`, and falls back to the file with one line when there is no bus. secret-tool (libsecret)
 * reads what it stored, as another program would. `.ci/run` installs the three tools; without them
 * the file is skipped, and under CI=true it fails instead.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FULL_KEY, Sandbox } from '../helpers/cli.js'

const TOOLS = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool']
const have = process.env.CI === 'true' || TOOLS.every((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status === 0)
if (!have) console.log(`keyring tests skipped: ${TOOLS.join(', ')} missing (apt-get install dbus-daemon gnome-keyring libsecret-tools)`)

describe.skipIf(!have)('secrets in the OS keyring (Secret Service on a private D-Bus)', () => {
  let sb: Sandbox
  let bus: string
  let busDaemon: ChildProcess | undefined
  let keyringDaemon: ChildProcess | undefined
  const PASSWORD = 'password-for-keyring\n'

  /** The environment of a process in this session: its bus, its keyring, and secrets allowed in it. */
  const session = () => ({ DBUS_SESSION_BUS_ADDRESS: bus, FINCTL_KEYRING: undefined, XDG_DATA_HOME: join(sb.dir, 'data') })
  const lookup = (secret: string, profile = 'local') =>
    spawnSync('secret-tool', ['lookup', 'service', 'finctl', 'username', `${profile}:${secret}@${sb.configDir}`], {
      encoding: 'utf8',
      env: { ...process.env, ...session(), HOME: sb.dir },
    })
  const fileText = () => JSON.stringify(sb.profiles())

  /** Whether gnome-keyring's Secret Service owns its name on the bus. Asking it so starts none. */
  const serviceUp = () =>
    spawnSync(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        'string:org.freedesktop.secrets',
      ],
      { encoding: 'utf8', env: { ...process.env, ...session() } },
    ).stdout.includes('boolean true')
  const until = async (what: string, ok: () => boolean) => {
    for (let i = 0; i < 100; i++) {
      if (ok()) return
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`${what} in 10 s`)
  }

  /**
   * gnome-keyring's Secret Service: `unlock` gives the login keyring's password on stdin (creating the
   * keyring the first time); without it the keyring stays locked, and with no display to ask on, every
   * unlock prompt is dismissed at once. Ready once it owns its name: asked earlier, the bus would start
   * another daemon of its own (D-Bus activation).
   */
  async function startKeyring(unlock: boolean): Promise<void> {
    keyringDaemon = spawn('gnome-keyring-daemon', ['--foreground', ...(unlock ? ['--unlock'] : []), '--components=secrets'], {
      env: { ...process.env, ...session(), HOME: sb.dir, XDG_RUNTIME_DIR: sb.dir },
      stdio: ['pipe', 'ignore', 'ignore'],
    })
    keyringDaemon.stdin?.end(unlock ? 'keyring-unlock-password' : '')
    await until('the Secret Service did not start on the private bus', serviceUp)
  }

  beforeAll(async () => {
    sb = new Sandbox('keyring')
    bus = `unix:path=${join(sb.dir, 'bus')}`
    // Its own child (no --fork), so that it ends with the file and is reaped.
    busDaemon = spawn('dbus-daemon', ['--config-file=/usr/share/dbus-1/session.conf', `--address=${bus}`, '--nofork', '--nosyslog'], {
      stdio: 'ignore',
    })
    await startKeyring(true)
  })
  afterAll(() => {
    keyringDaemon?.kill()
    busDaemon?.kill()
    sb?.cleanup()
  })

  it('init keeps the API key and the login token in the keyring: profiles.json holds neither', async () => {
    const r = await sb.ok(['init', '--password-stdin', '--no-input'], { input: PASSWORD, env: session() })
    expect(r.stderr).toContain('saved in profile "local"')
    expect(r.stderr).toContain('in the OS keyring')
    const local = sb.profiles().profiles.local as Record<string, unknown>
    expect(local.api_key).toBeUndefined()
    expect(local.access_token).toBeUndefined()
    expect(local.keyring).toEqual(['api_key', 'access_token'])
    const key = lookup('api_key').stdout
    expect(key).toMatch(FULL_KEY)
    sb.remember(key)
    expect(fileText()).not.toContain(key)
    expect(lookup('access_token').stdout.split('.')).toHaveLength(3)

    const who = await sb.json(['whoami', '--json'], { env: session() })
    expect(who).toMatchObject({ credential: 'api_key', api_key_storage: 'keyring', access_token_storage: 'keyring' })
    expect(key.startsWith(who.key_prefix)).toBe(true)
    const doctor = await sb.run(['doctor', '--json'], { env: session() })
    expect(JSON.stringify(JSON.parse(doctor.stdout))).toContain('API key (OS keyring) and login token (OS keyring)')
    // Key administration reads the login token from the keyring too.
    expect((await sb.json(['keys', 'list', '--json'], { env: session() })).length).toBe(1)
  })

  it('login --insecure-storage moves both secrets to the file and out of the keyring; login moves them back', async () => {
    const key = lookup('api_key').stdout
    const toFile = await sb.ok(['login', '--email', 'owner@example.com', '--password-stdin', '--insecure-storage'], {
      input: PASSWORD,
      env: session(),
    })
    expect(toFile.stderr).toContain('in profiles.json (mode 0600)')
    const local = sb.profiles().profiles.local as Record<string, unknown>
    expect(local.api_key).toBe(key)
    expect(local.access_token).toEqual(expect.any(String))
    expect(local.keyring).toBeUndefined()
    expect(lookup('api_key').status).not.toBe(0)
    expect(lookup('access_token').status).not.toBe(0)
    expect(await sb.json(['whoami', '--json'], { env: session() })).toMatchObject({ api_key_storage: 'profiles.json' })

    const back = await sb.ok(['login', '--email', 'owner@example.com', '--password-stdin'], { input: PASSWORD, env: session() })
    expect(back.stderr).toContain('in the OS keyring')
    expect(fileText()).not.toContain(key)
    expect(sb.profiles().profiles.local.access_token).toBeUndefined()
    expect(lookup('api_key').stdout).toBe(key)
    expect(await sb.json(['whoami', '--json'], { env: session() })).toMatchObject({ api_key_storage: 'keyring' })
  })

  it('logout and profile remove take the secrets out of the keyring', async () => {
    await sb.ok(['logout'], { env: session() })
    expect(lookup('access_token').status).not.toBe(0)
    expect(lookup('api_key').status).toBe(0)
    await sb.ok(['profile', 'add', 'spare', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
      input: 'fds_spareKeyForTheKeyringTest0000000000000000000\n',
      env: session(),
    })
    expect(lookup('api_key', 'spare').stdout).toBe('fds_spareKeyForTheKeyringTest0000000000000000000')
    expect(JSON.stringify(sb.profiles().profiles.spare)).not.toContain('fds_')
    await sb.ok(['profile', 'remove', 'spare'], { env: session() })
    expect(lookup('api_key', 'spare').status).not.toBe(0)
  })

  it('a locked keyring: the file, with one line; a secret kept in it is a one-line warning, not a stack', async () => {
    keyringDaemon?.kill()
    await until('the Secret Service did not stop', () => !serviceUp())
    await startKeyring(false)
    const r = await sb.ok(['--profile', 'locked', 'init', '--email', 'locked@example.com', '--password-stdin', '--no-input'], {
      input: PASSWORD,
      env: session(),
    })
    expect(r.stderr.split('\n').filter((l) => l.includes('OS keyring'))).toEqual([
      expect.stringMatching(
        /^warning: the OS keyring is not available \(.*unlock.*\): the secrets of profile "locked" are kept in profiles.json \(mode 0600\)$/,
      ),
    ])
    expect(sb.profiles().profiles.locked.api_key).toMatch(FULL_KEY)
    const who = await sb.run(['--profile', 'local', 'whoami'], { env: session() })
    expect(who.stderr).toMatch(/^warning: the API key of profile "local" is in the OS keyring, which cannot be read \(.*unlock.*\)$/m)
    expect(who.stderr).not.toMatch(/\n\s+at /)
  })

  it('without a bus: the file, with one line and no stack; a keyring secret that cannot be read is one line too', async () => {
    const noBus = { ...session(), DBUS_SESSION_BUS_ADDRESS: undefined }
    const r = await sb.ok(['--profile', 'nobus', 'init', '--email', 'nobus@example.com', '--password-stdin', '--no-input'], {
      input: PASSWORD,
      env: noBus,
    })
    const notices = r.stderr.split('\n').filter((l) => l.includes('OS keyring'))
    expect(notices).toEqual([
      expect.stringMatching(
        /^warning: the OS keyring is not available \(.+\): the secrets of profile "nobus" are kept in profiles.json \(mode 0600\)$/,
      ),
    ])
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(sb.profiles().profiles.nobus.api_key).toMatch(FULL_KEY)

    const who = await sb.run(['--profile', 'local', 'whoami'], { env: noBus })
    expect(who.stderr).toMatch(/^warning: the API key of profile "local" is in the OS keyring, which cannot be read \(.+\)$/m)
    expect(who.stderr).not.toMatch(/\n\s+at /)
  })
})

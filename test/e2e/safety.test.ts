/**
 * End-to-end: safety for remote targets and protected profiles, without a terminal. Every command
 * that writes to a remote target names it on stderr first (once); a protected profile refuses
 * writes without --yes (exit 2, nothing written); reads and logins are not held up.
 * (The typed confirmation on a terminal is in tty.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, fastKey, startServe, type ServeProcess } from '../helpers/cli.js'

describe('writes to remote targets and through protected profiles', () => {
  let sb: Sandbox
  let server: ServeProcess | undefined
  let host: string
  const password = 'password-for-safety'

  beforeAll(async () => {
    sb = new Sandbox('safety')
    await sb.ok(['init', '--email', 'owner@safety.test', '--password-stdin', '--no-input'], { input: `${password}\n` })
    const { key } = await fastKey(sb)
    server = await startServe(sb, sb.database)
    host = new URL(server.url).host
    await sb.ok(['profile', 'add', 'prod', '--base-url', server.url, '--api-key-stdin', '--protected'], { input: `${key}\n` })
    await sb.ok(['profile', 'add', 'stage', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
  })

  afterAll(async () => {
    try {
      if (server) expect((await server.stop()).code, server.stderr()).toBe(0)
    } finally {
      sb?.cleanup()
    }
  })

  const names = async () => (await sb.json<Array<{ name: string }>>(['accounts', 'list', '--json'])).map((a) => a.name).sort()

  it('a write to a remote target names the profile and host on stderr, once per command', async () => {
    const r = await sb.run(['--profile', 'stage', 'accounts', 'create', '--name', 'Stage A', '--type', 'cash', '--currency', 'USD'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr.split('\n')[0]).toBe(`writing to profile "stage" at ${host}`)
    expect(r.stderr.match(/writing to/g)).toHaveLength(1)
    // Several writes in one command: still one line.
    const csv = 'date,description,amount\n2026-03-01,One,-1.00\n2026-03-02,Two,-2.00\n'
    const { writeFileSync } = await import('node:fs')
    writeFileSync(`${sb.dir}/two.csv`, csv)
    const account = (await sb.json<Array<{ id: string; name: string }>>(['accounts', 'list', '--json'])).find(
      (a) => a.name === 'Stage A',
    )!.id
    const imp = await sb.run(['--profile', 'stage', 'tx', 'import', `${sb.dir}/two.csv`, '--account', account, '--single', '--no-progress'])
    expect(imp.code, imp.stderr).toBe(0)
    expect(imp.stderr.match(/writing to profile "stage"/g)).toHaveLength(1)
    // Reads name nothing; the embedded target names nothing; --base-url without a profile names the host.
    expect((await sb.run(['--profile', 'stage', 'accounts', 'list'])).stderr).toBe('')
    expect((await sb.run(['accounts', 'create', '--name', 'Local A', '--type', 'cash', '--currency', 'USD'])).stderr).not.toContain(
      'writing to',
    )
    const key = sb.profiles().profiles.local.api_key!
    const bare = await sb.run(
      ['--base-url', server!.url, 'accounts', 'create', '--name', 'Bare A', '--type', 'cash', '--currency', 'USD'],
      { env: { FINCTL_API_KEY: key } },
    )
    expect(bare.code, bare.stderr).toBe(0)
    expect(bare.stderr.split('\n')[0]).toBe(`writing to ${host}`)
  })

  it('a protected profile refuses writes without a terminal unless --yes (exit 2, nothing written)', async () => {
    const before = await names()
    const r = await sb.run(['--profile', 'prod', 'accounts', 'create', '--name', 'Prod A', '--type', 'cash', '--currency', 'USD'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`error: profile "prod" is protected: give --yes to write to ${host} without a terminal`)
    expect(r.stdout).toBe('')
    expect(await names()).toEqual(before)

    // --yes as a global flag before the command, or after it.
    const yes1 = await sb.run([
      '--yes',
      '--profile',
      'prod',
      'accounts',
      'create',
      '--name',
      'Prod A',
      '--type',
      'cash',
      '--currency',
      'USD',
    ])
    expect(yes1.code, yes1.stderr).toBe(0)
    expect(yes1.stderr.split('\n')[0]).toBe(`writing to profile "prod" at ${host}`)
    const yes2 = await sb.run([
      '--profile',
      'prod',
      'accounts',
      'create',
      '--name',
      'Prod B',
      '--type',
      'cash',
      '--currency',
      'USD',
      '--yes',
    ])
    expect(yes2.code, yes2.stderr).toBe(0)
    expect(await names()).toEqual([...before, 'Prod A', 'Prod B'].sort())

    // The same URL given by --base-url is still the protected profile; another target is not.
    const sameUrl = await sb.run([
      '--profile',
      'prod',
      '--base-url',
      server!.url,
      'api',
      'POST',
      '/api-v1/bank-accounts',
      '--data',
      '{"name":"X","account_type":"cash","currency_code":"USD"}',
    ])
    expect(sameUrl.code).toBe(2)
    // Reads and logging in are not writes.
    expect((await sb.run(['--profile', 'prod', 'accounts', 'list'])).code).toBe(0)
    const login = await sb.run(['--profile', 'prod', 'login', '--email', 'owner@safety.test', '--password-stdin'], {
      input: `${password}\n`,
    })
    expect(login.code, login.stderr).toBe(0)
    expect(login.stderr).not.toContain('writing to')
  })

  it('tx import through a protected profile (its rows sent from the import thread) is refused without --yes, and imports with it', async () => {
    const { writeFileSync } = await import('node:fs')
    writeFileSync(`${sb.dir}/prod.csv`, 'date,description,amount\n2026-04-01,Prod one,-1.00\n2026-04-02,Prod two,-2.50\n')
    const account = (await sb.json<Array<{ id: string; name: string }>>(['accounts', 'list', '--json'])).find(
      (a) => a.name === 'Prod A',
    )!.id
    const rows = async () => (await sb.json<unknown[]>(['tx', 'list', '--account', account, '--json'])).length
    const refused = await sb.run(['--profile', 'prod', 'tx', 'import', `${sb.dir}/prod.csv`, '--account', account, '--no-progress'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`error: profile "prod" is protected: give --yes to write to ${host} without a terminal`)
    expect(refused.stdout).toBe('')
    expect(await rows()).toBe(0)
    const done = await sb.run([
      '--yes',
      '--profile',
      'prod',
      'tx',
      'import',
      `${sb.dir}/prod.csv`,
      '--account',
      account,
      '--no-progress',
      '--json',
    ])
    expect(done.code, done.stderr).toBe(0)
    expect(JSON.parse(done.stdout)).toMatchObject({ created: 2, amount_total: -3.5 })
    expect(done.stderr.match(/writing to profile "prod"/g)).toHaveLength(1)
    expect(await rows()).toBe(2)
  })

  it('profile protect / unprotect switch it; profile show tells it', async () => {
    await sb.ok(['profile', 'unprotect', 'prod'])
    expect(sb.profiles().profiles.prod).not.toHaveProperty('protected')
    expect(await sb.json(['profile', 'show', 'prod', '--json'])).toMatchObject({ protected: false })
    const free = await sb.run(['--profile', 'prod', 'accounts', 'create', '--name', 'Prod C', '--type', 'cash', '--currency', 'USD'])
    expect(free.code, free.stderr).toBe(0)

    await sb.ok(['profile', 'protect', 'prod'])
    expect(await sb.json(['profile', 'show', 'prod', '--json'])).toMatchObject({ protected: true })
    const accounts = await sb.json<Array<{ id: string; name: string }>>(['accounts', 'list', '--json'])
    const c = accounts.find((a) => a.name === 'Prod C')!
    const del = await sb.run(['--profile', 'prod', 'accounts', 'delete', c.id, '--yes'])
    expect(del.code, del.stderr).toBe(0)
    const held = await sb.run([
      '--profile',
      'prod',
      'api',
      'DELETE',
      `/api-v1/bank-accounts/${accounts.find((a) => a.name === 'Prod B')!.id}`,
    ])
    expect(held.code).toBe(2)
    expect(await names()).toContain('Prod B')
    expect((await sb.run(['profile', 'protect', 'nope'])).code).toBe(5)
  })

  it('an API key given as a flag still warns', async () => {
    const key = sb.profiles().profiles.local.api_key!
    const r = await sb.run(['--api-key', key, 'whoami'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/^warning: an API key given as a flag is visible in process lists/m)
  })
})

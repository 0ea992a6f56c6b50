/**
 * End-to-end: the files finctl writes never clobber. `--rejects` as a hard link to the bank
 * file is refused (it truncated the file before); an existing `--rejects`, `--env-out` or
 * `--output-file` is replaced only with `--overwrite`; a symbolic link is never written through.
 * `export --output` is never one of its inputs (another spelling, a link), and a device or a
 * named pipe is written as it is, with or without `--overwrite`, never replaced by a file.
 */
import { execFileSync, spawn } from 'node:child_process'
import { closeSync, constants, linkSync, openSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, Sandbox } from '../helpers/cli.js'

describe('files finctl writes', () => {
  let sb: Sandbox
  let account: string
  let bank: string
  // Two good rows and a bad amount: a rejects file gets written.
  const csv = 'date,description,amount\n2026-01-02,Coffee,-3.50\n2026-01-03,Paper,-x\n2026-01-04,Refund,12.00\n'

  beforeAll(async () => {
    sb = new Sandbox('file-safety')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-files\n' })
    account = (
      await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Files', '--type', 'checking', '--currency', 'USD', '--json'])
    ).id
    bank = join(sb.dir, 'bank.csv')
    writeFileSync(bank, csv)
  })
  afterAll(() => sb?.cleanup())

  const leftovers = () => readdirSync(sb.dir).filter((n) => n.endsWith('.tmp'))

  it('--rejects as a hard link to the file being imported is refused, and the bank file is untouched', async () => {
    const hard = join(sb.dir, 'hard-link.csv')
    linkSync(bank, hard)
    for (const overwrite of [[], ['--overwrite']]) {
      const r = await sb.run(['tx', 'import', bank, '--account', account, '--rejects', hard, ...overwrite])
      expect([r.code, r.stderr]).toEqual([2, 'error: --rejects must not be the file being imported: it would be overwritten\n'])
    }
    expect(readFileSync(bank, 'utf8')).toBe(csv)
  })

  it('an existing --rejects file is kept unless --overwrite; then replaced whole', async () => {
    const rejects = join(sb.dir, 'rejects.csv')
    writeFileSync(rejects, 'yesterday\n')
    const refused = await sb.run(['tx', 'import', bank, '--account', account, '--rejects', rejects])
    expect([refused.code, refused.stderr]).toEqual([
      2,
      `error: --rejects: ${rejects} already exists: give a new path, or --overwrite to replace it\n`,
    ])
    expect(readFileSync(rejects, 'utf8')).toBe('yesterday\n')
    const r = await sb.run(['tx', 'import', bank, '--account', account, '--rejects', rejects, '--overwrite'])
    expect(r.code, r.stderr).toBe(8)
    expect(readFileSync(rejects, 'utf8').split('\r\n')[1]).toMatch(/^2026-01-03,Paper,'-x,3,/)
    expect(leftovers()).toEqual([])
  })

  it('--env-out never writes through a symbolic link (to a shell rc file), nor over a file without --overwrite', async () => {
    const rc = join(sb.dir, '.bashrc')
    writeFileSync(rc, 'alias ll="ls -l"\n')
    const link = join(sb.dir, 'seed.env')
    symlinkSync(rc, link)
    const seed = join(ROOT, 'examples', 'seed.json')
    const env = { env: { COMPANY_CURRENCY: 'USD' } }
    for (const overwrite of [[], ['--overwrite']]) {
      const r = await sb.run(['seed', seed, '--env-out', link, ...overwrite], env)
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr).toBe(
        `error: --env-out: ${link} is a symbolic link: give the path of a regular file (finctl never writes through a link)\n`,
      )
    }
    expect(readFileSync(rc, 'utf8')).toBe('alias ll="ls -l"\n')
    const out = join(sb.dir, 'ci.env')
    writeFileSync(out, '# mine\n', { mode: 0o644 })
    expect((await sb.run(['seed', seed, '--env-out', out], env)).code).toBe(2)
    expect(readFileSync(out, 'utf8')).toBe('# mine\n')
    const r = await sb.run(['seed', seed, '--env-out', out, '--overwrite'], env)
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(out, 'utf8')).toMatch(/^KEYS_CI_KEY=fds_/m)
    expect(statSync(out).mode & 0o777).toBe(0o600)
  })

  it('keys create --output-file: a link is refused, an existing file replaced only with --overwrite (0600)', async () => {
    const target = join(sb.dir, 'notes.txt')
    writeFileSync(target, 'notes\n')
    const link = join(sb.dir, 'key-link')
    symlinkSync(target, link)
    const linked = await sb.run(['keys', 'create', '--name', 'linked', '--scopes', 'read', '--output-file', link, '--overwrite'])
    expect(linked.code).toBe(2)
    expect(readFileSync(target, 'utf8')).toBe('notes\n')
    const file = join(sb.dir, 'key.txt')
    writeFileSync(file, 'old key\n', { mode: 0o644 })
    const r = await sb.run(['keys', 'create', '--name', 'replaced', '--scopes', 'read', '--output-file', file, '--overwrite'])
    expect(r.code, r.stderr).toBe(0)
    expect(sb.remember(readFileSync(file, 'utf8').trim())).toMatch(/^fds_/)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const names = (await sb.json<Array<{ name: string }>>(['keys', 'list', '--json'])).map((k) => k.name)
    expect(names).toContain('replaced')
    expect(names).not.toContain('linked')
    expect(leftovers()).toEqual([])
  })

  it('export --output is never its --accounts-map, however spelled, with or without --overwrite', async () => {
    const map = join(sb.dir, 'map.json')
    const text = '{ "opening_balances": "Equity:Opening" }\n'
    writeFileSync(map, text)
    symlinkSync(map, join(sb.dir, 'map-link.json'))
    const journal = ['export', '--format', 'hledger', '--from', '2026-01-01', '--to', '2026-01-31']
    const cases = [
      ['--accounts-map', 'map.json', '-o', './map.json'],
      ['--accounts-map', './map.json', '--output', map],
      ['--accounts-map', map, '-o', 'map-link.json'],
      ['--accounts-map', 'map-link.json', '-o', map],
    ]
    for (const args of cases) {
      const r = await sb.run([...journal, ...args, '--overwrite'])
      expect([r.code, r.stderr], args.join(' ')).toEqual([
        2,
        'error: --output must not be the --accounts-map file: it would be overwritten\n',
      ])
    }
    expect(readFileSync(map, 'utf8')).toBe(text)
    expect(readdirSync(sb.dir).filter((n) => n.endsWith('.part'))).toEqual([])
  })

  it('export -o /dev/null and -o a named pipe write into it, never replace it', async () => {
    const csv = ['export', '--format', 'csv', '--from', '2026-01-01', '--to', '2026-01-31']
    const devnull = await sb.run([...csv, '-o', '/dev/null'])
    expect(devnull.code, devnull.stderr).toBe(0)
    expect(devnull.stderr).toContain('to /dev/null')
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true)

    const fifo = join(sb.dir, 'export.fifo')
    execFileSync('mkfifo', [fifo])
    for (const overwrite of [[], ['--overwrite']]) {
      // The reader is a process of its own: one left waiting (a writer that never came) can be ended.
      const cat = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] })
      let read = ''
      cat.stdout.setEncoding('utf8').on('data', (d: string) => (read += d))
      const ended = new Promise((res) => cat.on('close', res))
      const r = await sb.run([...csv, '-o', fifo, ...overwrite])
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK))
      } catch {
        // no reader left: it has ended already
      }
      const timer = setTimeout(() => cat.kill(), 5000)
      await ended
      clearTimeout(timer)
      expect(r.code, r.stderr).toBe(0)
      expect(read).toMatch(/^id,date,description,amount,currency,/)
      expect(read).toContain('Coffee')
      expect(statSync(fifo).isFIFO()).toBe(true)
    }
    expect(readdirSync(sb.dir).filter((n) => n.endsWith('.part'))).toEqual([])
  })
})

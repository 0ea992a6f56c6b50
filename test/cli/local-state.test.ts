/**
 * The CLI's local state and its checks before work starts: the profile and mapping stores (file
 * modes, where they live), the files a command reads and writes (src/cli/files.ts), the progress
 * line, the `tx list` filters and the ids file.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requireInputFile } from '../../src/cli/files.js'
import { readIds } from '../../src/cli/ids.js'
import type { IO } from '../../src/cli/io.js'
import { MappingStore } from '../../src/cli/mappings.js'
import { ProfileStore, configDir, dataDir, defaultDatabase, validProfileName } from '../../src/cli/profiles.js'
import { ProgressLine, progressText } from '../../src/cli/progress.js'
import { hasFilter, listQuery } from '../../src/cli/tx-filters.js'

let tmp = ''

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'finctl-cli-state-'))
})

afterAll(() => rmSync(tmp, { recursive: true, force: true }))
let n = 0
const freshDir = () => join(tmp, `c${++n}`)
const usage = (message: string | RegExp) =>
  expect.objectContaining({ code: 'usage', message: typeof message === 'string' ? message : expect.stringMatching(message) })

function io(o: { stderrTTY?: boolean; stdin?: string } = {}) {
  const err = new PassThrough()
  let stderr = ''
  err.on('data', (d: Buffer) => (stderr += d.toString()))
  const stdin = new PassThrough()
  if (o.stdin !== undefined) stdin.end(o.stdin)
  const value: IO = {
    stdout: new PassThrough(),
    stderr: err,
    stdin,
    isStdoutTTY: false,
    isStderrTTY: Boolean(o.stderrTTY),
    isStdinTTY: false,
    env: {},
    now: () => new Date(0),
  }
  return { io: value, err: () => stderr }
}

describe('profile store', () => {
  it('writes its file 0600 in a 0700 folder, even a folder that was open before', () => {
    const dir = freshDir()
    mkdirSync(dir, { mode: 0o755 })
    chmodSync(dir, 0o755)
    const store = new ProfileStore({ FINCTL_CONFIG_DIR: dir })
    store.set('prod', { target: 'https://finctl.example.com', api_key: 'fds_secret' })
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(store.path).toBe(join(dir, 'profiles.json'))
    expect(statSync(store.path).mode & 0o777).toBe(0o600)
  })

  it('is never read or written through a symbolic link (its keys would land in the file it points at)', () => {
    const dir = freshDir()
    mkdirSync(dir, { mode: 0o700 })
    const elsewhere = join(tmp, `shared-${n}.json`)
    writeFileSync(elsewhere, '{"profiles":{}}\n', { mode: 0o644 })
    symlinkSync(elsewhere, join(dir, 'profiles.json'))
    expect(() => new ProfileStore({ FINCTL_CONFIG_DIR: dir })).toThrow(usage(/profiles\.json is a symbolic link/))
    expect(readFileSync(elsewhere, 'utf8')).toBe('{"profiles":{}}\n')
  })

  it('set leaves out undefined fields; update starts from an embedded profile; the file is read again by a new store', () => {
    const env = { FINCTL_CONFIG_DIR: freshDir() }
    const store = new ProfileStore(env)
    store.set('a', { target: 'embedded', database: undefined, email: 'x@example.com' })
    expect(JSON.parse(readFileSync(store.path, 'utf8')).profiles.a).toEqual({ target: 'embedded', email: 'x@example.com' })
    expect(store.update('b', { api_key: 'k' })).toEqual({ target: 'embedded', api_key: 'k' })
    expect(store.update('a', { protected: true })).toEqual({ target: 'embedded', email: 'x@example.com', protected: true })
    expect(new ProfileStore(env).list()).toEqual({
      a: { target: 'embedded', email: 'x@example.com', protected: true },
      b: { target: 'embedded', api_key: 'k' },
    })
  })

  it('removing the current profile forgets that it was current; removing an unknown one says so', () => {
    const store = new ProfileStore({ FINCTL_CONFIG_DIR: freshDir() })
    store.set('a', { target: 'embedded' })
    store.set('b', { target: 'embedded' })
    store.setCurrent('a')
    expect(store.remove('b')).toBe(true)
    expect(store.current).toBe('a')
    expect(store.remove('a')).toBe(true)
    expect(store.current).toBeUndefined()
    expect(store.remove('a')).toBe(false)
    expect(store.list()).toEqual({})
  })

  it('where things live: FINCTL_CONFIG_DIR, else XDG; the data beside the config unless FINCTL_DATA_DIR', () => {
    expect(configDir({ FINCTL_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x' })).toBe('/c')
    expect(configDir({ XDG_CONFIG_HOME: '/x' })).toBe(join('/x', 'finctl'))
    expect(dataDir({ FINCTL_DATA_DIR: '/d', FINCTL_CONFIG_DIR: '/c' })).toBe('/d')
    expect(dataDir({ FINCTL_CONFIG_DIR: '/c', XDG_DATA_HOME: '/x' })).toBe('/c')
    expect(dataDir({ XDG_DATA_HOME: '/x' })).toBe(join('/x', 'finctl'))
    expect(defaultDatabase({ FINCTL_DATA_DIR: '/d' })).toBe(join('/d', 'finctl.db'))
  })

  it('profile names: letters, digits, . _ -, starting with a letter or digit, at most 64', () => {
    for (const ok of ['local', 'prod-eu.2', 'A_b', '9', 'x'.repeat(64)]) expect(validProfileName(ok), ok).toBe(true)
    for (const bad of ['', '-x', '.hidden', 'a b', 'a/b', 'ü', 'x'.repeat(65)]) expect(validProfileName(bad), bad).toBe(false)
  })
})

describe('saved mappings', () => {
  it('saves without empty or undefined options, 0600, and names no mapping after an Object.prototype key', () => {
    const env = { FINCTL_CONFIG_DIR: freshDir() }
    const store = new MappingStore(env)
    store.save('bank', { map: [['amount', 'Betrag']], delimiter: ';', where: [], encoding: undefined })
    expect(new MappingStore(env).get('bank')).toEqual({ map: [['amount', 'Betrag']], delimiter: ';' })
    expect(statSync(join(env.FINCTL_CONFIG_DIR, 'mappings.json')).mode & 0o777).toBe(0o600)
    for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) expect(store.get(name), name).toBeUndefined()
    expect(store.get('other')).toBeUndefined()
  })
})

describe('files a command reads', () => {
  let file = ''
  beforeAll(() => {
    file = join(tmp, 'in.csv')
    writeFileSync(file, 'a\n')
  })

  it('an input file must exist and be a regular file', async () => {
    await expect(requireInputFile(file)).resolves.toMatchObject({ size: 2 })
    await expect(requireInputFile(join(tmp, 'missing.csv'))).rejects.toEqual(usage(`no such file: ${join(tmp, 'missing.csv')}`))
    await expect(requireInputFile(tmp)).rejects.toEqual(usage(`${tmp} is a folder: give the path of a file in it`))
    await expect(requireInputFile('/dev/null')).rejects.toEqual(usage(/^\/dev\/null is not a regular file \(a pipe or a device\)/))
  })
})

describe('progress', () => {
  it('progressText: thousands, a floored percentage, rate and ETA; unknown ETA before the first row', () => {
    expect(progressText({ done: 1234, total: 10000, elapsedMs: 2000 })).toBe('1,234 / 10,000 rows (12%)  617 rows/s  ETA 0:14')
    expect(progressText({ done: 0, total: 5, elapsedMs: 0 })).toBe('0 / 5 rows (0%)  0 rows/s  ETA --:--')
    expect(progressText({ done: 999, total: 1000, elapsedMs: 1000 })).toMatch(/\(99%\)/)
    expect(progressText({ done: 1, total: 7201, elapsedMs: 1000 })).toMatch(/ETA 2:00:00$/)
    expect(progressText({ done: 3, total: 0, elapsedMs: 10, detail: '2 already imported' }, 'statements')).toBe(
      '3 / 0 statements (100%)  300 statements/s  ETA 0:00  2 already imported',
    )
  })

  it('on a terminal: redrawn in place, at most every 100 ms except the last, cleared at the end', () => {
    const t = io({ stderrTTY: true })
    const line = new ProgressLine(t.io, true)
    line.update({ done: 1, total: 3, elapsedMs: 1000 })
    line.update({ done: 2, total: 3, elapsedMs: 1001 }) // within 100 ms: skipped
    line.update({ done: 3, total: 3, elapsedMs: 1002 }) // the last: drawn
    line.end()
    const draws = t.err().split('\r\x1b[2K')
    expect(draws).toEqual([
      '',
      progressText({ done: 1, total: 3, elapsedMs: 1000 }),
      progressText({ done: 3, total: 3, elapsedMs: 1002 }),
      '',
    ])
  })

  it('forced off a terminal: one line per update, no escapes; disabled: nothing', () => {
    const off = io()
    const line = new ProgressLine(off.io, true)
    line.update({ done: 5, total: 5, elapsedMs: 1000 })
    line.end()
    expect(off.err()).toBe('5 / 5 rows (100%)  5 rows/s  ETA 0:00\n')
    const none = io({ stderrTTY: true })
    const quiet = new ProgressLine(none.io, false)
    quiet.update({ done: 5, total: 5, elapsedMs: 1000 })
    quiet.end()
    expect(none.err()).toBe('')
  })
})

describe('tx list filters', () => {
  const periodHost = { io: io().io, printer: { quiet: true } }

  it('--from and --to take periods: the first and the last day, echoed on stderr', () => {
    const at = io()
    const host = { io: { ...at.io, now: () => new Date('2026-11-25T12:00:00Z') }, printer: { quiet: false } }
    expect(listQuery({ from: '2026-10', to: '2026-10' }, host)).toMatchObject({ from: '2026-10-01', to: '2026-10-31' })
    expect(listQuery({ from: '2026-02-03' }, host)).toMatchObject({ from: '2026-02-03', to: undefined })
    expect(at.err()).toBe('period: 2026-10-01 .. 2026-10-31\n')
    expect(() => listQuery({ to: '2026-13' }, host)).toThrow(usage(/^--to 2026-13: there is no month 13: write the month as YYYY-MM$/))
    expect(() => listQuery({ to: 'soon' }, host)).toThrow(usage(/^--to "soon" is not a date or a period; the forms it takes:\n.*2026-Q3/s))
  })

  it('flags to the query: reconciled as a boolean, a typographic minus made ASCII', () => {
    expect(
      listQuery(
        {
          account: 'acc',
          unreconciled: true,
          minAmount: '\u221250.00',
          maxAmount: '-1',
          search: 'rent',
          accountingCategory: 'expense',
        },
        periodHost,
      ),
    ).toMatchObject({
      bank_account_id: 'acc',
      is_reconciled: false,
      min_amount: '-50.00',
      max_amount: '-1',
      q: 'rent',
      accounting_category: 'expense',
    })
    expect(listQuery({ reconciled: true }, periodHost).is_reconciled).toBe(true)
    expect(listQuery({}, periodHost).is_reconciled).toBeUndefined()
  })

  it('refuses --reconciled with --unreconciled, and a --limit outside 1..1000', () => {
    expect(() => listQuery({ reconciled: true, unreconciled: true }, periodHost)).toThrow(
      usage('give --reconciled or --unreconciled, not both'),
    )
    for (const bad of ['0', '1001', '-1', '2.5', 'ten', ''])
      expect(() => listQuery({ limit: bad }, periodHost), bad).toThrow(usage('--limit must be a whole number from 1 to 1000'))
    for (const ok of ['1', '1000']) expect(listQuery({ limit: ok }, periodHost).limit).toBe(ok)
  })

  it('hasFilter: --sort and --limit are no filter (bulk-update refuses to touch everything)', () => {
    expect(hasFilter(listQuery({ sort: 'amount', limit: '5' }, periodHost))).toBe(false)
    expect(hasFilter(listQuery({ unreconciled: true }, periodHost))).toBe(true)
    expect(hasFilter(listQuery({ tag: 'q3' }, periodHost))).toBe(true)
  })
})

describe('ids file', () => {
  it('one id a line or comma-separated, CRLF, blank lines and # comments skipped; "-" reads stdin', async () => {
    const path = join(tmp, 'ids.txt')
    writeFileSync(path, '# ids to void\r\na1, a2\r\n\r\n  a3  # the last\r\n#a4\n')
    expect(await readIds(io().io, path)).toEqual(['a1', 'a2', 'a3'])
    expect(await readIds(io({ stdin: 'b1\nb2,b3\n' }).io, '-')).toEqual(['b1', 'b2', 'b3'])
    expect(await readIds(io({ stdin: '' }).io, '-')).toEqual([])
  })

  it('a file that cannot be read is a usage error naming --ids-file and why', async () => {
    await expect(readIds(io().io, join(tmp, 'none.txt'))).rejects.toEqual(usage(`--ids-file: cannot read ${join(tmp, 'none.txt')}: ENOENT`))
    await expect(readIds(io().io, tmp)).rejects.toEqual(usage(`--ids-file: cannot read ${tmp}: EISDIR`))
  })
})

/**
 * Files finctl writes: never the input (a hard link counts), never over an existing file
 * without --overwrite, never through a symbolic link, written beside the destination and moved in
 * whole; secrets 0600.
 */
import { existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkOutputFile, OutputFile, writeOutputFile } from '../../src/jobs/output-file.js'

const usage = (message: string | RegExp) =>
  expect.objectContaining({ code: 'usage', message: typeof message === 'string' ? message : expect.stringMatching(message) })

describe('output files', () => {
  let dir: string
  let input: string
  const bank = 'date,amount\n2026-01-02,-3.50\n'
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-output-file-'))
    input = join(dir, 'bank.csv')
    writeFileSync(input, bank)
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const opts = (extra: { overwrite?: boolean; secret?: boolean } = {}) => ({
    flag: '--rejects',
    inputs: [{ path: input, what: 'the file being imported' }],
    ...extra,
  })

  it('refuses the input file by device and inode: its path, another spelling of it, a link, even with --overwrite', () => {
    const hard = join(dir, 'hard.csv')
    linkSync(input, hard)
    const soft = join(dir, 'soft.csv')
    symlinkSync(input, soft)
    for (const path of [input, join(dir, '.', 'bank.csv'), hard, soft]) {
      for (const overwrite of [false, true]) {
        expect(() => checkOutputFile(path, opts({ overwrite })), path).toThrow(
          usage('--rejects must not be the file being imported: it would be overwritten'),
        )
      }
    }
    expect(readFileSync(input, 'utf8')).toBe(bank)
  })

  it('refuses an existing file unless --overwrite, then replaces it whole (a new file: a hard link to the old one keeps it)', () => {
    const out = join(dir, 'rejects.csv')
    writeFileSync(out, 'old rejects\n')
    const other = join(dir, 'other-name.csv')
    linkSync(out, other)
    expect(() => writeOutputFile(out, 'new\n', opts())).toThrow(
      usage(`--rejects: ${out} already exists: give a new path, or --overwrite to replace it`),
    )
    expect(readFileSync(out, 'utf8')).toBe('old rejects\n')
    writeOutputFile(out, 'new\n', opts({ overwrite: true }))
    expect(readFileSync(out, 'utf8')).toBe('new\n')
    expect(readFileSync(other, 'utf8')).toBe('old rejects\n')
    expect(readdirSync(dir).sort()).toEqual(['bank.csv', 'other-name.csv', 'rejects.csv'])
  })

  it('never writes through a symbolic link, to a file or to nowhere, even with --overwrite', () => {
    const rc = join(dir, '.bashrc')
    writeFileSync(rc, 'export PATH=$HOME/bin:$PATH\n')
    symlinkSync(rc, join(dir, 'seed.env'))
    symlinkSync(join(dir, 'missing'), join(dir, 'dangling.env'))
    for (const name of ['seed.env', 'dangling.env']) {
      const path = join(dir, name)
      expect(() => writeOutputFile(path, 'A=1\n', { flag: '--env-out', secret: true, overwrite: true })).toThrow(
        usage(`--env-out: ${path} is a symbolic link: give the path of a regular file (finctl never writes through a link)`),
      )
    }
    expect(readFileSync(rc, 'utf8')).toBe('export PATH=$HOME/bin:$PATH\n')
    expect(existsSync(join(dir, 'missing'))).toBe(false)
  })

  it('a secret file is 0600 from its creation, whatever the umask; a plain one follows the umask', () => {
    const before = process.umask(0o000)
    try {
      writeOutputFile(join(dir, 'seed.env'), 'KEY=fds_x\n', { flag: '--env-out', secret: true })
      writeOutputFile(join(dir, 'rejects.csv'), 'a\n', opts())
    } finally {
      process.umask(before)
    }
    expect(statSync(join(dir, 'seed.env')).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'rejects.csv')).mode & 0o777).toBe(0o666)
  })

  it('is written beside the destination and appears only whole; discard leaves nothing', () => {
    const out = join(dir, 'rejects.csv')
    const file = OutputFile.create(out, opts())
    file.write('x'.repeat(200_000))
    file.write('\n')
    expect(existsSync(out)).toBe(false)
    // The large write went to the temporary file beside the destination; the small one waits for commit.
    expect(dirname(file.tempPath!)).toBe(dir)
    expect(statSync(file.tempPath!).size).toBe(200_000)
    file.commit()
    expect(readFileSync(out, 'utf8')).toBe(`${'x'.repeat(200_000)}\n`)
    const dropped = OutputFile.create(join(dir, 'dropped.csv'), opts())
    dropped.write('y\n')
    dropped.discard()
    expect(readdirSync(dir).sort()).toEqual(['bank.csv', 'rejects.csv'])
  })

  it('a file created meanwhile is not replaced: the error names where the output is', () => {
    const out = join(dir, 'rejects.csv')
    const file = OutputFile.create(out, opts())
    file.write('mine\n')
    writeFileSync(out, 'theirs\n')
    expect(() => file.commit()).toThrow(usage(`--rejects: ${out} was created meanwhile; what finctl wrote is in ${file.tempPath}`))
    expect(readFileSync(out, 'utf8')).toBe('theirs\n')
    expect(readFileSync(file.tempPath!, 'utf8')).toBe('mine\n')
  })

  it('a device is written as it is (/dev/null), and a full one fails naming the file', () => {
    writeOutputFile('/dev/null', 'a\n', opts())
    const full = OutputFile.create('/dev/full', { ...opts(), what: 'the rejects file' })
    full.write('a\n')
    expect(() => full.commit()).toThrow(/^cannot write the rejects file \/dev\/full: ENOSPC/)
  })
})

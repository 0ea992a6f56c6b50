/**
 * Reading a pack's zip (src/jobs/pack/zip-read.ts): what a hostile zip holds is refused and named
 * before anything is used: names that climb out or are absolute, links, duplicates, bombs (by ratio,
 * by declared size, by bytes beyond the declared size), too many entries.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PackRefused, readPackZip, unsafeName, ZIP_LIMITS } from '../../src/jobs/pack/zip-read.js'
import { rawZip, type RawEntry } from '../helpers/raw-zip.js'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'finctl-zip-read-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let n = 0

async function refusal(entries: RawEntry[], limits = ZIP_LIMITS): Promise<string> {
  const path = join(dir, `z${++n}.zip`)
  writeFileSync(path, rawZip(entries))
  const e = await readPackZip(path, limits).then(
    () => new Error('expected a refusal'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(PackRefused)
  return (e as Error).message
}

const file = (name: string, text = 'x'): RawEntry => ({ name, data: Buffer.from(text) })

describe('readPackZip', () => {
  it('reads a plain zip, stored and deflated entries alike', async () => {
    const path = join(dir, 'plain.zip')
    writeFileSync(path, rawZip([file('a.txt', 'hello'), { name: 'b/c.csv', data: Buffer.from('1,2\n'.repeat(100)), deflate: true }]))
    const files = await readPackZip(path)
    expect([...files.keys()]).toEqual(['a.txt', 'b/c.csv'])
    expect(files.get('b/c.csv')?.toString()).toBe('1,2\n'.repeat(100))
  })

  it.each([
    ['../evil.txt', 'a path that climbs out of the pack (..)'],
    ['journal/../../evil.txt', 'a path that climbs out of the pack (..)'],
    ['/etc/passwd', 'an absolute path'],
    ['C:/windows/evil', 'an absolute path'],
    ['a\\..\\evil', 'a backslash in its name'],
    ['a//b', 'an empty or "." part in its path'],
  ])('refuses path traversal: %s', async (name, why) => {
    expect(await refusal([file('manifest.json'), file(name)])).toBe(`entry ${JSON.stringify(name)}: ${why}`)
  })

  it('refuses a symbolic link', async () => {
    expect(await refusal([{ name: 'journal/link', data: Buffer.from('/etc/passwd'), mode: 0o120777 }])).toBe(
      'entry "journal/link": a symbolic link',
    )
  })

  it('refuses two entries of one name, and names equal but for case', async () => {
    expect(await refusal([file('close.json', 'a'), file('close.json', 'b')])).toBe('entry "close.json": appears twice')
    expect(await refusal([file('close.json'), file('CLOSE.json')])).toBe(
      'entries "close.json" and "CLOSE.json": the same name but for case',
    )
  })

  it('refuses a zip bomb: an entry inflating far beyond its compressed size', async () => {
    const bomb = { name: 'journal/books.csv', data: Buffer.alloc(8 * 1024 * 1024), deflate: true }
    expect(await refusal([bomb])).toMatch(
      /^entry "journal\/books.csv": 8388608 bytes from \d+ compressed, more than 200 times: a zip bomb$/,
    )
  })

  it('refuses an entry whose bytes are more than it declares', async () => {
    const liar = { name: 'a.csv', data: Buffer.alloc(4096, 0x41), deflate: true, declaredSize: 10 }
    expect(await refusal([liar])).toMatch(/^"a.csv": /)
  })

  it('refuses an entry or a total above the caps', async () => {
    const limits = { ...ZIP_LIMITS, totalBytes: 1000, entryBytes: 600 }
    expect(await refusal([{ name: 'big', data: Buffer.alloc(700, 1) }], limits)).toBe(
      'entry "big": 700 bytes uncompressed, more than a pack holds: a zip bomb',
    )
    expect(
      await refusal(
        [
          { name: 'a', data: Buffer.alloc(500, 1) },
          { name: 'b', data: Buffer.alloc(501, 1) },
        ],
        limits,
      ),
    ).toBe('entry "b": 501 bytes uncompressed, more than a pack holds: a zip bomb')
    expect(await refusal([file('a'), file('b'), file('c')], { ...ZIP_LIMITS, entries: 2 })).toBe('more than 2 entries: not a pack')
  })

  it('refuses what is not a zip', async () => {
    const path = join(dir, 'not.zip')
    writeFileSync(path, 'just text, no zip at all')
    await expect(readPackZip(path)).rejects.toThrow(/^not a readable zip: /)
  })

  it('unsafeName passes plain names', () => {
    expect(unsafeName('documents/0193/receipt.pdf')).toBeNull()
    expect(unsafeName('manifest.json')).toBeNull()
  })
})

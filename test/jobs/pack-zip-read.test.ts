/**
 * Reading a pack's zip (src/jobs/pack/zip-read.ts): what a hostile zip holds is refused and named
 * before anything is used: names that climb out or are absolute, links, duplicates, bombs (by ratio,
 * by declared size, by bytes beyond the declared size), too many entries; and what `unzip -t` finds
 * in the container: a bad CRC, local and central headers that disagree, overlapping entries.
 */
import { spawnSync } from 'node:child_process'
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

  it('reads a zip whose sizes follow the data (a data descriptor), and checks the descriptor', async () => {
    const path = join(dir, 'descriptor.zip')
    const zip = rawZip([{ name: 'a.csv', data: Buffer.from('1,2\n'.repeat(50)), deflate: true, descriptor: true }])
    writeFileSync(path, zip)
    expect((await readPackZip(path)).get('a.csv')?.toString()).toBe('1,2\n'.repeat(50))
    // The descriptor's CRC-32 flipped: the central directory says otherwise.
    const at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x07, 0x08])) + 4
    zip[at] ^= 0x04
    writeFileSync(path, zip)
    const e = await readPackZip(path).catch((err: PackRefused) => err)
    expect(e).toBeInstanceOf(PackRefused)
    expect((e as PackRefused).problems).toEqual([
      expect.stringMatching(/^entry "a.csv": the data descriptor's CRC-32 0x[0-9a-f]{8} is not the central directory's/),
    ])
  })

  it('refuses two entries whose bytes overlap', async () => {
    const zip = rawZip([file('a.txt', 'hello'), file('b.txt', 'world')])
    // The central directory's second entry pointed at the first's local header, its name made to match.
    const second = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    zip.writeUInt32LE(0, second + 42)
    zip.write('a', second + 46)
    const path = join(dir, 'overlap.zip')
    writeFileSync(path, zip)
    const e = (await readPackZip(path).catch((err: PackRefused) => err)) as PackRefused
    expect(e).toBeInstanceOf(PackRefused)
    expect(e.problems.join('\n')).toMatch(/appears twice|overlap/)
  })

  it('unsafeName passes plain names', () => {
    expect(unsafeName('documents/0193/receipt.pdf')).toBeNull()
    expect(unsafeName('manifest.json')).toBeNull()
  })
})

/** Where each entry's headers are in `zip`: its local header's offset and its central directory entry's. */
function headers(zip: Buffer): Array<{ name: string; local: number; central: number; data: number }> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  const out = []
  for (let p = zip.readUInt32LE(eocd + 16); zip.readUInt32LE(p) === 0x02014b50; ) {
    const n = zip.readUInt16LE(p + 28)
    const local = zip.readUInt32LE(p + 42)
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    out.push({ name: zip.subarray(p + 46, p + 46 + n).toString(), local, central: p, data })
    p += 46 + n + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32)
  }
  return out
}

const unzip = spawnSync('unzip', ['-v'], { encoding: 'utf8' }).status === 0

describe("readPackZip gives unzip -t's verdict on the container", () => {
  const base = rawZip([
    { name: 'manifest.json', data: Buffer.from('{"a":1}\n'.repeat(50)), deflate: true },
    { name: 'journal/books.csv', data: Buffer.from('id,amount\n1,2.00\n') },
  ])
  // Each flip, what verify says, and whether unzip -t refuses it too (never: verify is laxer than unzip -t).
  type Flip = [string, (h: ReturnType<typeof headers>[number]) => number, RegExp, boolean | ((name: string) => boolean)]
  const flips: Flip[] = [
    ['the local CRC-32', (h) => h.local + 14, /the local header's CRC-32 .* is not the central directory's/, true],
    ['the central CRC-32', (h) => h.central + 16, /the local header's CRC-32 .* is not the central directory's/, false],
    ['the local name', (h) => h.local + 30, /mismatching local file name/, true],
    ['the central name', (h) => h.central + 46, /mismatching local file name/, true],
    // unzip -t reads a deflated entry to its end whatever the local size says; a stored one by that size.
    ['the local uncompressed size', (h) => h.local + 22, /the local header's sizes/, (name) => name.endsWith('.csv')],
    ['the local compression method', (h) => h.local + 8, /compression method/, true],
    ['a byte of the data', (h) => h.data + 2, /bad CRC|invalid|unexpected/, true],
  ]
  const cases = headers(base).flatMap((h) =>
    flips.map(([what, at, why, u]) => {
      const unzipRefuses = typeof u === 'function' ? u(h.name) : u
      return [`${what} of ${h.name}${unzipRefuses ? '' : ' (unzip -t takes it)'}`, at(h), why, unzipRefuses] as const
    }),
  )

  it.each(cases)('%s flipped: refused', async (_what, at, why, unzipRefuses) => {
    const zip = Buffer.from(base)
    zip[at] ^= 0x01
    const path = join(dir, `flip-${++n}.zip`)
    writeFileSync(path, zip)
    const e = await readPackZip(path).then(
      () => null,
      (err: unknown) => err,
    )
    expect(e, 'verify --pack took it').toBeInstanceOf(PackRefused)
    expect((e as PackRefused).problems.join('\n')).toMatch(why)
    if (unzip) expect(spawnSync('unzip', ['-t', path]).status !== 0, 'unzip -t refuses it').toBe(unzipRefuses)
  })

  it('the unflipped zip passes, as unzip -t says', async () => {
    const path = join(dir, 'unflipped.zip')
    writeFileSync(path, base)
    expect([...(await readPackZip(path)).keys()]).toEqual(['manifest.json', 'journal/books.csv'])
    if (unzip) expect(spawnSync('unzip', ['-t', path]).status).toBe(0)
  })
})

/**
 * Reading a pack given to `verify --pack` (docs/closing.md, "Checking a pack"): a zip from anyone,
 * so nothing in it is trusted. Refused, with the entry named: a name that is absolute, climbs out
 * (`..`), holds a backslash or a control character; a symbolic link; two entries of one name (or of
 * names equal but for case); an encrypted entry; more entries or more bytes than a pack holds; an
 * entry whose size is far beyond its compressed size (a zip bomb), or whose bytes are more than it
 * declares. Then `unzip -t`'s verdict on the container (zip-headers.ts): each entry's data against its
 * CRC-32, its local header against its central directory entry, no two entries overlapping; every
 * such problem is named, not only the first. Nothing is written to disk: each entry is read into
 * memory, within those caps.
 */
import { open as openFile } from 'node:fs/promises'
import { crc32 } from 'node:zlib'
import { open as openZip, type Entry, type ZipFile } from 'yauzl'
import { type EntrySpan, localHeaderProblems, overlaps } from './zip-headers.js'

/** A pack holds a month: its journal, statements' lines, documents of at most 20 MiB each. */
export const ZIP_LIMITS = {
  entries: 10_000,
  /** Every entry's bytes, uncompressed. */
  totalBytes: 1024 * 1024 * 1024,
  entryBytes: 512 * 1024 * 1024,
  /** Uncompressed over compressed size, for an entry above `ratioFrom` bytes: deflate reaches about 1,000 on repeated bytes, text about 10. */
  ratio: 200,
  ratioFrom: 1024 * 1024,
}

export class PackRefused extends Error {
  /** Each thing wrong with the container, when several are (the message names the first). */
  readonly problems: string[]
  constructor(message: string, problems: string[] = [message]) {
    super(message)
    this.problems = problems
  }
}

const S_IFMT = 0o170000
const S_IFLNK = 0o120000

/** Why `name` may not be a pack's entry name, or null when it may. */
export function unsafeName(name: string): string | null {
  if (name.length === 0) return 'an empty name'
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'a control character in its name'
  if (name.includes('\\')) return 'a backslash in its name'
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'an absolute path'
  const parts = name.replace(/\/$/, '').split('/')
  if (parts.some((p) => p === '..')) return 'a path that climbs out of the pack (..)'
  if (parts.some((p) => p === '' || p === '.')) return 'an empty or "." part in its path'
  return null
}

function openZipFile(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    openZip(path, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false }, (err, zip) =>
      err ? reject(new PackRefused(`not a readable zip: ${err.message}`)) : resolve(zip),
    ),
  )
}

function readEntry(zip: ZipFile, entry: Entry, name: string, budget: { left: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(new PackRefused(`${name}: cannot be read: ${err.message}`))
      const chunks: Buffer[] = []
      let got = 0
      stream.on('data', (d: Buffer) => {
        got += d.length
        budget.left -= d.length
        // yauzl stops at the declared size too; this holds even before it does.
        if (got > entry.uncompressedSize || budget.left < 0) {
          stream.destroy()
          reject(new PackRefused(`${name}: holds more bytes than it declares (${entry.uncompressedSize}): a zip bomb`))
          return
        }
        chunks.push(d)
      })
      stream.on('error', (e: Error) => reject(new PackRefused(`${name}: ${e.message}`)))
      stream.on('end', () => resolve(Buffer.concat(chunks)))
    })
  })
}

/** Every file of the zip at `path`, by name; throws PackRefused naming what is wrong. */
export async function readPackZip(path: string, limits = ZIP_LIMITS): Promise<Map<string, Buffer>> {
  const zip = await openZipFile(path)
  const fh = await openFile(path, 'r')
  const container: string[] = []
  const spans: EntrySpan[] = []
  const files = new Map<string, Buffer>()
  const folded = new Map<string, string>()
  const budget = { left: limits.totalBytes }
  let entries = 0
  let declared = 0
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (e: unknown) => {
        reject(e instanceof PackRefused ? e : new PackRefused(`not a readable zip: ${(e as Error).message}`))
      }
      zip.on('error', fail)
      zip.on('end', resolve)
      zip.on('entry', (entry: Entry) => {
        const raw = entry.fileName as unknown as Buffer
        const name = raw.toString('utf8')
        const shown = JSON.stringify(name)
        try {
          if (++entries > limits.entries) throw new PackRefused(`more than ${limits.entries} entries: not a pack`)
          const why = unsafeName(name)
          if (why) throw new PackRefused(`entry ${shown}: ${why}`)
          if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) throw new PackRefused(`entry ${shown}: a symbolic link`)
          if ((entry.generalPurposeBitFlag & 1) !== 0) throw new PackRefused(`entry ${shown}: encrypted`)
          if (files.has(name)) throw new PackRefused(`entry ${shown}: appears twice`)
          const fold = name.normalize('NFC').toLowerCase()
          const other = folded.get(fold)
          if (other !== undefined) throw new PackRefused(`entries ${JSON.stringify(other)} and ${shown}: the same name but for case`)
          folded.set(fold, name)
          declared += entry.uncompressedSize
          if (entry.uncompressedSize > limits.entryBytes || declared > limits.totalBytes)
            throw new PackRefused(`entry ${shown}: ${entry.uncompressedSize} bytes uncompressed, more than a pack holds: a zip bomb`)
          if (entry.uncompressedSize > limits.ratioFrom && entry.uncompressedSize > limits.ratio * Math.max(entry.compressedSize, 1))
            throw new PackRefused(
              `entry ${shown}: ${entry.uncompressedSize} bytes from ${entry.compressedSize} compressed, more than ${limits.ratio} times: a zip bomb`,
            )
        } catch (e) {
          return fail(e)
        }
        const read = async () => {
          const local = await localHeaderProblems(fh, entry, raw, shown)
          container.push(...local.problems)
          if (local.span) spans.push(local.span)
          if (name.endsWith('/')) return
          const b = await readEntry(zip, entry, shown, budget)
          const crc = crc32(b)
          if (crc !== entry.crc32)
            container.push(`entry ${shown}: bad CRC (its data's CRC-32 is ${hex(crc)}, the central directory says ${hex(entry.crc32)})`)
          files.set(name, b)
        }
        read().then(() => zip.readEntry(), fail)
      })
      zip.readEntry()
    })
  } finally {
    zip.close()
    await fh.close()
  }
  container.push(...overlaps(spans))
  if (container.length) throw new PackRefused(container[0], container)
  return files
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`

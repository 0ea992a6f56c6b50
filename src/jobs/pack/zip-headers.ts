/**
 * What `unzip -t` checks of a zip's container, for `verify --pack` (docs/closing.md, "Checking a
 * pack"): each entry's local header agrees with its central directory entry (name, compression,
 * flags, CRC-32, sizes; those of its data descriptor when the sizes follow the data), and no two
 * entries' bytes overlap. yauzl reads the central directory and only finds the data through the
 * local header, so a local header that says otherwise would go unseen: a zip tool reading the local
 * headers (a streaming unzip) would then see other files than verify did.
 */
import type { FileHandle } from 'node:fs/promises'
import type { Entry } from 'yauzl'

const LOCAL_SIGNATURE = 0x04034b50
const DESCRIPTOR_SIGNATURE = 0x08074b50
const ZIP64_EXTRA = 0x0001
const MAX32 = 0xffffffff
/** Bit 3: CRC-32 and sizes are in a data descriptor after the data. */
const DESCRIPTOR_FLAG = 0x0008

/** Where an entry's bytes lie in the file: its local header to the end of its data (and descriptor). */
export interface EntrySpan {
  name: string
  start: number
  end: number
}

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer | null> {
  const b = Buffer.alloc(length)
  const { bytesRead } = await fh.read(b, 0, length, position)
  return bytesRead === length ? b : null
}

/** The ZIP64 extra field's sizes in a local header (uncompressed, then compressed, each present when its field is 0xFFFFFFFF). */
function zip64Sizes(extra: Buffer, usize: number, csize: number): { usize: number; csize: number } {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at)
    const size = extra.readUInt16LE(at + 2)
    if (id === ZIP64_EXTRA) {
      let p = at + 4
      const next = () => {
        if (p + 8 > at + 4 + size) return null
        const v = Number(extra.readBigUInt64LE(p))
        p += 8
        return v
      }
      return { usize: usize === MAX32 ? (next() ?? usize) : usize, csize: csize === MAX32 ? (next() ?? csize) : csize }
    }
    at += 4 + size
  }
  return { usize, csize }
}

/**
 * The problems of one entry's local header against its central directory entry (empty: none), and
 * where its bytes lie. `rawName` is the central directory's name as stored.
 */
export async function localHeaderProblems(
  fh: FileHandle,
  entry: Entry,
  rawName: Buffer,
  shown: string,
): Promise<{ problems: string[]; span: EntrySpan | null }> {
  const problems: string[] = []
  const offset = entry.relativeOffsetOfLocalHeader
  const head = await readAt(fh, offset, 30)
  if (!head || head.readUInt32LE(0) !== LOCAL_SIGNATURE)
    return { problems: [`entry ${shown}: no local header where the central directory says (offset ${offset})`], span: null }
  const flags = head.readUInt16LE(6)
  const method = head.readUInt16LE(8)
  const nameLength = head.readUInt16LE(26)
  const extraLength = head.readUInt16LE(28)
  const tail = await readAt(fh, offset + 30, nameLength + extraLength)
  if (!tail) return { problems: [`entry ${shown}: its local header runs past the end of the file`], span: null }
  const localName = tail.subarray(0, nameLength)
  if (!localName.equals(rawName))
    problems.push(`entry ${shown}: mismatching local file name (the local header says ${JSON.stringify(localName.toString('utf8'))})`)
  if (method !== entry.compressionMethod)
    problems.push(
      `entry ${shown}: the local header's compression method (${method}) is not the central directory's (${entry.compressionMethod})`,
    )
  // Encryption and the descriptor's place must agree; the other bits (language encoding) are only how names are read.
  for (const [bit, what] of [
    [0x0001, 'encryption'],
    [DESCRIPTOR_FLAG, 'data descriptor'],
  ] as const)
    if ((flags & bit) !== (entry.generalPurposeBitFlag & bit))
      problems.push(`entry ${shown}: the local header's ${what} flag differs from the central directory's`)
  const dataStart = offset + 30 + nameLength + extraLength
  let end = dataStart + entry.compressedSize
  const local = zip64Sizes(tail.subarray(nameLength), head.readUInt32LE(22), head.readUInt32LE(18))
  const crc = head.readUInt32LE(14)
  const compare = (where: string, c: number, csize: number, usize: number) => {
    if (c !== entry.crc32)
      problems.push(
        `entry ${shown}: ${where} CRC-32 ${hex(c)} is not the central directory's ${hex(entry.crc32)}: a bad CRC, or two headers that disagree`,
      )
    if (csize !== entry.compressedSize || usize !== entry.uncompressedSize)
      problems.push(
        `entry ${shown}: ${where} sizes (${csize} compressed, ${usize} uncompressed) are not the central directory's (${entry.compressedSize}, ${entry.uncompressedSize})`,
      )
  }
  if ((flags & DESCRIPTOR_FLAG) === 0) compare("the local header's", crc, local.csize, local.usize)
  else {
    // The descriptor: an optional signature, then CRC-32 and two sizes (8 bytes each in a ZIP64 entry).
    const wide = local.csize !== head.readUInt32LE(18) || local.usize !== head.readUInt32LE(22)
    const d = await readAt(fh, end, wide ? 24 : 16)
    if (!d) problems.push(`entry ${shown}: its data descriptor runs past the end of the file`)
    else {
      const signed = d.readUInt32LE(0) === DESCRIPTOR_SIGNATURE ? 4 : 0
      const field = (i: number) => (wide ? Number(d.readBigUInt64LE(signed + 4 + i * 8)) : d.readUInt32LE(signed + 4 + i * 4))
      // A descriptor without a signature and ZIP64 sizes may be 4 bytes short of what was read: the sizes are then the last read.
      if (signed + 4 + (wide ? 16 : 8) <= d.length) compare("the data descriptor's", d.readUInt32LE(signed), field(0), field(1))
      end += signed + 4 + (wide ? 16 : 8)
    }
    if (crc !== 0 && crc !== entry.crc32) compare("the local header's", crc, entry.compressedSize, entry.uncompressedSize)
  }
  return { problems, span: { name: shown, start: offset, end } }
}

/** Entries whose bytes overlap another's (a zip bomb's trick: one compressed stream read as many files). */
export function overlaps(spans: EntrySpan[]): string[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start)
  const out: string[] = []
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i].start < sorted[i - 1].end)
      out.push(`entries ${sorted[i - 1].name} and ${sorted[i].name} overlap in the file: overlapped components (a zip bomb)`)
  return out
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`

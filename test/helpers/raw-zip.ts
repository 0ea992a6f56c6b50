/**
 * A zip written byte by byte, for tests that hand `verify --pack` what no zip library writes: names
 * that climb out or are absolute, symbolic links, two entries of one name, sizes that lie, bombs.
 */
import { crc32, deflateRawSync } from 'node:zlib'

export interface RawEntry {
  name: string
  data: Buffer
  /** Deflate it (default: stored). */
  deflate?: boolean
  /** Unix mode in the external attributes (0o120777: a symbolic link). */
  mode?: number
  /** The uncompressed size written in the headers, when it should lie. */
  declaredSize?: number
  /** CRC-32 and sizes in a data descriptor after the data (flag bit 3), zeros in the local header, as a streaming writer does. */
  descriptor?: boolean
}

export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8')
    const body = e.deflate ? deflateRawSync(e.data) : e.data
    const size = e.declaredSize ?? e.data.length
    const crc = crc32(e.data)
    const method = e.deflate ? 8 : 0
    const flags = e.descriptor ? 0x0808 : 0x0800
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(flags, 6)
    local.writeUInt16LE(method, 8)
    if (!e.descriptor) {
      local.writeUInt32LE(crc, 14)
      local.writeUInt32LE(body.length, 18)
      local.writeUInt32LE(size, 22)
    }
    local.writeUInt16LE(name.length, 26)
    const descriptor = Buffer.alloc(e.descriptor ? 16 : 0)
    if (e.descriptor) {
      descriptor.writeUInt32LE(0x08074b50, 0)
      descriptor.writeUInt32LE(crc, 4)
      descriptor.writeUInt32LE(body.length, 8)
      descriptor.writeUInt32LE(size, 12)
    }
    locals.push(local, name, body, descriptor)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE((3 << 8) | 20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(flags, 8)
    central.writeUInt16LE(method, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38)
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)
    offset += local.length + name.length + body.length + descriptor.length
  }
  const cd = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(cd.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, cd, end])
}

/**
 * A list of UUIDs in few bytes, for the ids an import's event names (one per row created): each id
 * as the count of leading bytes it shares with the one before, then the rest. UUIDv7 ids made in
 * one batch share their millisecond and most of their counter, so an id takes about 10 bytes
 * instead of the 39 of its JSON text (docs/performance.md, "Storage").
 */

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const FORMAT = 1

/** The ids packed, or undefined when one is not a UUID in lower-case canonical text (kept as it was). */
export function packUuids(ids: readonly string[]): Buffer | undefined {
  const out = Buffer.allocUnsafe(1 + ids.length * 17)
  out[0] = FORMAT
  let at = 1
  let prev = Buffer.alloc(16)
  for (const id of ids) {
    if (id.length !== 36 || !CANONICAL.test(id)) return undefined
    const bytes = Buffer.from(id.replaceAll('-', ''), 'hex')
    let shared = 0
    while (shared < 15 && bytes[shared] === prev[shared]) shared++
    out[at++] = shared
    at += bytes.copy(out, at, shared)
    prev = bytes
  }
  return out.subarray(0, at)
}

/** The ids `packUuids` packed, in their order and text. Throws on bytes it did not write. */
export function unpackUuids(packed: Uint8Array): string[] {
  const b = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength)
  if (b[0] !== FORMAT) throw new Error(`packed ids: unknown format ${b[0]}`)
  const ids: string[] = []
  const cur = Buffer.alloc(16)
  for (let at = 1; at < b.length; ) {
    const shared = b[at++]
    if (shared > 15 || at + 16 - shared > b.length) throw new Error('packed ids: truncated')
    at += b.copy(cur, shared, at, at + 16 - shared)
    const h = cur.toString('hex')
    ids.push(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`)
  }
  return ids
}

/**
 * `packUuids` one id at a time, for a list too long to hold as strings (a revert's ids): the same
 * bytes. An id that is not canonical keeps the whole list as text, as packUuids leaves it.
 */
export class UuidPacker {
  private out = Buffer.allocUnsafe(1 + 17 * 1024)
  private at = 1
  private prev = Buffer.alloc(16)
  private text: string[] | undefined
  private packed: Buffer[] = []

  constructor() {
    this.out[0] = FORMAT
  }

  add(id: string): void {
    if (this.text) {
      this.text.push(id)
      return
    }
    if (id.length !== 36 || !CANONICAL.test(id)) {
      this.text = [...this.ids(), id]
      return
    }
    if (this.at + 17 > this.out.length) {
      this.packed.push(this.out.subarray(0, this.at))
      this.out = Buffer.allocUnsafe(Math.min(this.out.length * 2, 17 * 65536))
      this.at = 0
    }
    const bytes = Buffer.from(id.replaceAll('-', ''), 'hex')
    let shared = 0
    while (shared < 15 && bytes[shared] === this.prev[shared]) shared++
    this.out[this.at++] = shared
    this.at += bytes.copy(this.out, this.at, shared)
    this.prev = bytes
  }

  /** The packed bytes, or undefined when an id was not canonical (`ids()` then gives them as text). */
  bytes(): Buffer | undefined {
    if (this.text) return undefined
    return Buffer.concat([...this.packed, this.out.subarray(0, this.at)])
  }

  ids(): string[] {
    return this.text ?? unpackUuids(this.bytes()!)
  }
}

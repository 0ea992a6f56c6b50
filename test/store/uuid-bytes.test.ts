/** The codec's UUID text <-> 16 bytes (a transaction's id as SQLite stores it). */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { uuidBytes, uuidText } from '../../src/store/transaction-codec.js'
import { uuidv7 } from '../../src/kernel/ids.js'

/** The bytes by another route: Node's hex decoder over the text without its dashes. */
const reference = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex')

describe('uuidBytes', () => {
  it('reads any UUID, in either case, to its 16 bytes, and uuidText gives the text back', () => {
    const ids = [
      ...Array.from({ length: 200 }, () => randomUUID()),
      ...Array.from({ length: 200 }, () => uuidv7()),
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '0123ABCD-89ef-4A5b-9C0d-EFabcdef0189',
    ]
    for (const id of ids) {
      const b = uuidBytes(id)
      expect(b, id).toBeDefined()
      expect(Buffer.compare(b!, reference(id)), id).toBe(0)
      expect(uuidText(b!)).toBe(id.toLowerCase())
    }
  })

  it('refuses text that is not a UUID', () => {
    const good = '0123abcd-89ef-4a5b-9c0d-efabcdef0189'
    const bad = [
      '',
      good.slice(1),
      `${good}0`,
      good.replaceAll('-', ''),
      // A dash moved, or not a dash.
      '0123abc-d89ef-4a5b-9c0d-efabcdef0189',
      good.replace(/-/g, '_'),
      // A character that is not a hex digit, at the start, the middle, the end of a byte.
      `g${good.slice(1)}`,
      `${good.slice(0, 20)}x${good.slice(21)}`,
      `${good.slice(0, 35)}G`,
      `${good.slice(0, 10)}/${good.slice(11)}`,
      `${good.slice(0, 10)}:${good.slice(11)}`,
      `${good.slice(0, 10)}@${good.slice(11)}`,
      `${good.slice(0, 10)}\`${good.slice(11)}`,
      // Outside ASCII: a fullwidth digit, and a character whose low byte is a hex digit's code.
      `${good.slice(0, 10)}１${good.slice(11)}`,
      `${good.slice(0, 10)}\u0141${good.slice(11)}`,
    ]
    for (const id of bad) expect(uuidBytes(id), JSON.stringify(id)).toBeUndefined()
  })
})

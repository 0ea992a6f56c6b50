/**
 * Packed ids (an import event's `transaction_ids`): every list of canonical UUIDs comes back as it
 * went in, UUIDv7 ids made together take about 10 bytes each, and anything else is not packed.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { uuidv7 } from '../../src/kernel/ids.js'
import { packUuids, UuidPacker, unpackUuids } from '../../src/kernel/packed-ids.js'

describe('packed ids', () => {
  it('gives back any list of UUIDs in its order and text', () => {
    fc.assert(
      fc.property(fc.array(fc.uuid({ version: [4, 7] }).map((u) => u.toLowerCase())), (ids) => {
        const packed = packUuids(ids)
        expect(packed).toBeDefined()
        expect(unpackUuids(packed as Buffer)).toEqual(ids)
      }),
    )
  })

  it('packs the ids of one batch into about 10 bytes each, repeats and all', () => {
    const ids = Array.from({ length: 1000 }, () => uuidv7())
    ids.push(ids[0], ids[0], randomUUID())
    const packed = packUuids(ids) as Buffer
    expect(unpackUuids(packed)).toEqual(ids)
    expect(packed.length).toBeLessThan(11 * ids.length)
  })

  it('leaves alone a list with an id not in lower-case canonical text', () => {
    const id = randomUUID()
    expect(packUuids([id, id.toUpperCase()])).toBeUndefined()
    expect(packUuids([id, 'not-a-uuid'])).toBeUndefined()
    expect(packUuids([id.replaceAll('-', '')])).toBeUndefined()
    expect(unpackUuids(packUuids([]) as Buffer)).toEqual([])
  })

  it('refuses bytes it did not write', () => {
    const packed = packUuids([randomUUID(), randomUUID()]) as Buffer
    expect(() => unpackUuids(packed.subarray(0, packed.length - 1))).toThrow(/truncated/)
    expect(() => unpackUuids(Buffer.from([2]))).toThrow(/format/)
  })
})

describe('UuidPacker', () => {
  it('packs one id at a time into the bytes packUuids gives, across its buffers', () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7())
    ids.push(randomUUID(), ids[3])
    const p = new UuidPacker()
    for (const id of ids) p.add(id)
    expect(p.bytes()).toEqual(packUuids(ids))
    expect(p.ids()).toEqual(ids)
  })

  it('keeps the ids as text once one is not canonical', () => {
    const p = new UuidPacker()
    const ids = [uuidv7(), 'not-a-uuid', uuidv7()]
    for (const id of ids) p.add(id)
    expect(p.bytes()).toBeUndefined()
    expect(p.ids()).toEqual(ids)
  })
})

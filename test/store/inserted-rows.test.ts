/** InsertedRows (src/store/store.ts): which rows of an insert went in, by place, and their ids. */
import { describe, expect, it } from 'vitest'
import { InsertedRows } from '../../src/store/store.js'

const rows = ['a', 'b', 'c', 'd'].map((id) => ({ id }))

describe('InsertedRows', () => {
  it('by place: at, ids and size agree', () => {
    const r = InsertedRows.byPlace(rows, Uint8Array.from([1, 0, 1, 1]))
    expect(rows.map((_, i) => r.at(i))).toEqual([true, false, true, true])
    expect(r.ids()).toEqual(['a', 'c', 'd'])
    expect(r.size).toBe(3)
  })

  it('from ids: the places of the rows with those ids', () => {
    const r = InsertedRows.ofIds(rows, new Set(['d', 'b']))
    expect(rows.map((_, i) => r.at(i))).toEqual([false, true, false, true])
    expect(r.ids()).toEqual(['b', 'd'])
    expect(r.size).toBe(2)
    expect(InsertedRows.ofIds([], new Set()).size).toBe(0)
  })
})

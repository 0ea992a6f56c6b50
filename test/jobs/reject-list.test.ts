/**
 * The rejected rows of an import in flat memory (src/jobs/import/reject-list.ts): the first ones in
 * memory, the rest in a private spill file, read back whole and in order, and removed after.
 */
import { existsSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { discardRejects, KEPT_REJECTS, newSpillDir, readRejects, RejectList, type RejectedRow } from '../../src/jobs/import/reject-list.js'

async function all(kept: RejectedRow[], spill: string | undefined): Promise<RejectedRow[]> {
  const out: RejectedRow[] = []
  for await (const r of readRejects(kept, spill)) out.push(r)
  return out
}

describe('RejectList', () => {
  it('keeps up to its limit in memory and needs no file for them', async () => {
    const list = new RejectList(3)
    for (let i = 1; i <= 3; i++) list.add({ line: i, reason: `r${i}` })
    list.close()
    expect(list.kept).toHaveLength(3)
    expect(list.spillPath).toBeUndefined()
    expect(await all(list.kept, list.spillPath)).toEqual([1, 2, 3].map((i) => ({ line: i, reason: `r${i}` })))
  })

  it('spills the rest to a private file and reads every row back in order, quotes, new lines and all', async () => {
    const list = new RejectList(2)
    // Past the 64 KiB write buffer several times over.
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      line: i + 2,
      reason: i % 3 ? `amount: "${i},5\n" is not an amount` : `date "${i}" does not fit DD.MM.YYYY`,
    }))
    for (const r of rows) list.add(r)
    list.close()
    expect(list.kept).toEqual(rows.slice(0, 2))
    const spill = list.spillPath!
    expect(statSync(spill).mode & 0o777).toBe(0o600)
    expect(statSync(dirname(spill)).mode & 0o777).toBe(0o700)
    expect(await all(list.kept, spill)).toEqual(rows)
    discardRejects(spill)
    expect(existsSync(dirname(spill))).toBe(false)
  })

  it('spills into the folder named before it was made (so a thread stopped at once leaves none), 0700', () => {
    const dir = newSpillDir()
    expect(existsSync(dir)).toBe(false)
    const list = new RejectList(1, dir)
    for (let i = 0; i < 3; i++) list.add({ line: i, reason: 'x' })
    list.close()
    expect(dirname(list.spillPath!)).toBe(dir)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    discardRejects(list.spillPath)
    expect(existsSync(dir)).toBe(false)
  })

  it('keeps a thousand by default', () => {
    expect(KEPT_REJECTS).toBe(1000)
    const list = new RejectList()
    for (let i = 0; i <= KEPT_REJECTS; i++) list.add({ line: i, reason: 'x' })
    list.close()
    expect(list.kept).toHaveLength(KEPT_REJECTS)
    expect(list.spillPath).toBeDefined()
    discardRejects(list.spillPath)
  })
})

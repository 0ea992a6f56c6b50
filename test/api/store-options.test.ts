/** Store options: SQLite's page cache is 64 MiB unless the opener asks for another size (the import's core thread takes 16). */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from '../../src/store/open-store.js'

describe('SQLite page cache', () => {
  let dir = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-cache-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const cacheOf = async (opts: { sqliteCacheMb?: number }) => {
    const store = await openStore(join(dir, 'f.db'), opts)
    try {
      return (await sql<{ cache_size: number }>`pragma cache_size`.execute(store.db)).rows[0].cache_size
    } finally {
      await store.close()
    }
  }

  it('is 64 MiB by default and the size asked for otherwise (negative: KiB)', async () => {
    expect(await cacheOf({})).toBe(-65536)
    expect(await cacheOf({ sqliteCacheMb: 16 })).toBe(-16384)
  })
})

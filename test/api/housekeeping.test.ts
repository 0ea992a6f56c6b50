/**
 * Idempotency records past their 24 hours are pruned: by the embedded core as it closes (at
 * most once an hour per database) and by `finctl serve` on a timer, on both stores.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openCore } from '../../src/core.js'
import { HOUSEKEEPING_EVERY_MS } from '../../src/domain/housekeeping.js'
import { IDEMPOTENCY_TTL_MS } from '../../src/domain/idempotency.js'
import { openStore } from '../../src/store/open-store.js'
import type { Store } from '../../src/store/store.js'
import { freshPostgres, startServeProcess, STORES, stopProcess, type StoreKind } from '../helpers/harness.js'

const HOUR = 60 * 60_000

async function database(kind: StoreKind): Promise<{ url: string; drop: () => Promise<void> }> {
  if (kind === 'postgres') return freshPostgres()
  const dir = mkdtempSync(join(tmpdir(), 'finctl-housekeeping-'))
  return { url: join(dir, 'finctl.db'), drop: async () => rmSync(dir, { recursive: true, force: true }) }
}

async function record(store: Store, key: string, createdAt: Date): Promise<void> {
  await store.db
    .insertInto('idempotency_keys')
    .values({
      owner_id: 'key:test',
      idem_key: key,
      request_hash: 'h',
      status_code: 201,
      response_body: '{}',
      created_at: createdAt.toISOString(),
    })
    .execute()
}

async function keys(url: string): Promise<string[]> {
  const store = await openStore(url, { poolSize: 1 })
  try {
    return (await store.db.selectFrom('idempotency_keys').select('idem_key').orderBy('idem_key').execute()).map((r) => r.idem_key)
  } finally {
    await store.close()
  }
}

describe.each(STORES)('housekeeping on %s', (kind) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => {
    await drop?.()
    drop = undefined
  })

  it('the embedded core prunes records older than 24 hours as it closes, then leaves the database alone for an hour', async () => {
    const db = await database(kind)
    drop = db.drop
    let now = new Date()
    const core = await openCore(db.url, { poolSize: 1, now: () => now })
    await record(core.store, 'expired', new Date(now.getTime() - IDEMPOTENCY_TTL_MS - 60_000))
    await record(core.store, 'fresh', new Date(now.getTime() - IDEMPOTENCY_TTL_MS + HOUR))
    await core.close()
    expect(await keys(db.url)).toEqual(['fresh'])

    // Within the hour the next process finds the work done; an hour on, it prunes again.
    now = new Date(now.getTime() + HOUSEKEEPING_EVERY_MS / 2)
    const second = await openCore(db.url, { poolSize: 1, now: () => now })
    await record(second.store, 'expired-2', new Date(now.getTime() - IDEMPOTENCY_TTL_MS - 60_000))
    await second.close()
    expect(await keys(db.url)).toEqual(['expired-2', 'fresh'])
    now = new Date(now.getTime() + HOUSEKEEPING_EVERY_MS)
    const third = await openCore(db.url, { poolSize: 1, now: () => now })
    await third.close()
    // "fresh" was 23 hours old at the start: an hour and a half later it is past its 24 hours too.
    expect(await keys(db.url)).toEqual([])
  })

  it('finctl serve prunes without being stopped', async () => {
    const db = await database(kind)
    drop = db.drop
    const store = await openStore(db.url, { poolSize: 1 })
    const now = Date.now()
    try {
      await record(store, 'expired', new Date(now - IDEMPOTENCY_TTL_MS - 60_000))
      await record(store, 'fresh', new Date(now - 60_000))
    } finally {
      await store.close()
    }
    const { child } = await startServeProcess(db.url)
    try {
      const deadline = Date.now() + 60_000
      let left = await keys(db.url)
      while (left.includes('expired') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100))
        left = await keys(db.url)
      }
      expect(left).toEqual(['fresh'])
    } finally {
      await stopProcess(child)
    }
  })
})

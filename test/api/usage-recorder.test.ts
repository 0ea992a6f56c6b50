/**
 * The usage recorder of `finctl serve`: a request's record is written before it is answered, in
 * the store's group commit with the request's other writes, so a usage read needs no wait. Across processes:
 * multi-process.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { UsageRecorder } from '../../src/api/usage-recorder.js'
import type { NewApiRequestRow } from '../../src/store/schema.js'
import type { Store } from '../../src/store/store.js'

function row(i: number): NewApiRequestRow {
  return {
    key_id: 'k',
    company_id: 'c',
    method: 'GET',
    endpoint: '/api-v1/bank-accounts',
    status_code: 200,
    response_time_ms: 1,
    created_at: new Date(0).toISOString(),
    request_id: `r${i}`,
    path: '/api-v1/bank-accounts',
  }
}

/** A store whose usage writes the test lets finish, one at a time. */
function fakeStore(o: { recordsJoinGroups?: boolean } = {}) {
  const writes: NewApiRequestRow[][] = []
  const pending: Array<() => void> = []
  const store = {
    hot: {
      recordsJoinGroups: o.recordsJoinGroups ?? false,
      insertApiRequests(rows: NewApiRequestRow[]) {
        return new Promise<void>((resolve) => {
          pending.push(() => {
            writes.push(rows)
            resolve()
          })
        })
      },
    },
  } as unknown as Store
  return {
    store,
    writes,
    finishOne: () => pending.shift()?.(),
    get waiting() {
      return pending.length
    },
  }
}

const turn = () => new Promise<void>((r) => setImmediate(r))

afterEach(() => {
  vi.useRealTimers()
})

describe('UsageRecorder before the answer', () => {
  it('where the store gathers them (SQLite): resolves a record once written, each written at once, not behind a write under way', async () => {
    const s = fakeStore({ recordsJoinGroups: true })
    const rec = new UsageRecorder(s.store, { beforeAnswer: true, maxBuffer: 500 })
    let answered = 0
    for (let i = 0; i < 3; i++) void rec.record(row(i)).then(() => answered++)
    // The store's group commit puts a turn's writes in one COMMIT (sqlite/group-commit.ts): the
    // records must reach it at once, while the group's transaction is open.
    expect(s.waiting).toBe(3)
    await turn()
    expect(answered).toBe(0)
    s.finishOne()
    await turn()
    expect(answered).toBe(1)
    void rec.record(row(3)).then(() => answered++)
    expect(s.waiting).toBe(3)
    s.finishOne()
    s.finishOne()
    s.finishOne()
    await turn()
    expect(answered).toBe(4)
    expect(s.writes.map((w) => w.map((r) => r.request_id))).toEqual([['r0'], ['r1'], ['r2'], ['r3']])
  })

  it('where the store does not gather them (PostgreSQL): records of one turn share a write, the next turn waits for it', async () => {
    const s = fakeStore()
    const rec = new UsageRecorder(s.store, { beforeAnswer: true, maxBuffer: 500 })
    let answered = 0
    for (let i = 0; i < 3; i++) void rec.record(row(i)).then(() => answered++)
    await turn()
    await turn()
    expect(s.waiting).toBe(1)
    // made while the first write is under way: it joins the next one
    void rec.record(row(3)).then(() => answered++)
    void rec.record(row(4)).then(() => answered++)
    await turn()
    expect(answered).toBe(0)
    expect(s.waiting).toBe(1)
    s.finishOne()
    await turn()
    await turn()
    expect(answered).toBe(3)
    expect(s.waiting).toBe(1)
    s.finishOne()
    await turn()
    expect(answered).toBe(5)
    expect(s.writes.map((w) => w.map((r) => r.request_id))).toEqual([
      ['r0', 'r1', 'r2'],
      ['r3', 'r4'],
    ])
  })

  it('settle writes what is held and starts no timer: a usage read waits on no fixed interval', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] })
    const s = fakeStore()
    const rec = new UsageRecorder(s.store, { beforeAnswer: true, maxBuffer: 500 })
    void rec.record(row(0)).catch(() => {})
    let settled = false
    const settle = rec.settle().then(() => {
      settled = true
    })
    expect(vi.getTimerCount()).toBe(0)
    await turn()
    s.finishOne()
    await settle
    expect(settled).toBe(true)
    expect(s.writes.flat().map((r) => r.request_id)).toEqual(['r0'])
    // nothing held, nothing under way: settle answers at once
    await rec.settle()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a failed write keeps its records for the next one', async () => {
    let fail = true
    const written: string[] = []
    const store = {
      hot: {
        insertApiRequests: async (rows: NewApiRequestRow[]) => {
          if (fail) throw new Error('busy')
          written.push(...rows.map((r) => r.request_id ?? ''))
        },
      },
    } as unknown as Store
    const rec = new UsageRecorder(store, { beforeAnswer: true, maxBuffer: 500 })
    await expect(rec.record(row(0))).rejects.toThrow('busy')
    fail = false
    await rec.record(row(1))
    expect(written).toEqual(['r0', 'r1'])
  })
})

describe('UsageRecorder of the embedded core', () => {
  it('holds records until a flush (or laterMs), and record answers at once', async () => {
    const s = fakeStore()
    const rec = new UsageRecorder(s.store, { beforeAnswer: false, maxBuffer: 500 })
    await rec.record(row(0))
    await turn()
    expect(s.waiting).toBe(0)
    expect(rec.pending).toBe(1)
    const settle = rec.settle()
    await turn()
    s.finishOne()
    await settle
    expect(s.writes).toHaveLength(1)
  })
})

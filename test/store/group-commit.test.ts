/**
 * SQLite's group commit (src/store/sqlite/group-commit.ts) with its SQL steps logged: what is
 * acknowledged before its COMMIT, and only inside a request's scope; what a failed group does to
 * the requests with a part in it. The real store under the API: test/api/durable-answers.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { GroupCommit } from '../../src/store/sqlite/group-commit.js'

function logged(o: { failCommits?: number } = {}) {
  const log: string[] = []
  let failCommits = o.failCommits ?? 0
  const group = new GroupCommit({
    async inWriteTurn(work, w) {
      log.push(w.unsynced ? 'BEGIN unsynced' : 'BEGIN')
      const r = await work()
      if (failCommits > 0) {
        failCommits--
        log.push('ROLLBACK')
        throw new Error('disk I/O error')
      }
      log.push('COMMIT')
      return r
    },
    savepoint: (work) => work(),
    inTransaction: () => true,
    translate: (e) => e,
  })
  const write = (name: string, o: { synced?: boolean; acknowledgedLater?: boolean } = {}) =>
    group.run(() => {
      log.push(name)
      return name
    }, o)
  const answered = (name: string) => (v: unknown) => {
    log.push(`answered ${name}`)
    return v
  }
  return { group, log, write, answered }
}

const turn = () => new Promise<void>((r) => setImmediate(r))

describe('group commit', () => {
  it('outside a request scope a write resolves only after its COMMIT, acknowledgedLater or not', async () => {
    const { log, write, answered } = logged()
    await Promise.all([write('take', { acknowledgedLater: true }).then(answered('take')), write('insert').then(answered('insert'))])
    expect(log).toEqual(['BEGIN', 'take', 'insert', 'COMMIT', 'answered take', 'answered insert'])
  })

  it("a request's take resolves in the open group, its insert joins that group, and durable waits for the one COMMIT", async () => {
    const { group, log, write } = logged()
    const request = (n: number) =>
      group.answering(async () => {
        await write(`take ${n}`, { acknowledgedLater: true })
        await write(`insert ${n}`, { acknowledgedLater: true })
        log.push(`built ${n}`)
        await group.durable()
        log.push(`answered ${n}`)
      })
    await Promise.all([request(1), request(2)])
    expect(log).toEqual(['BEGIN', 'take 1', 'take 2', 'insert 1', 'insert 2', 'built 1', 'built 2', 'COMMIT', 'answered 1', 'answered 2'])
  })

  it("a failed COMMIT fails durable for the requests with a part in it, refuses their next writes, and leaves the others' groups alone", async () => {
    const { group, log, write } = logged({ failCommits: 1 })
    const outcomes: string[] = []
    const first = group.answering(async () => {
      await write('take 1', { acknowledgedLater: true })
      // Waits past the group's end (a read behind kysely's lock, say): its group has failed by then.
      await turn()
      await turn()
      await write('insert 1', { acknowledgedLater: true }).then(
        () => outcomes.push('insert 1 written'),
        (e: Error) => outcomes.push(`insert 1 refused: ${e.message}`),
      )
      await group.durable().then(
        () => outcomes.push('1 answered'),
        (e: Error) => outcomes.push(`1 failed: ${e.message}`),
      )
    })
    await first
    const second = group.answering(async () => {
      await write('take 2', { acknowledgedLater: true })
      await group.durable()
      outcomes.push('2 answered')
    })
    await second
    expect(outcomes).toEqual(['insert 1 refused: disk I/O error', '1 failed: disk I/O error', '2 answered'])
    expect(log).toEqual(['BEGIN', 'take 1', 'ROLLBACK', 'BEGIN', 'take 2', 'COMMIT'])
  })

  it('a synced write made while an unsynced group is open waits for the next group, synced', async () => {
    const { group, log, write } = logged()
    await group.answering(async () => {
      await write('take', { synced: false, acknowledgedLater: true })
      await write('insert')
      await group.durable()
    })
    expect(log).toEqual(['BEGIN unsynced', 'take', 'COMMIT', 'BEGIN', 'insert', 'COMMIT'])
  })

  it("the requests' usage records are written in one write as their group ends, and resolve at its COMMIT", async () => {
    const { group, log, write } = logged()
    const records = (items: string[]) => log.push(`records ${items.join(' ')}`)
    const request = (n: number) =>
      group.answering(async () => {
        await write(`insert ${n}`, { acknowledgedLater: true })
        await group.appendAtEnd(records, [`r${n}`])
        log.push(`answered ${n}`)
      })
    await Promise.all([request(1), request(2)])
    // A record made while no synced group is open waits for the next one.
    await group.answering(async () => {
      await write('take 3', { synced: false, acknowledgedLater: true })
      await group.appendAtEnd(records, ['r3'])
    })
    expect(log).toEqual([
      'BEGIN',
      'insert 1',
      'insert 2',
      'records r1 r2',
      'COMMIT',
      'answered 1',
      'answered 2',
      'BEGIN unsynced',
      'take 3',
      'COMMIT',
      'BEGIN',
      'records r3',
      'COMMIT',
    ])
  })
})

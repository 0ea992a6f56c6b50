/**
 * A large revert's rows read and their `delete` entries worked out on a thread of its own
 * (docs/performance.md, "Reverting a batch"), while the revert's thread deletes the rows and writes
 * the entries: each entry's fields, its JSON and its hash (which follow each other along the
 * chain) are JavaScript work that overlaps SQLite's there. The thread reads the rows by runs of
 * seqs on a connection of its own, in one snapshot of what was committed, which is the rows as the
 * revert's transaction found them (store/sqlite/committed-reader.ts), and answers part by part with
 * the entries' `changes` and hashes, made by the same functions as the revert's own thread makes
 * them (deletionRow, entryHash), so the bytes are the same. The revert writes them in its one
 * transaction, which checks they follow the chain's head and that every row came. The thread also
 * keeps the rows' examples for the model.
 *
 * This module is its own worker (worker-entry.ts): in the bundle a chunk of its own, only ever
 * imported dynamically (revert.ts).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { entryHash } from '../../store/audit-chain.js'
import { workerEntry } from '../../worker-entry.js'
import type { Actor } from '../actor.js'
import { exampleOf } from '../categorization/labels.js'
import type { Example } from '../categorization/model.js'
import { toTransaction } from '../transaction-rows.js'
import { deletionRow } from '../transactions/audit.js'
import { rowsByRuns } from './revert-rows.js'

const KIND = 'finctl-revert-entries'

/** What the thread reads and how it chains. */
export interface EntriesJob {
  /** The store's committedFile. */
  file: string
  runs: ReadonlyArray<readonly [number, number]>
  /** Rows a part holds at most. */
  partRows: number
  /** Parts answered and not yet taken (`took`) at most: the thread waits past them. */
  ahead: number
  actor: Actor
  now: Date
  /** The chain head's hash, which the first entry follows. */
  prev: string
  /** Examples given at most (the rest are counted). */
  maxExamples: number
}

/** A part's entries, in seq order: each one's transaction, `changes` text and hash (its prev_hash is the hash before it). */
export interface PartEntries {
  ids: string[]
  changes: string[]
  hashes: string[]
  /** The part's rows' examples, while fewer than `maxExamples` were given. */
  examples: Example[]
}

/** What the thread gives once every part went: the rows counted and the examples it did not give. */
export interface EntriesEnd {
  rows: number
  untold: number
}

type Ask = { type: 'start'; job: Omit<EntriesJob, 'now'> & { now: string } } | { type: 'took' }
type Answer = ({ type: 'part' } & PartEntries) | ({ type: 'end' } & EntriesEnd) | { type: 'error'; message: string }

if (!isMainThread && (workerData as { kind?: string } | undefined)?.kind === KIND) {
  const port = parentPort!
  let credit = 0
  let wake: (() => void) | undefined
  port.on('message', (m: Ask) => {
    if (m.type === 'took') {
      credit++
      wake?.()
      return
    }
    credit = m.job.ahead
    work(m.job, async () => {
      while (credit <= 0) await new Promise<void>((r) => (wake = r))
      credit--
    }).catch((err: unknown) => port.postMessage({ type: 'error', message: (err as Error)?.stack ?? String(err) } satisfies Answer))
  })

  async function work(job: Omit<EntriesJob, 'now'> & { now: string }, turn: () => Promise<void>): Promise<void> {
    const { openCommittedReader } = await import('../../store/open-store.js')
    const reader = await openCommittedReader(job.file)
    const now = new Date(job.now)
    let prev = job.prev
    let held = 0
    let untold = 0
    let rows = 0
    try {
      for await (const part of rowsByRuns(reader, reader.db, job.runs, job.partRows)) {
        const out: PartEntries = {
          ids: new Array(part.length),
          changes: new Array(part.length),
          hashes: new Array(part.length),
          examples: [],
        }
        for (let i = 0; i < part.length; i++) {
          const r = part[i]
          const entry = deletionRow(job.actor, r.id, r, toTransaction(r), now)
          prev = entryHash(prev, entry)
          out.ids[i] = r.id
          out.changes[i] = entry.changes
          out.hashes[i] = prev
          const e = exampleOf(r)
          if (e && held < job.maxExamples) {
            out.examples.push(e)
            held++
          } else if (e) untold++
        }
        rows += part.length
        await turn()
        port.postMessage({ type: 'part', ...out } satisfies Answer)
      }
    } finally {
      // Before the revert commits: its checkpoint cannot pass an open snapshot.
      await reader.close()
    }
    port.postMessage({ type: 'end', rows, untold } satisfies Answer)
  }
}

/** The entries thread of one revert: its answers are taken in order with `next`. */
export class EntriesThread {
  private readonly worker: Worker
  private readonly answers: Answer[] = []
  private waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void } | undefined
  private failed: Error | undefined

  constructor(job: EntriesJob) {
    this.worker = new Worker(workerEntry(import.meta.url), {
      workerData: { kind: KIND },
      // A young generation below V8's default: a lower peak RSS, for somewhat more processor
      // time (docs/performance.md, "Reverting a batch"); the rows stream, so the old one's limit is never reached.
      resourceLimits: { maxYoungGenerationSizeMb: 24, maxOldGenerationSizeMb: 256 },
    })
    this.worker.on('message', (a: Answer) => {
      if (a.type === 'error') return this.fail(new Error(`the revert's entries thread failed: ${a.message}`))
      if (this.waiting) {
        const w = this.waiting
        this.waiting = undefined
        w.resolve(a)
      } else this.answers.push(a)
    })
    this.worker.on('error', (e) => this.fail(e))
    this.worker.on('exit', (code) => this.fail(new Error(`the revert's entries thread stopped (exit code ${code})`)))
    // What an entry takes of the actor (its company and id), as plain data.
    const { companyId, kind, keyId, userId } = job.actor
    const actor: Actor = { companyId, kind, keyId, userId, scopes: [] }
    this.worker.postMessage({ type: 'start', job: { ...job, actor, now: job.now.toISOString() } } satisfies Ask)
  }

  /** The next part's entries, or the end. */
  next(): Promise<({ type: 'part' } & PartEntries) | ({ type: 'end' } & EntriesEnd)> {
    const a = this.answers.shift()
    if (a) return Promise.resolve(a as ({ type: 'part' } & PartEntries) | ({ type: 'end' } & EntriesEnd))
    if (this.failed) return Promise.reject(this.failed)
    return new Promise((resolve, reject) => {
      this.waiting = { resolve: resolve as (a: Answer) => void, reject }
    })
  }

  /** A part was written: the thread may answer one more. */
  took(): void {
    this.worker.postMessage({ type: 'took' } satisfies Ask)
  }

  async close(): Promise<void> {
    this.failed ??= new Error('the revert’s entries thread was closed')
    await this.worker.terminate()
  }

  private fail(e: Error): void {
    this.failed ??= e
    const w = this.waiting
    this.waiting = undefined
    w?.reject(this.failed)
  }
}

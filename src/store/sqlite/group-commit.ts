/**
 * SQLite's group commit: writes issued in the same turn of the event loop (concurrent requests on
 * `finctl serve`) share one transaction, each in its own savepoint, so one failing write does not
 * undo another. Nothing is acknowledged before it is durable: a write resolves after the shared
 * COMMIT or, inside a request's scope (`answering`) when its caller says the request answers only
 * after `durable` (`acknowledgedLater`: a request's take, its insert), once its savepoint is done.
 *
 * The group's transaction stays open until the next turn of the event loop: a request whose take
 * resolved early goes on to its insert and its usage record in the same transaction, so one synced
 * COMMIT holds a turn's requests, where each made three writes one after another before. A hot
 * read while it is open sees the group's writes, and counts as the request's part in the group.
 * A request whose part of a group was undone writes nothing more, and `durable` fails it.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

export interface GroupCommitSteps {
  /**
   * Run `work` in a write transaction of its own (BEGIN IMMEDIATE, once the write lock is had), then
   * COMMIT; `unsynced`: without an fsync (SQLite sets that only outside a transaction).
   */
  inWriteTurn<T>(work: () => Promise<T>, o: { unsynced: boolean }): Promise<T>
  /** One write inside the group's transaction (a savepoint). */
  savepoint<T>(work: () => T): T
  /** False once SQLite has ended the whole transaction (a full disk). */
  inTransaction(): boolean
  translate(error: unknown): unknown
}

export interface GroupWrite {
  /** False: a later synced write of this process covers it (RateLimitInput.syncedLater). */
  synced?: boolean
  /** Inside `answering`, resolve once done inside the group: the request answers after `durable`. */
  acknowledgedLater?: boolean
}

interface Op {
  work: () => unknown
  synced: boolean
  /** The request scope it is acknowledged early to, if it is. */
  scope: Scope | undefined
  resolve: (v: unknown) => void
  reject: (e: unknown) => void
}

/** Items of one kind written together in one savepoint as the group ends (usage records). */
type Tail = Map<(items: unknown[]) => void, Array<{ items: unknown[]; op: Op }>>

interface Group {
  synced: boolean
  tail: Tail
  /** Ops answered at the COMMIT. */
  atCommit: Array<{ op: Op; value: unknown }>
  /** Takes writes; false once it is closing, or once SQLite ended its transaction (`ended`). */
  accepting: boolean
  ended?: unknown
  /** The requests with a part in it: failed with it if it fails. */
  scopes: Set<Scope>
  committed: Promise<void>
}

/** A request's part in the groups: those it wrote to early or read from while open. */
interface Scope {
  groups: Set<Group>
  failed?: { error: unknown }
}

const requests = new AsyncLocalStorage<Scope>()

export class GroupCommit {
  private queue: Op[] = []
  /** Items for the next group's tail. */
  private nextTail: Tail = new Map()
  private scheduled = false
  /** The group from its BEGIN until its COMMIT is done. */
  private current: Group | undefined

  constructor(private readonly steps: GroupCommitSteps) {}

  /** Run a request's handling (`fn`) as one scope: its writes acknowledged early, then `durable`. */
  answering<T>(fn: () => Promise<T>): Promise<T> {
    return requests.run({ groups: new Set() }, fn)
  }

  /**
   * Before a read on the connection: while a group is open, the read sees its writes, so the
   * request it is for has a part in that group. False when no group is open.
   */
  readsOpenGroup(): boolean {
    const g = this.current
    if (!g) return false
    const scope = requests.getStore()
    if (scope) {
      scope.groups.add(g)
      g.scopes.add(scope)
    }
    return true
  }

  run<T>(work: () => T, o: GroupWrite = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const scope = o.acknowledgedLater ? requests.getStore() : undefined
      if (scope?.failed) {
        reject(scope.failed.error)
        return
      }
      const op: Op = { work, synced: o.synced ?? true, scope, resolve: resolve as (v: unknown) => void, reject }
      const g = this.current
      // A synced write waits for a synced group.
      if (g?.accepting && (g.synced || !op.synced)) {
        this.apply(g, op)
        return
      }
      this.queue.push(op)
      this.schedule()
    })
  }

  /**
   * `items` written by `write` with the other items of the same `write` in one savepoint as the
   * group ends, synced; resolves at the COMMIT. Statements a group instead of a request (usage
   * records: one count a key, one total an endpoint).
   */
  appendAtEnd<I>(write: (items: I[]) => void, items: I[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const op: Op = { work: () => undefined, synced: true, scope: undefined, resolve: resolve as (v: unknown) => void, reject }
      const g = this.current
      const tail = g?.accepting && g.synced ? g.tail : this.nextTail
      const w = write as (items: unknown[]) => void
      const list = tail.get(w)
      if (list) list.push({ items, op })
      else tail.set(w, [{ items, op }])
      if (tail === this.nextTail) this.schedule()
    })
  }

  private schedule(): void {
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => void this.drain())
    }
  }

  /**
   * Resolves once every group the request (`answering`) has a part in is committed; rejects with
   * the error of one that was not. Outside a request's scope nothing was acknowledged early.
   */
  async durable(): Promise<void> {
    const scope = requests.getStore()
    if (!scope) return
    for (const g of scope.groups) await g.committed
  }

  private apply(g: Group, op: Op): void {
    const { steps } = this
    let value: unknown
    try {
      value = steps.savepoint(op.work)
    } catch (error) {
      const e = steps.translate(error)
      // SQLite ended the whole transaction (a full disk): every write of it is undone.
      if (!steps.inTransaction()) {
        g.accepting = false
        g.ended = e
      }
      op.reject(e)
      return
    }
    if (op.scope) {
      op.scope.groups.add(g)
      g.scopes.add(op.scope)
      op.resolve(value)
    } else g.atCommit.push({ op, value })
  }

  private async drain(): Promise<void> {
    this.scheduled = false
    const batch = this.queue
    this.queue = []
    const tail = this.nextTail
    this.nextTail = new Map()
    let release!: () => void
    let fail!: (e: unknown) => void
    const committed = new Promise<void>((res, rej) => {
      release = res
      fail = rej
    })
    committed.catch(() => {})
    const synced = tail.size > 0 || batch.some((op) => op.synced)
    const g: Group = { synced, tail, atCommit: [], accepting: false, scopes: new Set(), committed }
    let applied = 0
    let tailed = false
    try {
      await this.steps.inWriteTurn(
        async () => {
          this.current = g
          g.accepting = true
          for (const op of batch) {
            applied++
            if (g.accepting) this.apply(g, op)
            else op.reject(g.ended)
          }
          // One turn for the writes that follow from those just acknowledged (microtasks, and
          // requests read from the sockets meanwhile); then the COMMIT.
          await new Promise<void>((r) => setImmediate(r))
          g.accepting = false
          tailed = true
          for (const [write, list] of g.tail) {
            const all: Op = {
              work: () => write(list.flatMap((x) => x.items)),
              synced: true,
              scope: undefined,
              resolve: () => {
                for (const x of list) x.op.resolve(undefined)
              },
              reject: (e) => {
                for (const x of list) x.op.reject(e)
              },
            }
            if (g.ended === undefined) this.apply(g, all)
            else all.reject(g.ended)
          }
          if (g.ended !== undefined) throw g.ended
        },
        { unsynced: !synced },
      )
    } catch (error) {
      const e = g.ended ?? error
      for (const op of batch.slice(applied)) op.reject(e)
      if (!tailed) for (const list of tail.values()) for (const { op } of list) op.reject(e)
      for (const { op } of g.atCommit) op.reject(e)
      for (const scope of g.scopes) scope.failed ??= { error: e }
      if (this.current === g) this.current = undefined
      fail(e)
      return
    }
    this.current = undefined
    for (const { op, value } of g.atCommit) op.resolve(value)
    release()
  }
}

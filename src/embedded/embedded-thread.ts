/**
 * The embedded transport with the server core on a worker thread: for long jobs (`tx import`),
 * so that reading, mapping and checking rows on the main thread overlaps with the core's
 * validation and SQLite writes on the other (the machine has two cores; the remote target
 * already had that overlap, across two processes). Each request goes over as url, method, headers
 * and body text and comes back as status, headers and body text: the same core, app and routes as
 * `openEmbedded`, only on another thread.
 *
 * This module is its own worker: loaded in a worker thread with the marker in `workerData`, it
 * opens the core and answers; see worker-entry.ts for how the thread finds it.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { workerEntry } from '../worker-entry.js'
import type { FetchLike } from '../client/client.js'
import { AppError, type ErrorCode } from '../kernel/errors.js'

const KIND = 'finctl-embedded-core'

interface Boot {
  kind: typeof KIND
  database: string
}

type Ask =
  | { id: number; url: string; method: string; headers: Record<string, string>; body: string | undefined }
  | { id: number; open: true }
  | { id: number; close: true }
type Answer =
  | { id: number; status: number; headers: Array<[string, string]>; body: string }
  | { id: number; error: string; app?: { code: ErrorCode; retryAfter?: number } }
  | { id: number; done: true }

if (!isMainThread && (workerData as Boot | undefined)?.kind === KIND) {
  const port = parentPort!
  const { database } = workerData as Boot
  // The in-process transport, on this thread: the same requests and answers as openEmbedded.
  const opened = import('./embedded.js').then(({ openEmbedded, useLiteWebClasses }) => {
    useLiteWebClasses()
    // An 8 MiB page cache instead of 64: an import writes at the right edge of most indexes, and
    // the rest (the amount index) is read back from the OS's file cache; as fast, for less memory
    // (docs/performance.md, "Memory of an import").
    return openEmbedded(database, { sqliteCacheMb: 8 })
  })
  port.on('message', (m: Ask) => {
    const answer = (a: Answer) => port.postMessage(a)
    opened
      .then(async (t) => {
        if ('open' in m) return answer({ id: m.id, done: true })
        if ('close' in m) {
          await t.close()
          return answer({ id: m.id, done: true })
        }
        const res = await t.fetch(m.url, { method: m.method, headers: m.headers, body: m.body })
        answer({
          id: m.id,
          status: res.status,
          headers: [...(res.headers as unknown as Iterable<[string, string]>)],
          body: await res.text(),
        })
      })
      .catch((err: unknown) =>
        answer({
          id: m.id,
          error: (err as Error)?.message ?? String(err),
          // A store error (a damaged or locked file) keeps its code across the thread.
          app: err instanceof AppError ? { code: err.code, retryAfter: err.retryAfter } : undefined,
        }),
      )
  })
}

export interface ThreadTransport {
  fetch: FetchLike
  close(): Promise<void>
}

/** Open the core on `database` in a worker thread. */
export async function openEmbeddedThread(database: string): Promise<ThreadTransport> {
  const { LiteResponse } = await import('./in-process.js')
  const worker = new Worker(workerEntry(import.meta.url), {
    workerData: { kind: KIND, database } satisfies Boot,
    // A young generation smaller than V8's default, whose larger one only raised the peak RSS: the
    // thread's garbage is short-lived request bodies and rows. 16 MB rather than 8: the thread is an
    // import's critical path, and 16 was faster for a few MB more (docs/performance.md).
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
  })
  const waiting = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>()
  let next = 0
  let failure: Error | undefined
  const fail = (e: Error) => {
    failure ??= e
    for (const w of waiting.values()) w.reject(failure)
    waiting.clear()
  }
  worker.on('message', (a: Answer) => {
    const w = waiting.get(a.id)
    waiting.delete(a.id)
    w?.resolve(a)
  })
  worker.once('error', (e) => fail(e))
  worker.once('exit', (code) => fail(new Error(`the database thread stopped (exit code ${code})`)))
  // The thread only keeps the process alive while a request is waiting for it.
  worker.unref()

  const ask = (m: Ask): Promise<Answer> =>
    new Promise((resolve, reject) => {
      if (failure) return reject(failure)
      waiting.set(m.id, { resolve, reject })
      worker.ref()
      worker.postMessage(m)
    }).finally(() => {
      if (waiting.size === 0) worker.unref()
    }) as Promise<Answer>

  // Wait for the core: a database that cannot be opened fails here, as openEmbedded does.
  const opened = await ask({ id: next++, open: true })
  if ('error' in opened) {
    await worker.terminate()
    throw thrown(opened)
  }

  return {
    fetch: async (url, init) => {
      const a = await ask({
        id: next++,
        url,
        method: init.method ?? 'GET',
        headers: (init.headers ?? {}) as Record<string, string>,
        body: init.body == null ? undefined : String(init.body),
      })
      if ('error' in a) throw thrown(a)
      if (!('status' in a)) throw new Error('the database thread answered out of turn')
      return new LiteResponse(a.body, { status: a.status, headers: a.headers }) as unknown as Response
    },
    async close() {
      if (failure) return
      const a = await ask({ id: next++, close: true })
      if ('error' in a) throw thrown(a)
      await worker.terminate()
    },
  }
}

/** The thread's error again on this side. */
function thrown(a: { error: string; app?: { code: ErrorCode; retryAfter?: number } }): Error {
  return a.app ? new AppError(a.app.code, a.error, { retryAfter: a.app.retryAfter }) : new Error(a.error)
}

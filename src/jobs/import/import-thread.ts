/**
 * `tx import` reads, maps, checks and sends its rows on a thread of its own; the main thread only
 * prints (notes, the progress line) and answers the write gate (naming a remote target, confirming
 * a protected profile), which may prompt on the terminal.
 *
 * Why a thread: V8 sizes a thread's young generation when the thread starts, and under an import's
 * churn the main thread's grew to its default of 32 MB, which nothing in a running process can
 * change. A worker is given 8 MB (resourceLimits). Measured on a 1,000,000-row embedded import:
 * peak RSS 250-252 MB with the rows on the main thread, 228-231 MB on this thread, at the same speed.
 *
 * On the embedded target this thread opens the core on yet another thread (embedded/embedded-thread.ts),
 * so that reading and writing still overlap on two cores. The runner is the same as in tests
 * (import-runner.ts); only its callbacks cross threads, as messages.
 *
 * This module is its own worker: loaded in a worker thread with the marker in `workerData`, it
 * runs the import; see worker-entry.ts for how the thread finds it.
 */
import { setFlagsFromString } from 'node:v8'
import { isMainThread, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads'
import type { Target } from '../../client/target.js'
import type { FetchLike, RequestLog } from '../../client/client.js'
import { AppError, databaseUnreachable, type ErrorCode, type ErrorDetail } from '../../kernel/errors.js'
import { workerEntry } from '../../worker-entry.js'
import type { ImportPlan } from '../../import/csv-import.js'
import type { ImportProgress, ImportRunOptions, ImportSummary } from './import-runner.js'

const KIND = 'finctl-import'

/** Everything the thread needs, as plain data: it shares no objects with the main thread. */
export interface ImportThreadSpec {
  target: Target
  /** For messages: the target without secrets (Context.describeTarget). */
  targetName: string
  apiKey?: string
  token?: string
  maxRetries: number
  /** Log every request (--verbose). */
  verbose: boolean
  /** Ask the main thread before the first write. */
  gate: boolean
  path: string
  options: Omit<ImportRunOptions, 'onPlan' | 'onProgress' | 'sleep'>
}

export interface ImportThreadHooks {
  onPlan(plan: ImportPlan): void
  onProgress(p: ImportProgress): void
  onRequest(l: RequestLog): void
  beforeWrite(): Promise<void>
}

interface ThrownError {
  kind: 'app' | 'import' | 'other'
  message: string
  code?: ErrorCode
  details?: ErrorDetail[]
  status?: number
  retryAfter?: number
  requestId?: string
}

type FromThread =
  | { plan: ImportPlan }
  | { progress: ImportProgress }
  | { request: RequestLog }
  | { write: true }
  | { done: ImportSummary }
  | { failed: ThrownError }
/** The write gate's answer. */
type ToThread = { refused?: ThrownError }

/** `isImportError`: the file cannot be imported as it is (csv-import.ts's ImportError), a usage problem. */
function toThrown(e: unknown, isImportError: (e: unknown) => boolean = () => false): ThrownError {
  if (e instanceof AppError)
    return {
      kind: 'app',
      message: e.message,
      code: e.code,
      details: e.details,
      status: e.status,
      retryAfter: e.retryAfter,
      requestId: e.requestId,
    }
  if (isImportError(e)) return { kind: 'import', message: (e as Error).message }
  return { kind: 'other', message: (e as Error)?.message ?? String(e) }
}

/** The error again, on this side; a file that cannot be imported is a validation error (exit 6), as in tx-import. */
function fromThrown(t: ThrownError): Error {
  if (t.kind === 'app' && t.code)
    return new AppError(t.code, t.message, { details: t.details, status: t.status, retryAfter: t.retryAfter, requestId: t.requestId })
  if (t.kind === 'import') return new AppError('validation_error', t.message)
  return new Error(t.message)
}

if (!isMainThread && (workerData as { kind?: string } | undefined)?.kind === KIND) {
  void runInThread(parentPort!, (workerData as { spec: ImportThreadSpec }).spec)
}

async function runInThread(port: MessagePort, spec: ImportThreadSpec): Promise<void> {
  const send = (m: FromThread) => port.postMessage(m)
  let closeTransport: (() => Promise<void>) | undefined
  try {
    const [{ Client, EMBEDDED_BASE_URL }, { runImport }] = await Promise.all([
      import('../../client/client.js'),
      import('./import-runner.js'),
    ])
    let fetch: FetchLike
    if (spec.target.kind === 'remote') {
      const t = (await import('../../client/remote.js')).openRemote()
      ;[fetch, closeTransport] = [t.fetch, t.close]
    } else {
      const database = spec.target.database
      const t = await import('../../embedded/embedded-thread.js')
        .then((m) => m.openEmbeddedThread(database))
        .catch((err: unknown) => {
          throw databaseUnreachable(spec.targetName, err)
        })
      ;[fetch, closeTransport] = [t.fetch, t.close]
    }
    // The write gate runs on the main thread (it may prompt), once a command: asked before the first
    // write, its answer holds for the rest.
    let gate: Promise<void> | undefined
    const beforeWrite = spec.gate
      ? () =>
          (gate ??= new Promise<void>((resolve, reject) => {
            port.once('message', (m: ToThread) => (m.refused ? reject(fromThrown(m.refused)) : resolve()))
            send({ write: true })
          }))
      : undefined
    const client = new Client({
      baseUrl: spec.target.kind === 'remote' ? spec.target.baseUrl : EMBEDDED_BASE_URL,
      fetch,
      apiKey: spec.apiKey,
      token: spec.token,
      maxRetries: spec.maxRetries,
      onRequest: spec.verbose ? (l) => send({ request: l }) : undefined,
      beforeWrite,
    })
    const summary = await runImport(client, spec.path, {
      ...spec.options,
      concurrency: spec.options.concurrency ?? defaultConcurrency(spec.target),
      onPlan: (plan) => send({ plan }),
      onProgress: (progress) => send({ progress }),
    })
    // Closed before answering: the embedded core writes its usage records when it closes.
    await closeTransport?.()
    closeTransport = undefined
    send({ done: summary })
  } catch (e) {
    await closeTransport?.().catch(() => {})
    const { ImportError } = await import('../../import/csv-import.js')
    send({ failed: toThrown(e, (x) => x instanceof ImportError) })
  } finally {
    port.close()
  }
}

/** How much a heap may grow beyond what survived its last full collection (percent): see heapGrowingFlag. */
export const HEAP_GROWING_PERCENT = 50

/**
 * Each of the process's heaps (this thread's, the import's and the embedded core's) may grow by half
 * what its last full collection left alive before the next, instead of V8's own factor of up to 4:
 * under an import's stream of batches the core thread's heap grew to 80-95 MB between full
 * collections with about 18 MB alive. A V8 flag, so for the whole process, which from here on only
 * runs the import; read at each collection, so it applies to heaps already there. Not when node was
 * given a factor of its own. Measured, 1,000,000 rows embedded (--trace-gc, alternating runs):
 * - factor 2 against V8's own: peak RSS 277-282 MB against 295-315 MB, at the same speed (five runs each);
 * - 1.5 against 2 (24 Nov 2026, once the rest had shrunk; six alternating pairs, three in each order,
 *   as the first run of a pair was slower): peak RSS 215-225 MB against 231-246 MB into an empty
 *   database, 227-238 MB against 241-251 MB into a database of a million (where 2 went over 250 MB);
 *   time +2% to +7% into an empty database when 1.5 ran second (+7% to +31% when it ran first), and
 *   -7% to +10% into a database of a million; about 230 full collections instead of 145, whose
 *   pauses add 0.6 s over the three threads, and CPU time 2-10% more (concurrent marking).
 */
export function heapGrowingFlag(execArgv: readonly string[], nodeOptions = ''): string | undefined {
  const given = [...execArgv, nodeOptions].some((a) => /heap[-_]growing[-_]percent/.test(a))
  return given ? undefined : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`
}

/**
 * Batches in flight when --concurrency is not given: two on the embedded target, four on a remote
 * one. Embedded, the core commits the batches waiting together in one SQLite transaction (group
 * commit); before bulk loads set indexes aside, four in flight made a 1,000,000-row import about 10%
 * faster than two (fewer commits rewrote fewer index pages). With the indexes aside two are as fast
 * (three alternating pairs at 1,000,000 rows: 13.5-15.9 s against 13.8-15.8 s), and every batch
 * waiting lives on in two threads' heaps: peak RSS 262-268 MB against 270-278 MB. A remote target
 * keeps four, to cover the network's round trips.
 */
export function defaultConcurrency(target: Target): number {
  return target.kind === 'embedded' ? 2 : 4
}

/**
 * The import thread's young generation (MB), by target. Rows outlive a small one (a row waits for
 * its batch's answer), so a small young generation costs processor time in scavenges and full
 * collections; a big one costs peak RSS. On the embedded target the same process holds the core's
 * thread and SQLite: 8 MB (64 MB spared about 6 s of processor time at 1,000,000 rows but peaked at
 * 273-278 MB, 32 MB at 242-248 MB, against the 250 MB target). Towards a remote target this thread
 * is most of the process: 32 MB. Measured, 1,000,000 rows into `finctl serve` on loopback, three
 * alternating pairs: on SQLite 11.0-12.2 s against 12.1-12.8 s, the CLI's processor time 7.7-8.5 s
 * against 9.1-10.0 s, its peak RSS 191-194 MB against 168-176 MB; on PostgreSQL (two pairs) 18.5-19.0
 * s against 18.7-20.5 s, 8.4 s of processor time against 9.1-10.3 s. 64 MB: no less processor time
 * than 32 (7.9-8.4 s), 222 MB.
 */
export function importYoungGenerationMb(target: Target): number {
  return target.kind === 'embedded' ? 8 : 32
}

/** Run `tx import` on its own thread; resolves with the summary, rejects as runImport would. */
export function runImportOnThread(spec: ImportThreadSpec, hooks: ImportThreadHooks): Promise<ImportSummary> {
  const flag = heapGrowingFlag(process.execArgv, process.env.NODE_OPTIONS)
  if (flag) setFlagsFromString(flag)
  const worker = new Worker(workerEntry(import.meta.url), {
    workerData: { kind: KIND, spec },
    // An old generation with a limit: without one V8 let this thread's heap grow to 55-64 MB between
    // full collections, around 14 MB of it alive. With 256 MB (never reached: the rows stream) it
    // collects sooner; 1,000,000 rows embedded peaked at 216-217 MB RSS instead of 243-251 MB, in
    // 31.2-31.3 s against 30.2-31.8 s. The young generation by target: importYoungGenerationMb.
    resourceLimits: { maxYoungGenerationSizeMb: importYoungGenerationMb(spec.target), maxOldGenerationSizeMb: 256 },
  })
  return new Promise<ImportSummary>((resolve, reject) => {
    let outcome: { summary: ImportSummary } | { error: Error } | undefined
    worker.on('message', (m: FromThread) => {
      if ('plan' in m) hooks.onPlan(m.plan)
      else if ('progress' in m) hooks.onProgress(m.progress)
      else if ('request' in m) hooks.onRequest(m.request)
      else if ('write' in m) {
        hooks.beforeWrite().then(
          () => worker.postMessage({} satisfies ToThread),
          (e: unknown) => worker.postMessage({ refused: toThrown(e) } satisfies ToThread),
        )
      } else {
        outcome = 'done' in m ? { summary: m.done } : { error: fromThrown(m.failed) }
        // Its transport is closed already; nothing of the thread needs to outlive the answer.
        void worker.terminate()
      }
    })
    worker.once('error', (e) => (outcome ??= { error: e }))
    // Settled when the thread has ended, so nothing of it outlives the command.
    worker.once('exit', (code) => {
      if (!outcome) reject(new Error(`the import thread stopped (exit code ${code})`))
      else if ('summary' in outcome) resolve(outcome.summary)
      else reject(outcome.error)
    })
  })
}

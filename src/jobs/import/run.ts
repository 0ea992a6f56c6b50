/**
 * `finctl tx import`'s entry: `runImport(options, deps)` runs the import's stages (pipeline.ts) on a
 * thread of its own, while the command's thread only prints (notes, the progress line) and answers
 * the write gate (naming a remote target, confirming a protected profile), which may prompt.
 *
 * Why a thread: V8 sizes a thread's young generation when the thread starts, and the command's
 * thread has grown its own past what an import wants by then (v8-tuning.ts). On the embedded target
 * this thread opens the core on yet another (embedded/embedded-thread.ts), so that reading and
 * writing overlap on two cores. Only the pipeline's callbacks cross threads, as messages.
 *
 * This module is its own worker: loaded in a worker thread with the marker in `workerData`, it
 * runs the import; see worker-entry.ts for how the thread finds it.
 */
import { isMainThread, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads'
import type { Target } from '../../client/target.js'
import type { FetchLike, RequestLog } from '../../client/client.js'
import { AppError, databaseUnreachable, type ErrorCode, type ErrorDetail } from '../../kernel/errors.js'
import { workerEntry } from '../../worker-entry.js'
import type { ImportPlan } from '../../import/plan.js'
import type { ImportOptions } from './pipeline.js'
import type { ImportProgress, ImportSummary } from './summarize.js'
import { importThreadLimits, tuneProcessHeap } from './v8-tuning.js'
import { discardSpillDir, newSpillDir } from './reject-list.js'

export type { ImportOptions, ImportProgress, ImportSummary }
export type { ImportRequest } from './send.js'

const KIND = 'finctl-import'

/** How to reach the service, as plain data: the thread shares no objects with the command's. */
export interface ImportConnection {
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
}

/** What the import needs of the command: the service, and the command's side of each callback. */
export interface ImportDeps {
  connection: ImportConnection
  onPlan(plan: ImportPlan): void
  /** The import's batch was opened on the service. */
  onBatch?(id: string): void
  onProgress(p: ImportProgress): void
  onRequest(l: RequestLog): void
  beforeWrite(): Promise<void>
  /** Aborted: the thread (and the core's, started by it) is ended where it is (Ctrl-C). */
  signal?: AbortSignal
}

/** What the thread is started with. */
interface ThreadData {
  kind: typeof KIND
  options: ImportOptions
  connection: ImportConnection
  spillDir: string
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
  | { batch: string }
  | { progress: ImportProgress }
  | { request: RequestLog }
  | { write: true }
  | { done: ImportSummary }
  | { failed: ThrownError }
/** The write gate's answer. */
type ToThread = { refused?: ThrownError }

/** `isImportError`: the file cannot be imported as it is (plan.ts's ImportError), a usage problem. */
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

/** The error again, on this side; a file that cannot be imported is a validation error (exit 6). */
function fromThrown(t: ThrownError): Error {
  if (t.kind === 'app' && t.code)
    return new AppError(t.code, t.message, { details: t.details, status: t.status, retryAfter: t.retryAfter, requestId: t.requestId })
  if (t.kind === 'import') return new AppError('validation_error', t.message)
  return new Error(t.message)
}

if (!isMainThread && (workerData as { kind?: string } | undefined)?.kind === KIND) {
  const { options, connection, spillDir } = workerData as ThreadData
  void runInThread(parentPort!, options, connection, spillDir)
}

async function runInThread(port: MessagePort, options: ImportOptions, connection: ImportConnection, spillDir: string): Promise<void> {
  const send = (m: FromThread) => port.postMessage(m)
  let closeTransport: (() => Promise<void>) | undefined
  try {
    const [{ Client, EMBEDDED_BASE_URL }, { runPipeline }, { defaultConcurrency }] = await Promise.all([
      import('../../client/client.js'),
      import('./pipeline.js'),
      import('./send.js'),
    ])
    let fetch: FetchLike
    if (connection.target.kind === 'remote') {
      const t = (await import('../../client/remote.js')).openRemote()
      ;[fetch, closeTransport] = [t.fetch, t.close]
    } else {
      const database = connection.target.database
      const t = await import('../../embedded/embedded-thread.js')
        .then((m) => m.openEmbeddedThread(database))
        .catch((err: unknown) => {
          throw databaseUnreachable(connection.targetName, err)
        })
      ;[fetch, closeTransport] = [t.fetch, t.close]
    }
    // The write gate runs on the main thread (it may prompt), once a command: asked before the first
    // write, its answer holds for the rest.
    let gate: Promise<void> | undefined
    const beforeWrite = connection.gate
      ? () =>
          (gate ??= new Promise<void>((resolve, reject) => {
            port.once('message', (m: ToThread) => (m.refused ? reject(fromThrown(m.refused)) : resolve()))
            send({ write: true })
          }))
      : undefined
    const client = new Client({
      baseUrl: connection.target.kind === 'remote' ? connection.target.baseUrl : EMBEDDED_BASE_URL,
      fetch,
      apiKey: connection.apiKey,
      token: connection.token,
      maxRetries: connection.maxRetries,
      onRequest: connection.verbose ? (l) => send({ request: l }) : undefined,
      beforeWrite,
    })
    const summary = await runPipeline(
      client,
      { ...options, concurrency: options.concurrency ?? defaultConcurrency(connection.target) },
      {
        onPlan: (plan) => send({ plan }),
        onBatch: (batch) => send({ batch }),
        onProgress: (progress) => send({ progress }),
        spillDir,
      },
    )
    // Closed before answering: the embedded core writes its usage records when it closes.
    await closeTransport?.()
    closeTransport = undefined
    send({ done: summary })
  } catch (e) {
    await closeTransport?.().catch(() => {})
    const { ImportError } = await import('../../import/plan.js')
    send({ failed: toThrown(e, (x) => x instanceof ImportError) })
  } finally {
    port.close()
  }
}

/** Run `tx import` on its own thread; resolves with the summary, rejects as the pipeline would. */
export function runImport(options: ImportOptions, deps: ImportDeps): Promise<ImportSummary> {
  const { connection, signal: _signal, ...hooks } = deps
  tuneProcessHeap()
  // The rejected rows' spill folder, which a stopped thread cannot remove, goes with it: named here
  // before the thread can make it.
  const spillDir = newSpillDir()
  const worker = new Worker(workerEntry(import.meta.url), {
    workerData: { kind: KIND, options, connection, spillDir } satisfies ThreadData,
    resourceLimits: importThreadLimits(connection.target),
  })
  // Rows of committed batches stay, a batch in flight rolls back: as a killed process leaves them.
  deps.signal?.addEventListener('abort', () => void worker.terminate(), { once: true })
  return new Promise<ImportSummary>((resolve, reject) => {
    let outcome: { summary: ImportSummary } | { error: Error } | undefined
    worker.on('message', (m: FromThread) => {
      if ('plan' in m) hooks.onPlan(m.plan)
      else if ('batch' in m) hooks.onBatch?.(m.batch)
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
      // Only a summary hands its spill file on (to be printed, then discarded).
      if (!outcome || 'error' in outcome) discardSpillDir(spillDir)
      if (!outcome) reject(new Error(`the import thread stopped (exit code ${code})`))
      else if ('summary' in outcome) resolve(outcome.summary)
      else reject(outcome.error)
    })
  })
}

/**
 * A PDF's fields read on a worker thread of its own (read-pdf.ts does the reading): PDF.js parses
 * on the thread it runs on, so on the thread that serves requests a large PDF held `finctl serve`
 * (and the embedded core) until it was read. One thread per process, started with the first PDF,
 * idle between reads (it keeps no process alive); reads go one at a time, each bounded: a size, a
 * time and a heap limit. A read stopped by a limit, or one that fails, gives no fields and says why:
 * the document is kept as it is, and its file name is still read (fields.ts).
 *
 * This module is its own worker (worker-entry.ts): in the bundle a chunk of its own, only ever
 * imported dynamically (fields.ts).
 */
import { isMainThread, parentPort, threadId, Worker, workerData } from 'node:worker_threads'
import { workerEntry } from '../../worker-entry.js'
import type { DocumentFields } from './read-fields.js'

const KIND = 'finctl-pdf'

/** The limits of one read; past them, no fields (the file name's alone). */
export interface PdfLimits {
  /** Bytes of a PDF read at all: a larger one is not parsed. */
  maxBytes: number
  /** How long one read may run, from when it starts on the thread. */
  timeoutMs: number
}

/** The size of a document finctl accepts, and the time a receipt's first pages take many times over. */
export const PDF_LIMITS: PdfLimits = { maxBytes: 20 * 1024 * 1024, timeoutMs: 20_000 }
/** The thread's JavaScript heap: PDF.js's objects of one PDF, with room to spare. */
const THREAD_HEAP_MB = 512

export interface PdfRead {
  /** What the PDF gave (null: nothing, or it was not read). */
  fields: DocumentFields | null
  /** Why it was not read: too large, too slow, out of memory, or the thread failed. */
  stopped: 'size' | 'time' | 'memory' | 'error' | null
  /** The thread that read it (never the caller's). */
  thread: number | null
}

type Ask = { id: number; bytes: Uint8Array; currency: string }
type Answer = { id: number; fields: DocumentFields | null; thread: number }

if (!isMainThread && (workerData as { kind?: string } | undefined)?.kind === KIND) {
  const port = parentPort!
  port.on('message', async (m: Ask) => {
    const { readPdf } = await import('./read-pdf.js')
    port.postMessage({ id: m.id, fields: await readPdf(m.bytes, m.currency), thread: threadId } satisfies Answer)
  })
}

let thread: { worker: Worker; next: number } | undefined
/** Reads wait for the one before: a time limit then stops the read that overran, and only it. */
let queue: Promise<unknown> = Promise.resolve()

function startThread(): { worker: Worker; next: number } {
  const worker = new Worker(workerEntry(import.meta.url), {
    workerData: { kind: KIND },
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
  })
  worker.unref()
  return { worker, next: 0 }
}

/** The fields of the PDF `bytes`, read on the PDF thread within `limits`. Never throws. */
export function readPdfOffThread(bytes: Uint8Array, fallbackCurrency: string, limits: PdfLimits = PDF_LIMITS): Promise<PdfRead> {
  if (bytes.length > limits.maxBytes) return Promise.resolve({ fields: null, stopped: 'size', thread: null })
  const run = queue.then(() => readOne(bytes, fallbackCurrency, limits))
  queue = run.catch(() => {})
  return run
}

function readOne(bytes: Uint8Array, currency: string, limits: PdfLimits): Promise<PdfRead> {
  thread ??= startThread()
  const t = thread
  const { worker } = t
  const id = t.next++
  return new Promise<PdfRead>((resolve) => {
    const cleanup: Array<() => void> = []
    /** Settle once; with `end`, the thread goes too (a read stopped, or the thread broken). */
    const finish = (end: boolean, r: PdfRead) => {
      for (const c of cleanup.splice(0)) c()
      if (end) {
        if (thread === t) thread = undefined
        void worker.terminate()
      } else worker.unref()
      resolve(r)
    }
    const stop = (why: Exclude<PdfRead['stopped'], null>) => finish(true, { fields: null, stopped: why, thread: null })
    const onMessage = (a: Answer) => {
      if (a.id === id) finish(false, { fields: a.fields, stopped: null, thread: a.thread })
    }
    const onError = (e: Error) => stop((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'error')
    const onExit = () => stop('error')
    const timer = setTimeout(() => stop('time'), limits.timeoutMs)
    worker.on('message', onMessage)
    worker.once('error', onError)
    worker.once('exit', onExit)
    cleanup.push(
      () => clearTimeout(timer),
      () => worker.off('message', onMessage),
      () => worker.off('error', onError),
      () => worker.off('exit', onExit),
    )
    // Running, it keeps the process up until it answers; the caller's bytes are stored afterwards: a copy goes.
    worker.ref()
    const copy = new Uint8Array(bytes)
    worker.postMessage({ id, bytes: copy, currency } satisfies Ask, [copy.buffer as ArrayBuffer])
  })
}

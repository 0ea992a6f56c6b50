/**
 * A PDF's fields read on a worker thread of its own (read-pdf.ts does the reading): PDF.js parses
 * on the thread it runs on, so on the thread that serves requests a large PDF held `finctl serve`
 * (and the embedded core) until it was read. A pool of PDF_THREADS threads per process, started as
 * reads need them, idle between reads (they keep no process alive); a company reads one PDF at a
 * time, so none holds another's upload; each read is bounded: a size, a time and a heap limit. A read stopped by a limit, or one that fails, gives no fields and says why:
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

/**
 * Threads reading at once at most. A company reads one PDF at a time, so one company's files (a
 * flate bomb, or many) hold one thread and the others' reads go on the rest: two suffice for that,
 * and each may hold THREAD_HEAP_MB.
 */
export const PDF_THREADS = 2

type Slot = { worker: Worker; next: number }
type Waiting = { company: string; start: (slot: Slot) => void }

/** Threads started and idle (unreferenced, reused by the next read), and how many are reading. */
const idle: Slot[] = []
let reading = 0
/** Reads waiting, by company in the order each company first asked; a company's own in its order. */
const waiting = new Map<string, Waiting[]>()
/** Companies with a read running: none gets a second thread meanwhile. */
const busy = new Set<string>()

/** The next read to start: the first company, in the order they asked, with a read waiting and none running. */
function dispatch(): void {
  while (reading < PDF_THREADS) {
    const company = [...waiting.keys()].find((c) => !busy.has(c))
    if (company === undefined) return
    const queue = waiting.get(company)!
    const next = queue.shift()!
    // Taken out and put back at the end: the companies with more to read take turns.
    waiting.delete(company)
    if (queue.length) waiting.set(company, queue)
    busy.add(company)
    reading++
    next.start(idle.pop() ?? startThread())
  }
}

function startThread(): Slot {
  const worker = new Worker(workerEntry(import.meta.url), {
    workerData: { kind: KIND },
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
  })
  worker.unref()
  const slot = { worker, next: 0 }
  // A thread that ends while idle is not handed the next read.
  worker.once('exit', () => {
    const at = idle.indexOf(slot)
    if (at >= 0) idle.splice(at, 1)
  })
  return slot
}

/**
 * The fields of the PDF `bytes`, read on a PDF thread within `limits`, after `company`'s reads
 * asked before it, beside other companies' reads (docs/documents.md). Never throws.
 */
export function readPdfOffThread(
  bytes: Uint8Array,
  fallbackCurrency: string,
  limits: PdfLimits = PDF_LIMITS,
  company = '',
): Promise<PdfRead> {
  if (bytes.length > limits.maxBytes) return Promise.resolve({ fields: null, stopped: 'size', thread: null })
  return new Promise<PdfRead>((resolve) => {
    const start = (slot: Slot) =>
      void readOne(slot, bytes, fallbackCurrency, limits).then((r) => {
        busy.delete(company)
        reading--
        resolve(r)
        dispatch()
      })
    waiting.set(company, [...(waiting.get(company) ?? []), { company, start }])
    dispatch()
  })
}

function readOne(t: Slot, bytes: Uint8Array, currency: string, limits: PdfLimits): Promise<PdfRead> {
  const { worker } = t
  const id = t.next++
  return new Promise<PdfRead>((resolve) => {
    const cleanup: Array<() => void> = []
    /** Settle once; with `end`, the thread goes too (a read stopped, or the thread broken); else it waits for the next read. */
    const finish = (end: boolean, r: PdfRead) => {
      for (const c of cleanup.splice(0)) c()
      if (end) void worker.terminate()
      else {
        worker.unref()
        idle.push(t)
      }
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

/**
 * Parsing a large statement file on a worker thread, so that the server's event loop keeps
 * answering requests meanwhile (parsing is synchronous and linear in the file: see
 * docs/parser-limits.md). The lines come back in messages of LINES_PER_MESSAGE, each sent once the
 * previous one is read (messages queued together would be read in one turn of the loop): reading
 * them back does not hold the loop either, whatever the size of the file.
 *
 * The worker has a heap limit that grows with the file and a time limit; a file that reaches either
 * fails with that reason (a StatementFileError). One parse runs at a time per process, so that
 * uploads at once cannot add their heaps up.
 *
 * This module is its own worker: loaded in a worker thread with the marker in `workerData`, it
 * parses and posts the result back. In the bundle it is a chunk of its own (it is only ever
 * imported dynamically), so the worker loads that chunk (see worker-entry.ts).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { workerEntry } from '../../worker-entry.js'
import {
  parseUpload,
  StatementFileError,
  type ParsedUpload,
  type ParseTarget,
  type StatementLine,
  type StatementPart,
  type UploadOptions,
} from './parse.js'

const KIND = 'finctl-statement-parse'
const LINES_PER_MESSAGE = 2000

interface Job {
  kind: typeof KIND
  bytes: Uint8Array
  target: ParseTarget
  options: UploadOptions
}

type Message =
  | { type: 'part'; part: Omit<StatementPart, 'lines'> }
  | { type: 'lines'; lines: StatementLine[] }
  | { type: 'done'; format: ParsedUpload['format']; warnings: string[] }
  | { type: 'error'; fileError: boolean; message: string }

if (!isMainThread && (workerData as Job | undefined)?.kind === KIND) {
  const { bytes, target, options } = workerData as Job
  const post = (m: Message) => parentPort!.postMessage(m)
  const queue: Message[] = []
  // The main thread answers each message with 'next'.
  parentPort!.on('message', () => {
    const m = queue.shift()
    if (m) post(m)
  })
  parseUpload(bytes, target, options).then(
    (result) => {
      for (const { lines, ...part } of result.parts) {
        queue.push({ type: 'part', part })
        for (let i = 0; i < lines.length; i += LINES_PER_MESSAGE)
          queue.push({ type: 'lines', lines: lines.slice(i, i + LINES_PER_MESSAGE) })
      }
      queue.push({ type: 'done', format: result.format, warnings: result.warnings })
      post(queue.shift()!)
    },
    (e: unknown) => post({ type: 'error', fileError: e instanceof StatementFileError, message: (e as Error)?.message ?? String(e) }),
  )
}

export interface ParseLimits {
  /** The worker's old-generation heap, MiB. */
  heapMb: number
  timeoutMs: number
}

const MiB = 1024 * 1024
/** What the worker needs before it reads a byte (the parsers' code and a small file), MiB. */
const BASE_HEAP_MB = 32
/** Heap per MiB of file: the worst parser needs about 35 (docs/parser-limits.md). */
const HEAP_PER_MB = 48
const BASE_TIMEOUT_MS = 30_000
/** The slowest parser needs about 0.3 s of processor time a MiB (docs/parser-limits.md): room for a busy machine. */
const TIMEOUT_PER_MB = 5_000

/** The limits of a parse of `size` bytes: FINCTL_PARSE_HEAP_MB and FINCTL_PARSE_TIMEOUT_MS if set, else scaled to the file. */
export function parseLimits(size: number, env: NodeJS.ProcessEnv = process.env): ParseLimits {
  const read = (name: string) => {
    const n = Number(env[name])
    return Number.isInteger(n) && n > 0 ? n : undefined
  }
  return {
    heapMb: read('FINCTL_PARSE_HEAP_MB') ?? BASE_HEAP_MB + Math.ceil((HEAP_PER_MB * size) / MiB),
    timeoutMs: read('FINCTL_PARSE_TIMEOUT_MS') ?? BASE_TIMEOUT_MS + Math.ceil((TIMEOUT_PER_MB * size) / MiB),
  }
}

/** The parse in progress in this process; the next waits for it. */
let turn: Promise<unknown> = Promise.resolve()

/**
 * parseUpload on a worker thread, within `limits` (the time counts from the worker's start to its
 * last line read back); the same results and StatementFileErrors.
 */
export function parseInWorker(
  bytes: Uint8Array,
  target: ParseTarget,
  options: UploadOptions,
  limits: ParseLimits = parseLimits(bytes.length),
): Promise<ParsedUpload> {
  const run = turn.then(() => runWorker(bytes, target, options, limits))
  turn = run.catch(() => {})
  return run
}

function runWorker(bytes: Uint8Array, target: ParseTarget, options: UploadOptions, limits: ParseLimits): Promise<ParsedUpload> {
  return new Promise((resolve, reject) => {
    const own = bytes.slice() // a buffer of its own, moved to the worker rather than copied again
    const worker = new Worker(workerEntry(import.meta.url), {
      workerData: { kind: KIND, bytes: own, target, options } satisfies Job,
      transferList: [own.buffer as ArrayBuffer],
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16 },
    })
    const parts: StatementPart[] = []
    const timer = setTimeout(() => {
      const s = limits.timeoutMs / 1000
      settle(() =>
        reject(
          new StatementFileError(
            `reading the file took longer than the server allows (${s} s, FINCTL_PARSE_TIMEOUT_MS): nothing was imported`,
          ),
        ),
      )
    }, limits.timeoutMs)
    let settled = false
    const settle = (fn: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      fn()
      void worker.terminate()
    }
    worker.on('message', (m: Message) => {
      if (m.type === 'part' || m.type === 'lines') {
        if (m.type === 'part') parts.push({ ...m.part, lines: [] })
        else for (const l of m.lines) parts[parts.length - 1].lines.push(l)
        // Ask for the next message on a later turn of the loop.
        setImmediate(() => worker.postMessage('next'))
      } else if (m.type === 'done') settle(() => resolve({ format: m.format, parts, warnings: m.warnings }))
      else settle(() => reject(m.fileError ? new StatementFileError(m.message) : new Error(`parsing thread: ${m.message}`)))
    })
    worker.once('error', (e: Error & { code?: string }) =>
      settle(() =>
        reject(
          e.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new StatementFileError(
                `reading the file needs more memory than the server allows (${limits.heapMb} MiB, FINCTL_PARSE_HEAP_MB): nothing was imported`,
              )
            : e,
        ),
      ),
    )
    worker.once('exit', (code) => settle(() => reject(new Error(`the parsing thread stopped (exit code ${code}) before it answered`))))
  })
}

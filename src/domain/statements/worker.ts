/**
 * Parsing a large statement file on a worker thread, so that the server's event loop keeps
 * answering requests meanwhile (parsing is synchronous, and a large file takes seconds).
 * The lines come back in messages of LINES_PER_MESSAGE, each sent once the previous one is read
 * (messages queued together would be read in one turn of the loop): reading them back does not
 * hold the loop either, whatever the size of the file.
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

/** parseUpload on a worker thread; the same results and StatementFileErrors. */
export function parseInWorker(bytes: Uint8Array, target: ParseTarget, options: UploadOptions): Promise<ParsedUpload> {
  return new Promise((resolve, reject) => {
    const own = bytes.slice() // a buffer of its own, moved to the worker rather than copied again
    const worker = new Worker(workerEntry(import.meta.url), {
      workerData: { kind: KIND, bytes: own, target, options } satisfies Job,
      transferList: [own.buffer as ArrayBuffer],
    })
    const parts: StatementPart[] = []
    let settled = false
    const settle = (fn: () => void) => {
      if (settled) return
      settled = true
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
    worker.once('error', (e) => settle(() => reject(e)))
    worker.once('exit', (code) => settle(() => reject(new Error(`the parsing thread stopped (exit code ${code}) before it answered`))))
  })
}

/**
 * Parsing a large statement file in a child process, so that the server's event loop keeps
 * answering requests meanwhile (parsing is synchronous and linear in the file: see
 * docs/parser-limits.md). The lines come back in messages of LINES_PER_MESSAGE, each sent once the
 * previous one is read (messages queued together would be read in one turn of the loop): reading
 * them back does not hold the loop either, whatever the size of the file.
 *
 * The child has a heap limit that grows with the file and a time limit; a file that reaches either
 * fails with that reason (a StatementFileError). A process, not a worker thread: a thread that
 * reaches its heap limit in one large allocation (a Map or a string of millions) aborts the whole
 * process, the server with it. One parse runs at a time per process, so that uploads at once do not
 * add their heaps up.
 *
 * This module is its own child: run with the marker argument, it takes the job from its parent,
 * parses and sends the result back. In the bundle it is a chunk of its own (it is only ever
 * imported dynamically), so the child runs that chunk (see worker-entry.ts).
 */
import { fork } from 'node:child_process'
import { childEntry } from '../../worker-entry.js'
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

/** A statement of the file begins (`part`), or lines of the last one. */
type Item = { part: Omit<StatementPart, 'lines'> } | { lines: StatementLine[] }

type Message =
  | { type: 'items'; items: Item[] }
  | { type: 'warnings'; warnings: string[] }
  | { type: 'done'; format: ParsedUpload['format'] }
  | { type: 'error'; fileError: boolean; message: string }

if (process.argv.includes(KIND) && process.send) {
  const send = (m: Message) => process.send!(m)
  const queue: Message[] = []
  const parse = ({ bytes, target, options }: Job) =>
    parseUpload(bytes, target, options).then(
      (result) => {
        // At most LINES_PER_MESSAGE lines and statements a message: a QIF file may hold 300,000 accounts of one line each.
        let items: Item[] = []
        let room = LINES_PER_MESSAGE
        const flush = () => {
          if (items.length) queue.push({ type: 'items', items })
          items = []
          room = LINES_PER_MESSAGE
        }
        for (const { lines, ...part } of result.parts) {
          if (room === 0) flush()
          items.push({ part })
          room--
          for (let i = 0; i < lines.length; ) {
            if (room === 0) flush()
            const take = lines.slice(i, i + room)
            items.push({ lines: take })
            room -= take.length
            i += take.length
          }
        }
        flush()
        // Warnings too a page at a time: a hostile file may have one for every few bytes.
        for (let i = 0; i < result.warnings.length; i += LINES_PER_MESSAGE)
          queue.push({ type: 'warnings', warnings: result.warnings.slice(i, i + LINES_PER_MESSAGE) })
        queue.push({ type: 'done', format: result.format })
        send(queue.shift()!)
      },
      (e: unknown) => send({ type: 'error', fileError: e instanceof StatementFileError, message: (e as Error)?.message ?? String(e) }),
    )
  // The first message is the job; the parent answers each message of ours with 'next'.
  process.on('message', (m: Job | 'next') => {
    if (m !== 'next') return void parse(m)
    const next = queue.shift()
    if (next) send(next)
  })
  // The parent stopped or went away: nothing more to send to.
  process.on('disconnect', () => process.exit(0))
}

export interface ParseLimits {
  /** The child's old-generation heap (V8's --max-old-space-size), MiB. */
  heapMb: number
  timeoutMs: number
}

const MiB = 1024 * 1024
/** What the child needs before it reads a byte (the parsers' code and a small file), MiB. */
const BASE_HEAP_MB = 32
/** Heap per MiB of file: the worst parser needs about 35 (docs/parser-limits.md). */
const HEAP_PER_MB = 48
const BASE_TIMEOUT_MS = 60_000
/**
 * Many times the slowest parser's processor time a MiB (its figure: docs/parser-limits.md): the limit
 * is of wall time, counting the child's start and the lines read back, on a machine that may be busy.
 */
const TIMEOUT_PER_MB = 6_000

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
 * parseUpload in a child process, within `limits` (the time counts from the child's start to its
 * last line read back); the same results and StatementFileErrors.
 */
export function parseInWorker(
  bytes: Uint8Array,
  target: ParseTarget,
  options: UploadOptions,
  limits: ParseLimits = parseLimits(bytes.length),
): Promise<ParsedUpload> {
  const run = turn.then(() => runChild(bytes, target, options, limits))
  turn = run.catch(() => {})
  return run
}

/** The end of the child's standard error: V8 says there why it stopped. */
const STDERR_KEPT = 4096

function runChild(bytes: Uint8Array, target: ParseTarget, options: UploadOptions, limits: ParseLimits): Promise<ParsedUpload> {
  return new Promise((resolve, reject) => {
    const entry = childEntry(import.meta.url)
    const child = fork(entry.file, [KIND], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${limits.heapMb}`, '--max-semi-space-size=8'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    })
    let stderr = ''
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-STDERR_KEPT)
    })
    const parts: StatementPart[] = []
    const warnings: string[] = []
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
      child.kill('SIGKILL')
    }
    child.on('message', (m: Message) => {
      if (m.type === 'items' || m.type === 'warnings') {
        if (m.type === 'warnings') for (const w of m.warnings) warnings.push(w)
        else
          for (const item of m.items) {
            if ('part' in item) parts.push({ ...item.part, lines: [] })
            else for (const l of item.lines) parts[parts.length - 1].lines.push(l)
          }
        // Ask for the next message on a later turn of the loop.
        setImmediate(() => child.connected && child.send('next'))
      } else if (m.type === 'done') settle(() => resolve({ format: m.format, parts, warnings }))
      else settle(() => reject(m.fileError ? new StatementFileError(m.message) : new Error(`parsing process: ${m.message}`)))
    })
    child.once('error', (e) => settle(() => reject(e)))
    // 'close', not 'exit': the end of standard error is read by then.
    child.once('close', (code, signal) =>
      settle(() =>
        reject(
          /out of memory|Allocation failed/i.test(stderr)
            ? new StatementFileError(
                `reading the file needs more memory than the server allows (${limits.heapMb} MiB, FINCTL_PARSE_HEAP_MB): nothing was imported`,
              )
            : new Error(`the parsing process stopped (${signal ?? `exit code ${code}`}) before it answered: ${stderr.trim().slice(-300)}`),
        ),
      ),
    )
    // A child that cannot take it has stopped: 'close' says why.
    child.send({ kind: KIND, bytes, target, options } satisfies Job, () => {})
  })
}

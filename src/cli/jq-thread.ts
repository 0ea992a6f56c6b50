/**
 * `--jq` on a worker thread of its own, so that a filter runs bounded: a time limit, a memory limit
 * (jq's WebAssembly heap, its output, the thread's heap), and Ctrl-C or SIGTERM end it at once; on
 * the main thread a filter that never ends blocked the signals' handlers. The thread starts with a
 * command given --jq (warmJqThread) and serves each of its filters (`logs tail` runs one per
 * record); a filter that is stopped takes the thread with it.
 *
 * This module is its own worker (worker-entry.ts); it imports nothing of the project but that, so
 * that the thread loads no more than jq.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { workerEntry } from '../worker-entry.js'

const KIND = 'finctl-jq'

/** jq-wasm's own heap limit (its getHeapMax), which the thread cannot raise. */
export const JQ_MEMORY_MB = 256
/** What a filter may print, at most. */
export const JQ_OUTPUT_MB = 256
/** The thread's JavaScript heap: the input as text, and room to spare; past it, out of memory too. */
const THREAD_HEAP_MB = 768

/** Why a filter did not finish: its time, its memory, its output's size, or a signal. */
export class JqStopped extends Error {
  constructor(
    readonly reason: 'time' | 'memory' | 'output' | 'signal',
    readonly signal?: 'SIGINT' | 'SIGTERM',
  ) {
    super(`jq stopped: ${signal ?? reason}`)
  }
}

type Ask = { id: number; input: string; filter: string; flags: string[]; outputBytes: number }
type Answer = { id: number; out: Uint8Array } | { id: number; error: string; stopped?: 'memory' | 'output' }

export interface JqModule {
  /** What jq printed (at most the output limit: `full` past it) and its error text; throws when jq aborts. */
  raw(input: Uint8Array, filter: string, flags: string[], outputBytes: number): Promise<{ out: Uint8Array; err: string; full: boolean }>
  /** Whether the last run asked for more heap than jq may have. */
  heapRefused(): boolean
}

if (!isMainThread && (workerData as { kind?: string } | undefined)?.kind === KIND) {
  const port = parentPort!
  let running = -1
  // Said at once: jq runs on (a failed write does not stop it) until the main thread ends this one.
  const jq = loadJq(() => port.postMessage({ id: running, error: 'output', stopped: 'output' } satisfies Answer))
  port.on('message', async (m: Ask) => {
    try {
      const j = await jq
      running = m.id
      try {
        const { out, err, full } = await j.raw(new TextEncoder().encode(m.input), m.filter, m.flags, m.outputBytes)
        // As jq-wasm answers: what was printed, else the error, else nothing.
        if (full) port.postMessage({ id: m.id, error: 'output', stopped: 'output' } satisfies Answer)
        else if (out.length > 0 || !err) port.postMessage({ id: m.id, out } satisfies Answer, [out.buffer as ArrayBuffer])
        else port.postMessage({ id: m.id, error: err } satisfies Answer)
      } catch (e) {
        const message = (e as Error)?.message ?? String(e)
        port.postMessage({ id: m.id, error: message, stopped: j.heapRefused() ? 'memory' : undefined } satisfies Answer)
      }
    } catch (e) {
      port.postMessage({ id: m.id, error: `jq could not be loaded: ${(e as Error)?.message ?? String(e)}` } satisfies Answer)
    }
  })
}

/**
 * jq-wasm 1.0.1 reads its input and collects its output a byte at a time, each byte copying all
 * before it: quadratic (docs/performance.md, "--jq"). Its glue is swapped for buffers that grow by
 * doubling, with the same jq and the same answers; output past the limit is dropped and said at
 * once (a failed write does not stop jq), and the heap's refusals are noted (jq then aborts). A
 * jq-wasm whose text is not the one expected is loaded as it is (test/cli/jq-thread.test.ts fails).
 */
const JQ_GLUE_START = 'function rawImpl(jsonString, query, flags) {'
const JQ_GLUE_END = 'raw(jsonString, query, flags = []) { return runtimeInitPromise.then(() => rawImpl(jsonString, query, flags)); } };'
const JQ_IMPORTS = 'var wasmImports = {'
const GLUE = `
function Bytes(limit, onFull) { this.buf = new Uint8Array(65536); this.length = 0; this.limit = limit; this.full = false; this.onFull = onFull; }
Bytes.prototype.push = function (b) {
  if (this.length >= this.limit) {
    if (!this.full) { this.full = true; this.onFull(); }
    return;
  }
  if (this.length === this.buf.length) {
    const more = new Uint8Array(Math.min(this.buf.length * 2, this.limit)); more.set(this.buf); this.buf = more;
  }
  this.buf[this.length++] = b;
};
Bytes.prototype.take = function () { const b = this.buf.slice(0, this.length); this.length = 0; this.full = false; return b; };
let stdinAt = 0;
let heapRefused = false;
const outBytes = new Bytes(0, () => Module.onOutputFull());
const errBytes = new Bytes(${2 ** 20}, () => {});
function rawImpl(input, query, flags, outputLimit) {
  stdinBuffer = input; stdinAt = 0; heapRefused = false; outBytes.take(); errBytes.take(); outBytes.limit = outputLimit;
  if (!flags.includes("-M")) flags = ["-M", ...flags];
  Module.callMain([...flags, query, "/dev/stdin"]);
  const full = outBytes.full;
  return { out: outBytes.take(), err: fromByteArray(errBytes.take()).trim(), full };
}
Module = { ...Module, noInitialRun: true, noExitRuntime: true, onRuntimeInitialized() { runtimeInitResolve(); },
  printErr() {},
  preRun() { FS.init(() => stdinAt < stdinBuffer.length ? stdinBuffer[stdinAt++] : null,
    (c) => { if (c !== null && c !== undefined) outBytes.push(c); },
    (c) => { if (c !== null && c !== undefined) errBytes.push(c); }); },
  raw(input, query, flags, outputLimit) { return runtimeInitPromise.then(() => rawImpl(input, query, flags, outputLimit)); },
  heapRefused() { return heapRefused; } };
`
// Where the glue must come after jq-wasm's own definitions: a heap that refuses to grow is noted,
// and jq's exit status stays jq's, never the process's (or the thread's) exit code.
const LATE_GLUE = `var resizeHeap = _emscripten_resize_heap;
_emscripten_resize_heap = (size) => resizeHeap(size) || ((heapRefused = true), false);
quit_ = (status, toThrow) => { throw toThrow; };
`

/** jq-wasm's jq.js with our glue in place of its own; undefined when its text is not the one expected. */
export function patchedJqSource(source: string): string | undefined {
  const once = (text: string) => {
    const at = source.indexOf(text)
    return at >= 0 && source.indexOf(text, at + 1) < 0 ? at : -1
  }
  const start = once(JQ_GLUE_START)
  const end = once(JQ_GLUE_END)
  const imports = once(JQ_IMPORTS)
  if (start < 0 || end < start || imports < end) return undefined
  return source.slice(0, start) + GLUE + source.slice(end + JQ_GLUE_END.length, imports) + LATE_GLUE + source.slice(imports)
}

/**
 * jq: `onOutputFull` is called once a run's output reaches its limit (what follows is dropped).
 * jq-wasm as it is when it cannot be patched.
 */
export async function loadJq(onOutputFull: () => void): Promise<JqModule> {
  const { createRequire } = await import('node:module')
  const { readFileSync } = await import('node:fs')
  const { compileFunction } = await import('node:vm')
  const { dirname } = await import('node:path')
  const require = createRequire(import.meta.url)
  const file = require.resolve('jq-wasm/dist/build/jq.js')
  const source = patchedJqSource(readFileSync(file, 'utf8'))
  if (source === undefined) return plainJq(require)
  const module = { exports: {} as unknown }
  compileFunction(source, ['module', 'exports', 'require', '__filename', '__dirname'], { filename: file })(
    module,
    module.exports,
    require,
    file,
    dirname(file),
  )
  return (module.exports as (m: { onOutputFull(): void }) => Promise<JqModule>)({ onOutputFull })
}

/** jq-wasm as it is: slow on large inputs and outputs, its output unbounded, any abort taken for memory. */
function plainJq(require: NodeJS.Require): JqModule {
  const jq = require('jq-wasm') as { raw(input: string, filter: string, flags: string[]): Promise<string> }
  return {
    async raw(input, filter, flags) {
      try {
        return { out: new TextEncoder().encode(await jq.raw(new TextDecoder().decode(input), filter, flags)), err: '', full: false }
      } catch (e) {
        const message = String((e as Error).message).replace(/^Failed to execute raw query: /, '')
        if (/Aborted\(/.test(message)) throw new Error(message)
        return { out: new Uint8Array(0), err: message, full: false }
      }
    },
    heapRefused: () => true,
  }
}

/** The command's jq thread. */
let thread: { worker: Worker; next: number } | undefined

function startThread(): { worker: Worker; next: number } {
  const worker = new Worker(workerEntry(import.meta.url), {
    workerData: { kind: KIND },
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
  })
  // Idle between filters, it keeps no command from ending.
  worker.unref()
  return { worker, next: 0 }
}

/** Start the thread, which loads jq, while the command fetches what the filter will read. */
export function warmJqThread(): void {
  thread ??= startThread()
}

/**
 * `filter` over `input` (JSON text) with jq's `flags`: its output as jq printed it (trimmed, as
 * jq-wasm gives it), or an Error carrying jq's message, or JqStopped.
 */
export function runJqBounded(
  input: string,
  filter: string,
  flags: string[],
  limits: { timeoutMs: number; outputBytes?: number },
): Promise<string> {
  thread ??= startThread()
  const t = thread
  const { worker } = t
  const id = t.next++
  return new Promise<string>((resolve, reject) => {
    const cleanup: Array<() => void> = []
    /** Settle once: with `end`, the thread goes too (a filter stopped, or the thread broken). */
    const finish = (end: boolean, settle: () => void) => {
      for (const c of cleanup.splice(0)) c()
      if (end) {
        if (thread === t) thread = undefined
        void worker.terminate()
      } else worker.unref()
      settle()
    }
    const stop = (s: JqStopped) => finish(true, () => reject(s))
    const onMessage = (a: Answer) => {
      if (a.id !== id) return
      if ('out' in a) finish(false, () => resolve(new TextDecoder().decode(a.out).trim()))
      else if (a.stopped) stop(new JqStopped(a.stopped))
      else finish(false, () => reject(new Error(a.error)))
    }
    // The thread's heap full (ERR_WORKER_OUT_OF_MEMORY), or the thread gone otherwise.
    const onError = (e: Error) =>
      (e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? stop(new JqStopped('memory')) : finish(true, () => reject(e))
    const onExit = (code: number) => finish(true, () => reject(new Error(`the jq thread stopped (exit code ${code})`)))
    const onSigint = () => stop(new JqStopped('signal', 'SIGINT'))
    const onSigterm = () => stop(new JqStopped('signal', 'SIGTERM'))
    const timer = setTimeout(() => stop(new JqStopped('time')), limits.timeoutMs)
    worker.on('message', onMessage)
    worker.once('error', onError)
    worker.once('exit', onExit)
    // A listener of our own also keeps signal-exit (conf's) from ending the process before we answer.
    process.once('SIGINT', onSigint)
    process.once('SIGTERM', onSigterm)
    cleanup.push(
      () => clearTimeout(timer),
      () => worker.off('message', onMessage),
      () => worker.off('error', onError),
      () => worker.off('exit', onExit),
      () => process.off('SIGINT', onSigint),
      () => process.off('SIGTERM', onSigterm),
    )
    worker.ref()
    worker.postMessage({ id, input, filter, flags, outputBytes: limits.outputBytes ?? JQ_OUTPUT_MB * 2 ** 20 } satisfies Ask)
  })
}

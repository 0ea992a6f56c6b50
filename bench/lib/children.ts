/**
 * Child processes of the benchmark: servers spawned in the background (tracked, so that they are
 * killed when the harness exits, fails or is interrupted) and bounded synchronous CLI runs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const live = new Set<ChildProcess>()
const tempDirs = new Set<string>()
const finalizers = new Set<() => void>()
let hooksInstalled = false

/**
 * Synchronous work to do at cleanup, after child processes are killed and before temp folders are
 * removed (e.g. dropping a PostgreSQL schema with a bounded spawnSync). Returns a function that
 * unregisters it (call it once the section has cleaned up by itself).
 */
export function onCleanup(fn: () => void): () => void {
  finalizers.add(fn)
  return () => {
    finalizers.delete(fn)
  }
}

/** Kill whatever is still running and remove temp folders; safe to call more than once. */
export function cleanupNow(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill('SIGKILL')
      } catch {
        // already gone
      }
    }
  }
  live.clear()
  for (const fn of [...finalizers]) {
    finalizers.delete(fn)
    try {
      fn()
    } catch (err) {
      process.stderr.write(`bench: cleanup step failed: ${(err as Error)?.message ?? err}\n`)
    }
  }
  if (process.env.FINCTL_BENCH_KEEP_TMP) return
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  tempDirs.clear()
}

/** Make sure no child outlives the harness: on normal exit, on errors and on SIGINT/SIGTERM/SIGHUP. */
export function installCleanupHooks(): void {
  if (hooksInstalled) return
  hooksInstalled = true
  process.on('exit', cleanupNow)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping the benchmark and its child processes\n`)
      cleanupNow()
      process.exit(signal === 'SIGINT' ? 130 : 143)
    })
  }
  process.on('uncaughtException', (err) => {
    process.stderr.write(`bench: uncaught exception: ${err.stack ?? err}\n`)
    cleanupNow()
    process.exit(1)
  })
  process.on('unhandledRejection', (err) => {
    process.stderr.write(`bench: unhandled rejection: ${(err as Error)?.stack ?? err}\n`)
    cleanupNow()
    process.exit(1)
  })
}

/** A fresh folder under os.tmpdir(), removed at exit (unless FINCTL_BENCH_KEEP_TMP is set). */
export function makeTempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `finctl-bench-${label}-`))
  tempDirs.add(dir)
  return dir
}

/** The parent's environment without any FINCTL_* setting, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('FINCTL_') && k !== 'NODE_OPTIONS') env[k] = v
  env.NO_COLOR = '1'
  return { ...env, ...extra }
}

export interface RunResult {
  ms: number
  stdout: string
  stderr: string
}

/** Run a command to completion (bounded by `timeoutMs`), timing its wall clock; throws unless it exits 0. */
export function runTimed(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): RunResult {
  const t0 = performance.now()
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: opts.env,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 30_000,
    killSignal: 'SIGKILL',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 16 * 1024 * 1024,
  })
  const ms = performance.now() - t0
  if (r.error) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`)
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}: ${(r.stderr || r.stdout).trim().slice(0, 2000)}`)
  }
  return { ms, stdout: r.stdout, stderr: r.stderr }
}

export interface ServerProcess {
  name: string
  url: string
  child: ChildProcess
  /** Where its stdout and stderr go. */
  logFile: string
  /** The last lines the process wrote on stderr (for diagnostics). */
  stderrTail(): string
  /** How many lines it has written on stderr so far (e.g. one access-log line per request). */
  stderrLines(): number
  /** SIGTERM, wait up to `graceMs` for a clean exit, then SIGKILL. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; forced: boolean; alreadyExited: boolean }>
  /** Throws (with its last output) if the process has exited. */
  assertAlive(): void
}

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:(\d+))/

/** Reads what a process appends to a file: new bytes since the last call, and a newline count. */
class FileFollower {
  private offset = 0
  lines = 0
  private tail = ''

  constructor(private readonly path: string) {}

  /** The text appended since the last call (newlines counted; a short tail kept). */
  readNew(maxBytes = 256 * 1024 * 1024): string {
    let size: number
    try {
      size = statSync(this.path).size
    } catch {
      return ''
    }
    if (size <= this.offset) return ''
    const fd = openSync(this.path, 'r')
    const chunks: string[] = []
    try {
      const buf = Buffer.allocUnsafe(1 << 20)
      let read = 0
      // Bounded: never more than maxBytes per call (the rest is counted on the next call).
      while (this.offset < size && read < maxBytes) {
        const n = readSync(fd, buf, 0, Math.min(buf.length, size - this.offset), this.offset)
        if (n <= 0) break
        this.offset += n
        read += n
        for (let i = 0; i < n; i++) if (buf[i] === 10) this.lines++
        const text = buf.toString('utf8', 0, n)
        if (chunks.length < 4) chunks.push(text)
        this.tail = (this.tail + text).slice(-8192)
      }
    } finally {
      closeSync(fd)
    }
    return chunks.join('')
  }

  lastLines(n: number): string {
    return this.tail
      .split('\n')
      .slice(-n - 1)
      .join('\n')
      .trim()
  }
}

/**
 * Spawn a server with its stderr (and stdout) going to a file in `logDir`, so that a chatty server
 * (one access-log line per request) never blocks on a pipe the harness is slow to drain, and wait
 * (at most `timeoutMs`) for its `listening on http://127.0.0.1:PORT` line. Throws, after killing
 * it, when it exits or times out first.
 */
export async function startServer(
  name: string,
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; logDir: string },
): Promise<ServerProcess> {
  installCleanupHooks()
  const logFile = join(opts.logDir, `${name.replace(/[^a-z0-9]+/gi, '-')}-${Date.now()}.log`)
  const fd = openSync(logFile, 'a', 0o600)
  let child: ChildProcess
  try {
    child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', fd, fd] })
  } finally {
    closeSync(fd) // the child has its own copy
  }
  live.add(child)
  const follower = new FileFollower(logFile)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child)
      resolve({ code, signal })
    })
  })

  const timeoutMs = opts.timeoutMs ?? 15_000
  const url = await new Promise<string>((resolve, reject) => {
    let settled = false
    let seen = ''
    const poll = setInterval(() => {
      seen = (seen + follower.readNew()).slice(-65536)
      const m = LISTENING.exec(seen)
      if (m && !settled) {
        settled = true
        clearInterval(poll)
        clearTimeout(timer)
        resolve(m[1])
      }
    }, 25)
    const timer = setTimeout(() => fail(new Error(`${name}: no "listening on" line within ${timeoutMs} ms`)), timeoutMs)
    const fail = (err: Error) => {
      if (settled) return
      settled = true
      clearInterval(poll)
      clearTimeout(timer)
      child.kill('SIGKILL')
      follower.readNew()
      reject(new Error(`${err.message}\n${name} output (${logFile}):\n${follower.lastLines(40)}`))
    }
    child.on('error', fail) // stays attached: a later error is ignored rather than thrown
    exited.then(({ code, signal }) => setTimeout(() => fail(new Error(`${name} exited (${code ?? signal}) before listening`)), 50))
  })

  let stopping: ReturnType<ServerProcess['stop']> | undefined
  return {
    name,
    url,
    child,
    logFile,
    stderrTail: () => {
      follower.readNew()
      return follower.lastLines(40)
    },
    stderrLines: () => {
      follower.readNew()
      return follower.lines
    },
    assertAlive() {
      if (child.exitCode === null && child.signalCode === null) return
      follower.readNew()
      throw new Error(
        `${name} (pid ${child.pid}) exited (${child.exitCode ?? child.signalCode}); its last output (${logFile}):\n${follower.lastLines(20)}`,
      )
    },
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return { ...(await exited), forced: false, alreadyExited: true }
        child.kill('SIGTERM')
        let timer: NodeJS.Timeout | undefined
        const timedOut = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), graceMs)
        })
        const first = await Promise.race([exited, timedOut])
        clearTimeout(timer)
        if (first !== 'timeout') return { ...first, forced: false, alreadyExited: false }
        child.kill('SIGKILL')
        return { ...(await exited), forced: true, alreadyExited: false }
      })()
      return stopping
    },
  }
}

/** A process's peak resident memory so far (VmHWM), in MB; undefined where /proc is not there. */
export function peakRssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb ? Number(kb) / 1024 : undefined
  } catch {
    return undefined
  }
}

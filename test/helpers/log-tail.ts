/**
 * `finctl logs tail` of the built CLI in the background, its stdout lines timed as they come:
 * test/e2e/logs-tail.test.ts and test/timing/logs-tail.test.ts. Its waits are bounds for a hang.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { BIN, type Sandbox } from './cli.js'

export interface Seen {
  line: string
  at: number
}

/** `finctl logs tail ...args` running in the background, its stdout lines timed as they come. */
export class Tail {
  readonly seen: Seen[] = []
  stderr = ''
  private readonly child: ChildProcess
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>

  constructor(sb: Sandbox, args: string[], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [BIN, 'logs', 'tail', ...args], {
      cwd: sb.dir,
      env: sb.env(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let partial = ''
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      const parts = (partial + d).split('\n')
      partial = parts.pop() ?? ''
      for (const line of parts) this.seen.push({ line, at: Date.now() })
    })
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.stderr += d))
    this.exited = new Promise((res) => this.child.once('exit', (code, signal) => res({ code, signal })))
  }

  /** Wait for the note on stderr that says it reads the log. */
  ready(): Promise<void> {
    return this.until(() => this.stderr.includes('tailing'), 60_000, 'the tailing note')
  }

  async until(test: () => boolean, ms: number, what: string): Promise<void> {
    const deadline = Date.now() + ms
    while (!test()) {
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`no ${what} within ${ms} ms:\n${this.stderr}`)
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  /** The first line that passes `test`, once it comes. */
  async line(test: (line: string) => boolean, ms = 60_000): Promise<Seen> {
    await this.until(() => this.seen.some((s) => test(s.line)), ms, 'such line')
    return this.seen.find((s) => test(s.line))!
  }

  /** Ctrl-C, then the exit. */
  async interrupt(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.kill('SIGINT')
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000)
    try {
      return await this.exited
    } finally {
      clearTimeout(timer)
    }
  }
}

export const record = (s: Seen) =>
  JSON.parse(s.line) as { path: string; status: number; method: string; created_at: string; key_prefix: string }

/** The time from a request (its record's created_at, taken as it was answered) to its line. */
export const delay = (s: Seen) => s.at - Date.parse(record(s).created_at)

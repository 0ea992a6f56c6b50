/**
 * A command that runs until Ctrl-C (`logs tail`, `listen`), started in this process as
 * InProcessSandbox runs one (test/helpers/in-process-cli.ts), and read while it runs. Stopping it
 * emits SIGINT on this process, which every such command listens for (src/cli/interrupt.ts): it
 * stops all of them at once, and no real signal is sent. A real Ctrl-C to a process stays in test/e2e.
 */
import { runProgram } from '../../commands/root.js'
import type { InProcessRunOptions, InProcessSandbox } from './in-process-cli.js'
import { memoryIO } from './in-process-cli.js'

export class InBackground {
  readonly #output: () => { stdout: string; stderr: string }
  readonly #done: Promise<number>
  #code: number | undefined

  constructor(sb: InProcessSandbox, args: string[], o: InProcessRunOptions = {}) {
    const { io, output } = memoryIO(sb.env(o.env), o)
    this.#output = output
    this.#done = runProgram(args, io).then((code) => (this.#code = code))
  }

  get stdout(): string {
    return this.#output().stdout
  }

  get stderr(): string {
    return this.#output().stderr
  }

  /** Stdout's whole lines so far. */
  get lines(): string[] {
    return this.stdout.split('\n').slice(0, -1)
  }

  /** Wait until `test` holds; fails when the command ended first or after `ms`. */
  async until(test: () => boolean, what: string, ms = 60_000): Promise<void> {
    const deadline = Date.now() + ms
    while (!test()) {
      if (this.#code !== undefined) throw new Error(`the command ended (exit ${this.#code}) before ${what}:\n${this.stderr}`)
      if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms:\n${this.stderr}`)
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  /** SIGINT as this process's event (every command running in the background stops), then its exit code. */
  async interrupt(): Promise<number> {
    if (this.#code === undefined) process.emit('SIGINT', 'SIGINT')
    const code = await this.#done
    // Let the streams hand over what was written last.
    await new Promise((r) => setImmediate(r))
    return code
  }
}

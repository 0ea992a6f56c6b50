/** The streams and environment a command runs with; tests pass buffers and a fixed clock. */
import type { Readable, Writable } from 'node:stream'
import { watchOutput } from './closed-output.js'

export interface IO {
  stdout: Writable
  stderr: Writable
  stdin: Readable
  isStdoutTTY: boolean
  isStderrTTY: boolean
  isStdinTTY: boolean
  env: NodeJS.ProcessEnv
  now: () => Date
}

export function realIO(): IO {
  // A reader that goes away (`| head -1`) ends the command quietly instead of crashing it.
  watchOutput(process.stdout)
  watchOutput(process.stderr)
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    isStdoutTTY: Boolean(process.stdout.isTTY),
    isStderrTTY: Boolean(process.stderr.isTTY),
    isStdinTTY: Boolean(process.stdin.isTTY),
    env: process.env,
    now: () => new Date(),
  }
}

/** Read all of stdin as text (for --password-stdin, --api-key-stdin); the first line, trimmed. */
export async function readStdinLine(io: IO): Promise<string> {
  let text = ''
  for await (const chunk of io.stdin) {
    text += chunk.toString()
    if (text.includes('\n')) break
  }
  return text.split(/\r?\n/)[0].trim()
}

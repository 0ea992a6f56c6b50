/**
 * The reader of finctl's output going away: `finctl tx list --all | head -1`. Writing to a pipe
 * whose reader has closed it fails with EPIPE. Like git and gh, finctl then stops quietly: no
 * message, exit 0, and no more work (a paginated fetch requests no further page).
 *
 * {@link watchOutput} keeps an EPIPE from crashing the process (Node reports a failed write as an
 * 'error' event, which crashes when nobody listens); {@link OutputClosed}, thrown by the writers
 * that wait for their reader ({@link writeDrained}), ends the command and is answered with exit 0.
 */
import type { Writable } from 'node:stream'

export class OutputClosed extends Error {
  constructor() {
    super('the output was closed by its reader')
    this.name = 'OutputClosed'
  }
}

/** The errors of a stream whose reader has gone. */
const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END'])

/** The streams whose reader has gone. Node's stdout and stderr forget their error at once (they are never destroyed), so it is kept here. */
const gone = new WeakSet<Writable>()

/** Listen for a closed reader on `stream` (stdout, stderr); any other write error still crashes, as before. */
export function watchOutput(stream: Writable): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (!GONE.has(err.code ?? '')) throw err
    gone.add(stream)
  })
}

/** Whether the stream can no longer be written: its reader went away, or it was closed. */
export function isClosed(stream: Writable): boolean {
  return gone.has(stream) || !stream.writable || stream.destroyed || stream.errored !== null
}

/**
 * Write `text` (nothing if empty; text or its UTF-8 bytes); when the stream's buffer is full, wait until it has drained.
 * Throws {@link OutputClosed} once the reader has gone, so that a loop writing row after row stops.
 */
export async function writeDrained(stream: Writable, text: string | Uint8Array): Promise<void> {
  if (isClosed(stream)) throw new OutputClosed()
  if (text && !stream.write(text)) {
    await new Promise<void>((resolve) => {
      const events = ['drain', 'close', 'error'] as const
      const done = () => {
        for (const e of events) stream.off(e, done)
        resolve()
      }
      for (const e of events) stream.once(e, done)
    })
    if (isClosed(stream)) throw new OutputClosed()
  }
}

/**
 * Before fetching more to print (the next page): let a failed write of what was just written
 * report itself (Node does so on a later tick), and throw {@link OutputClosed} if the reader has gone.
 */
export async function expectReader(stream: Writable): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve))
  if (isClosed(stream)) throw new OutputClosed()
}

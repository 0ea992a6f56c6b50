/**
 * Commands that run until Ctrl-C (`logs tail`, `listen`): SIGINT or SIGTERM aborts `signal` (a
 * request in flight is abandoned) and resolves `stopped`; the command then returns 0.
 */
export interface Interruption {
  signal: AbortSignal
  stopped: Promise<void>
  /** Stop listening for the signals (the command ends by itself). */
  done(): void
}

export function untilInterrupted(): Interruption {
  const controller = new AbortController()
  let resolve!: () => void
  const stopped = new Promise<void>((r) => (resolve = r))
  const onSignal = () => {
    controller.abort()
    resolve()
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  return {
    signal: controller.signal,
    stopped,
    done() {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    },
  }
}

/** `work`, or undefined once interrupted first (the work's own failure is then not reported). */
export function unlessInterrupted<T>(i: Interruption, work: Promise<T>): Promise<T | undefined> {
  work.catch(() => {})
  return Promise.race([work, i.stopped.then(() => undefined)])
}

/** Sleep `ms`, or less when interrupted. */
export function pause(i: Interruption, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([new Promise<void>((r) => (timer = setTimeout(r, ms))), i.stopped]).finally(() => clearTimeout(timer))
}

/** Work stopped by Ctrl-C (SIGINT: exit 130) or SIGTERM (143), with what was stopped. */
export class Interrupted extends Error {
  constructor(
    readonly signal: 'SIGINT' | 'SIGTERM',
    message: string,
  ) {
    super(message)
    this.name = 'Interrupted'
  }
}

/** How a stop is named at the start of its message: `interrupted (Ctrl-C): ...`. */
export function stoppedBy(signal: 'SIGINT' | 'SIGTERM'): string {
  return signal === 'SIGINT' ? 'interrupted (Ctrl-C)' : 'terminated (SIGTERM)'
}

/**
 * Long work that leaves partial work behind (`tx import`, `statements upload`, `seed`, `export`):
 * Ctrl-C or SIGTERM calls `stop` (ending its threads) and rejects with Interrupted, whose message
 * `said` writes: what was done and how to go on. A second signal ends the process at once.
 */
export function interruptible<T>(
  work: Promise<T>,
  said: (signal: 'SIGINT' | 'SIGTERM') => string,
  stop: () => void = () => {},
): Promise<T> {
  let off = () => {}
  const interrupted = new Promise<never>((_, reject) => {
    const on = (signal: 'SIGINT' | 'SIGTERM') => () => {
      off()
      stop()
      reject(new Interrupted(signal, said(signal)))
    }
    const onInt = on('SIGINT')
    const onTerm = on('SIGTERM')
    off = () => {
      process.off('SIGINT', onInt)
      process.off('SIGTERM', onTerm)
    }
    process.once('SIGINT', onInt)
    process.once('SIGTERM', onTerm)
  })
  work.catch(() => {})
  return Promise.race([work, interrupted]).finally(() => off())
}

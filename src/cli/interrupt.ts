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

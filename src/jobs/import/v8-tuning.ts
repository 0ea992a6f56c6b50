/**
 * V8's memory settings for `tx import`, all in one place: the heap growing factor of the process and
 * the import thread's young and old generations. Each trades processor time for peak RSS; how each
 * was chosen, with its measurements: docs/performance.md, "Memory of an import".
 */
import { setFlagsFromString } from 'node:v8'
import type { ResourceLimits } from 'node:worker_threads'
import type { Target } from '../../client/target.js'

/** How much a heap may grow beyond what survived its last full collection (percent): see heapGrowingFlag. */
export const HEAP_GROWING_PERCENT = 50

/**
 * Each heap of the process (the command's, the import's and the embedded core's thread) may grow by
 * half what its last full collection left alive, instead of V8's own factor of up to 4, which let the
 * core's heap grow far past what it kept under a stream of batches. Not when node was given a factor.
 */
export function heapGrowingFlag(execArgv: readonly string[], nodeOptions = ''): string | undefined {
  const given = [...execArgv, nodeOptions].some((a) => /heap[-_]growing[-_]percent/.test(a))
  return given ? undefined : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`
}

/**
 * Sets the heap growing factor for the whole process (a V8 flag), which from here on only runs the
 * import; V8 reads it at each collection, so it applies to heaps already there.
 */
export function tuneProcessHeap(): void {
  const flag = heapGrowingFlag(process.execArgv, process.env.NODE_OPTIONS)
  if (flag) setFlagsFromString(flag)
}

/**
 * The import thread's young generation (MB), by target. Rows outlive a small one (a row waits for its
 * batch's answer), which costs processor time; a big one costs peak RSS. Embedded, the process also
 * holds the core's thread and SQLite: 8 MB. Towards a remote target this thread is most of the
 * process: 32 MB.
 */
export function importYoungGenerationMb(target: Target): number {
  return target.kind === 'embedded' ? 8 : 32
}

/**
 * An old generation with a limit makes V8 collect sooner (without one it let the heap grow to several
 * times what was alive); the rows stream, so the limit itself is never reached.
 */
export const IMPORT_OLD_GENERATION_MB = 256

/** The import thread's resource limits: the young generation by target, the old one bounded. */
export function importThreadLimits(target: Target): ResourceLimits {
  return { maxYoungGenerationSizeMb: importYoungGenerationMb(target), maxOldGenerationSizeMb: IMPORT_OLD_GENERATION_MB }
}

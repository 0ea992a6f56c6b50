/**
 * The import's batch stage: rows into batches of `--batch-size`. The newest full batch waits until
 * the rows say whether another follows, so that the last batch is known as the last: it goes alone,
 * once every other is answered, and says so (`Prefer: bulk-load-end`); the service then finishes
 * what it prepared for the load (SQLite: the indexes it set aside) before it answers.
 */

/** Rows a batch request carries when --batch-size is not given, and at most. */
export const DEFAULT_BATCH_ROWS = 1000
export const MAX_BATCH_ROWS = 5000
/**
 * A review stages its rows (`--review`) in batches of this many when --batch-size is not given: each
 * request is a commit of its own (an fsync), and the rows stay pending, so fewer and larger is faster
 * (docs/performance.md, "Review before it lands").
 */
export const REVIEW_BATCH_ROWS = MAX_BATCH_ROWS

export interface Batch<T> {
  rows: T[]
  /** The import's last batch. */
  last: boolean
}

/** --batch-size within 1 and MAX_BATCH_ROWS. */
export function batchSize(given: number | undefined): number {
  return Math.min(Math.max(1, given ?? DEFAULT_BATCH_ROWS), MAX_BATCH_ROWS)
}

/** The rows of `chunks` in batches of `size`, the last one marked (none when there are no rows). */
export async function* batches<T>(chunks: AsyncIterable<T[]>, size: number): AsyncGenerator<Batch<T>> {
  let batch: T[] = []
  let held: T[] = []
  const next = () => {
    const full = held
    held = batch
    batch = []
    return full
  }
  for await (const rows of chunks) {
    for (const row of rows) {
      batch.push(row)
      if (batch.length >= size) {
        const full = next()
        if (full.length) yield { rows: full, last: false }
      }
    }
  }
  if (batch.length) {
    const full = next()
    if (full.length) yield { rows: full, last: false }
  }
  if (held.length) yield { rows: held, last: true }
}

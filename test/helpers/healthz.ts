/**
 * Whether `finctl serve` keeps answering while it works: the longest /healthz answer during some
 * work, beside the same while a thread merely keeps a processor as busy (the machine's own share).
 */
import { Worker } from 'node:worker_threads'
import { expect } from 'vitest'

/** A thread of this process that keeps a processor busy for `ms`. */
export function busyThread(ms: number): Promise<number> {
  const w = new Worker(`const end = Date.now() + ${Math.round(ms)}; while (Date.now() < end) {}`, { eval: true })
  return new Promise((resolve, reject) => {
    w.once('exit', resolve)
    w.once('error', reject)
  })
}

/** The longest /healthz answer of the server at `url` while `work` runs, asking one after another. */
export async function longestHealthz(url: string, work: Promise<unknown>): Promise<number> {
  let done = false
  const finished = () => {
    done = true
  }
  work.then(finished, finished)
  let worst = 0
  do {
    const t0 = performance.now()
    const res = await fetch(`${url}/healthz`)
    await res.arrayBuffer()
    expect(res.status).toBe(200)
    worst = Math.max(worst, performance.now() - t0)
    await new Promise((r) => setTimeout(r, 5))
  } while (!done)
  await work
  return worst
}

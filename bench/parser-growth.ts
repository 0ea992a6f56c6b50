/**
 * Parse times of the generated hostile statement files (test/import/statements/hostile.ts) at 1x
 * and 4x their size: processor time of a fresh worker thread (its own heap), the least of three
 * runs, the worker stopped after a time limit. Prints a Markdown table for docs/parser-limits.md. With --memory, the table gives
 * instead the least heap (V8's old generation, as the parse worker's limit counts it) in which the
 * 4x file parses.
 *
 *   npx tsx bench/parser-growth.ts [--limit 60] [--memory] [name filter]
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { parseUpload } from '../src/domain/statements/parse.js'
import { parseInWorker } from '../src/domain/statements/worker.js'
import { workerEntry } from '../src/worker-entry.js'
import { HOSTILE } from '../test/import/statements/hostile.js'

interface Job {
  name: string
  units: number
}
interface Outcome {
  bytes: number
  ms: number
  cpuMs: number
  result: string
}

function family(name: string) {
  const h = HOSTILE.find((x) => x.name === name)!
  return { h, target: { fileName: `hostile.${h.format}`, format: h.format, currency: 'EUR', exponent: 2 } }
}

/** The worker thread's processor time (and wall time) of a parse, the least of three runs. */
async function parseOne({ name, units }: Job): Promise<Outcome> {
  const { h, target } = family(name)
  // Load the parsers (and compile them) on a small file of the same family first.
  await parseUpload(new TextEncoder().encode(h.make(10)), target, {}).catch(() => {})
  const bytes = new TextEncoder().encode(h.make(units))
  // The least of three: other processes on the machine only ever add to a run's time.
  let ms = Infinity
  let cpuMs = Infinity
  let result = ''
  for (let k = 0; k < 3 && (k === 0 || ms < 5000); k++) {
    const cpu0 = process.threadCpuUsage()
    const t0 = performance.now()
    try {
      const r = await parseUpload(bytes, target, {})
      result = `${r.parts.reduce((a, p) => a + p.lines.length, 0)} lines`
    } catch (e) {
      result = `${(e as Error).name}: ${(e as Error).message.slice(0, 60)}`
    }
    ms = Math.min(ms, performance.now() - t0)
    const cpu = process.threadCpuUsage(cpu0)
    cpuMs = Math.min(cpuMs, (cpu.user + cpu.system) / 1000)
  }
  return { bytes: bytes.length, ms, cpuMs, result }
}

/** Whether the parse of `job` fits in the parse worker (a child process) with its heap limited to `heapMb`. */
async function fits({ name, units }: Job, heapMb: number): Promise<boolean> {
  const { h, target } = family(name)
  const r = await parseInWorker(new TextEncoder().encode(h.make(units)), target, {}, { heapMb, timeoutMs: 600_000 }).catch((e: Error) => e)
  return !(r instanceof Error && /needs more memory/.test(r.message))
}

/** The least heap (to about 5%) in which `job` parses. */
async function leastHeap(job: Job, from: number): Promise<number> {
  let [lo, hi] = [from - 1, 2048]
  while (hi - lo > Math.max(2, hi * 0.05)) {
    const mid = Math.floor((lo + hi) / 2)
    if (await fits(job, mid)) hi = mid
    else lo = mid
  }
  return hi
}

async function memoryTable(filter: string) {
  const base = await leastHeap({ name: HOSTILE[0].name, units: 10 }, 4)
  console.log(`The parse worker needs ${base} MiB for a small file.\n`)
  console.log('| file | 4x size | least heap | (heap - small file) / size |')
  console.log('|---|---|---|---|')
  for (const h of HOSTILE.filter((x) => x.name.includes(filter))) {
    const size = new TextEncoder().encode(h.make(4 * h.n)).length
    const heap = await leastHeap({ name: h.name, units: 4 * h.n }, base)
    console.log(`| ${h.name} | ${(size / 2 ** 20).toFixed(2)} MiB | ${heap} MiB | ${(((heap - base) * 2 ** 20) / size).toFixed(1)} |`)
  }
}

if (!isMainThread && (workerData as Job | undefined)?.name) {
  void parseOne(workerData as Job).then((o) => parentPort!.postMessage(o))
} else if (process.argv.includes('--memory')) {
  await memoryTable(process.argv.slice(2).filter((a) => a !== '--memory')[0] ?? '')
} else if (isMainThread) {
  const args = process.argv.slice(2)
  const at = args.indexOf('--limit')
  const limitS = at >= 0 ? Number(args.splice(at, 2)[1]) : 60
  const filter = args[0] ?? ''
  const run = (job: Job) =>
    new Promise<Outcome | string>((resolve) => {
      const w = new Worker(workerEntry(import.meta.url), { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 4096 } })
      const timer = setTimeout(() => {
        void w.terminate()
        resolve(`> ${limitS} s`)
      }, limitS * 1000)
      w.once('message', (o: Outcome) => {
        clearTimeout(timer)
        void w.terminate()
        resolve(o)
      })
      w.once('error', (e) => {
        clearTimeout(timer)
        resolve(`${e.name}: ${e.message.slice(0, 50)}`)
      })
    })
  const kb = (b: number) => (b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(1)} MiB` : `${Math.round(b / 1024)} KiB`)
  const cell = (o: Outcome | string) => (typeof o === 'string' ? o : `${o.cpuMs.toFixed(0)} ms`)
  console.log('| file | 1x size | 1x | 4x size | 4x | 4x/1x | outcome (4x) |')
  console.log('|---|---|---|---|---|---|---|')
  for (const h of HOSTILE.filter((x) => x.name.includes(filter))) {
    const one = await run({ name: h.name, units: h.n })
    const four = typeof one === 'string' ? 'not run' : await run({ name: h.name, units: 4 * h.n })
    const size4 = new TextEncoder().encode(h.make(4 * h.n)).length
    const ratio = typeof one !== 'string' && typeof four !== 'string' ? (four.cpuMs / one.cpuMs).toFixed(1) : ''
    const outcome = typeof four === 'string' ? four : four.result
    console.log(
      `| ${h.name} | ${kb(new TextEncoder().encode(h.make(h.n)).length)} | ${cell(one)} | ${kb(size4)} | ${cell(four)} | ${ratio} | ${outcome} |`,
    )
  }
}

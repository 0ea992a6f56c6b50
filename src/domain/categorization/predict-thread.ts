/**
 * A bulk import's predictions on another thread (docs/categorization.md; docs/decisions.md, "A bulk
 * import's predictions on another thread"): while it predicts one batch's rows, the core's thread
 * validates, runs the rules on and writes the other batches in flight. The other thread is a worker
 * the core starts, or, on the embedded transport's core thread, the thread that called it (which
 * answers on the port it gave: embedded-thread.ts).
 *
 * Exact: the thread's model is, at each prediction, the core's model as it was when the core asked.
 * The core sends it a model whole (`toState`, taken by `fromState`, as a kept model is: the same
 * predictions), then every change the core makes to that model (settings.ts, `labelsChanged`: the
 * examples removed and added, in that order) as it makes it; messages on one port arrive in the
 * order they were posted, so a prediction asked after a change is made by a model that has it, and
 * one asked before, by one that does not.
 *
 * This module is its own worker (worker-entry.ts): in the bundle a chunk of its own, only ever
 * imported dynamically (categorizer.ts, embedded-thread.ts).
 */
import { isMainThread, type MessagePort, parentPort, Worker, workerData } from 'node:worker_threads'
import { workerEntry } from '../../worker-entry.js'
import type { Store } from '../../store/store.js'
import type { Features } from './features.js'
import { CategoryModel, type Example, type LabelScore, type ModelState } from './model.js'
import type { CachedModel } from './settings.js'

const KIND = 'finctl-predict'

/** The rows to predict, column by column (the fields `featuresOf` gives). */
export interface FeatureColumns {
  descriptions: string[]
  merchants: Array<string | null>
  amounts: Float64Array
  exponents: Int8Array
}

/** Each row's label (null: no prediction) and score, as `predictInto` gives them. */
export interface PredictedColumns {
  labels: Array<string | null>
  scores: Float64Array
}

type Ask =
  | { type: 'model'; id: number; state: ModelState }
  | { type: 'learn'; id: number; removed: Example[]; added: Example[] }
  | ({ type: 'predict'; req: number; id: number } & FeatureColumns)
/** An error with `req`: that prediction failed (the core predicts it itself); without: the thread's model is lost. */
type Answer = ({ type: 'predicted'; req: number } & PredictedColumns) | { type: 'error'; req?: number; message: string }

/** A port the thread answers on: a worker's parentPort, or the port the embedded transport keeps (embedded-thread.ts). */
interface Port {
  postMessage(value: unknown, transfer?: ArrayBuffer[]): void
}

/** What answers the core's asks on `port`: a model it is sent, kept learning as the core's, and its predictions. */
export function predictionServer(port: Port): (m: unknown) => void {
  let held: { id: number; model: CategoryModel } | undefined
  const out: LabelScore = { label: '', score: 0 }
  return (ask) => {
    const m = ask as Ask
    const req = m.type === 'predict' ? m.req : undefined
    try {
      if (m.type === 'model') held = { id: m.id, model: CategoryModel.fromState(m.state) }
      else if (m.type === 'learn') {
        // A model no longer held: the core sends it whole again before asking.
        if (held?.id !== m.id) return
        for (const e of m.removed) held.model.remove(e)
        for (const e of m.added) held.model.add(e)
      } else {
        if (held?.id !== m.id) throw new Error(`asked to predict with model ${m.id}, holding ${held?.id}`)
        const n = m.descriptions.length
        const labels: Array<string | null> = new Array(n)
        const scores = new Float64Array(n)
        const f: Features = { description: '', merchant_name: null, amount_minor: 0, currency_exponent: 2 }
        for (let i = 0; i < n; i++) {
          f.description = m.descriptions[i]
          f.merchant_name = m.merchants[i]
          f.amount_minor = m.amounts[i]
          f.currency_exponent = m.exponents[i]
          if (held.model.predictInto(f, out)) {
            labels[i] = out.label
            scores[i] = out.score
          } else labels[i] = null
        }
        port.postMessage({ type: 'predicted', req: m.req, labels, scores } satisfies Answer, [scores.buffer as ArrayBuffer])
      }
    } catch (err) {
      port.postMessage({ type: 'error', req, message: (err as Error)?.stack ?? String(err) } satisfies Answer)
    }
  }
}

if (!isMainThread && (workerData as { kind?: string } | undefined)?.kind === KIND) {
  const port = parentPort!
  port.on('message', predictionServer(port))
}

/** Where the core sends its asks: a worker of its own, or the port of a thread that answers them. */
interface Endpoint {
  postMessage(value: unknown, transfer?: ArrayBuffer[]): void
  on(event: 'message', listener: (a: Answer) => void): unknown
  ref(): void
  unref(): void
}

/** The prediction thread of one store (one core): started with the first bulk import that needs it. */
export class PredictThread {
  private readonly pending = new Map<number, { resolve: (p: PredictedColumns) => void; reject: (e: Error) => void }>()
  private nextReq = 1
  /** The id of the model sent last: the model the thread holds. */
  private holds = 0
  private failed: Error | undefined
  /** Rows the thread answered for (tests: that it did). */
  rowsPredicted = 0

  constructor(
    private readonly to: Endpoint,
    private readonly stop: () => Promise<unknown>,
  ) {
    to.unref()
    to.on('message', (a: Answer) => {
      if (a.type === 'error' && a.req === undefined) return this.fail(new Error(`the prediction thread failed: ${a.message}`))
      const p = this.pending.get(a.req as number)
      this.pending.delete(a.req as number)
      if (!this.pending.size) to.unref()
      if (a.type === 'error') p?.reject(new Error(a.message))
      else {
        this.rowsPredicted += a.labels.length
        p?.resolve(a)
      }
    })
  }

  get usable(): boolean {
    return this.failed === undefined
  }

  /**
   * `cached`'s model's predictions of the rows, as that model stands now. The first time a model is
   * asked for (or again after another one was), its state goes first, and from then on each of its
   * changes (`cached.mirror`, called by settings.ts as the change is made).
   */
  predict(cached: CachedModel, rows: FeatureColumns): Promise<PredictedColumns> {
    if (this.failed) return Promise.reject(this.failed)
    const id = modelId(cached.model)
    if (this.holds !== id) {
      this.holds = id
      cached.mirror = (change) => {
        if (this.holds !== id || this.failed) return
        if (change) this.to.postMessage({ type: 'learn', id, ...change } satisfies Ask)
        else this.holds = 0
      }
      const state = cached.model.toState()
      this.to.postMessage({ type: 'model', id, state } satisfies Ask, [
        state.counts.buffer as ArrayBuffer,
        state.docs.buffer as ArrayBuffer,
      ])
    }
    const req = this.nextReq++
    return new Promise<PredictedColumns>((resolve, reject) => {
      if (!this.pending.size) this.to.ref()
      this.pending.set(req, { resolve, reject })
      const ask: Ask = { type: 'predict', req, id, ...rows }
      this.to.postMessage(ask, [rows.amounts.buffer as ArrayBuffer, rows.exponents.buffer as ArrayBuffer])
    })
  }

  async close(): Promise<void> {
    this.fail(new Error('the prediction thread was closed'))
    await this.stop()
  }

  fail(e: Error): void {
    this.failed ??= e
    this.to.unref()
    const waiting = [...this.pending.values()]
    this.pending.clear()
    for (const w of waiting) w.reject(this.failed)
  }
}

/**
 * A thread given a `predictionPort` in its workerData (the embedded transport's core thread:
 * embedded-thread.ts) sends its predictions there, to the thread that opened it (`tx import`'s
 * import thread, which mostly waits on the core), rather than starting one: no isolate more
 * (docs/categorization.md). The port serves one store; any other starts a worker.
 */
let port = (workerData as { predictionPort?: MessagePort } | undefined)?.predictionPort

function start(): PredictThread {
  if (port) {
    const p = port
    port = undefined
    const t = new PredictThread(p as unknown as Endpoint, async () => p.close())
    p.once('close', () => t.fail(new Error('the prediction port closed')))
    return t
  }
  const worker = new Worker(workerEntry(import.meta.url), {
    workerData: { kind: KIND },
    // The model and one batch's rows at a time: a small young generation keeps the RSS it adds low.
    resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 256 },
  })
  const t = new PredictThread(worker as unknown as Endpoint, () => worker.terminate())
  worker.on('error', (e) => t.fail(e))
  worker.on('exit', (code) => t.fail(new Error(`the prediction thread stopped (exit code ${code})`)))
  return t
}

const ids = new WeakMap<CategoryModel, number>()
let lastId = 0
function modelId(m: CategoryModel): number {
  let id = ids.get(m)
  if (id === undefined) {
    id = ++lastId
    ids.set(m, id)
  }
  return id
}

const threads = new WeakMap<Store, PredictThread>()

/** The store's prediction thread if it started one (tests). */
export function predictThreadOf(store: Store): PredictThread | undefined {
  return threads.get(store)
}

/**
 * The store's prediction thread, started now if it has none (`started` is handed its close);
 * undefined once it failed (predict on the core's thread).
 */
export function predictThread(store: Store, started: (close: () => Promise<void>) => void): PredictThread | undefined {
  let t = threads.get(store)
  if (!t) {
    const thread = start()
    threads.set(store, thread)
    started(() => thread.close())
    t = thread
  }
  return t.usable ? t : undefined
}

// Minimal typings for the parts of autocannon ^9 that the benchmark uses (the package ships none).
declare module 'autocannon' {
  export interface Options {
    url: string
    method?: string
    headers?: Record<string, string>
    body?: string | Buffer
    connections?: number
    /** Seconds. */
    duration?: number
    /** Seconds a request may take. */
    timeout?: number
    pipelining?: number
    title?: string
  }

  export interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p0_001?: number
    p1?: number
    p2_5: number
    p10: number
    p25?: number
    p50: number
    p75?: number
    p90: number
    p97_5: number
    p99: number
    p99_9?: number
    sent?: number
  }

  export interface Result {
    title?: string
    url: string
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    errors: number
    timeouts: number
    mismatches: number
    duration: number
    start: Date
    finish: Date
    connections: number
    pipelining: number
    non2xx: number
    resets: number
    '1xx': number
    '2xx': number
    '3xx': number
    '4xx': number
    '5xx': number
    statusCodeStats?: Record<string, { count: number }>
  }

  /** An event emitter made thenable (then/catch only, no finally). */
  export interface Instance extends PromiseLike<Result> {
    stop(): void
  }

  function autocannon(opts: Options): Instance
  export default autocannon
}

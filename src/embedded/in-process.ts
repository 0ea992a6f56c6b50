/**
 * Calling the app in this process, without a socket (the embedded transport).
 *
 * Node defines the web classes Headers, Request and Response lazily: touching any of them loads
 * Node's internal undici bundle (fetch, web streams, websocket), a large share of a CLI command's
 * start (docs/performance.md). A command on the embedded target needs none of it: its request bodies are
 * JSON text and its answers are read as text. So:
 *
 * - every in-process request is an {@link InProcessRequest}: url, method and headers, with the body
 *   handed to the app beside it (`env.embeddedBody`, read by the body guard like `finctl serve`
 *   hands over Node's request), never as a stream;
 * - a CLI process whose target is embedded may call {@link useLiteWebClasses}, which puts
 *   {@link LiteHeaders} and {@link LiteResponse} in place of the global Headers and Response that Hono
 *   builds its answers with, as long as Node has not loaded its own yet. A LiteResponse keeps its
 *   body as given and answers status, headers, text(), json() and arrayBuffer() itself; anything
 *   else (body as a stream, formData(), blob(), clone()) is passed to a real Response built on first
 *   use. @hono/node-server does the same for `serve` (its "lightweight" Request and Response).
 *
 * `finctl serve` and library callers keep Node's classes.
 */
import { createRequire } from 'node:module'
import { JsonValueBody } from '../api/json-answer.js'

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const BAD_VALUE = /[\0\r\n]/

function headerName(name: string): string {
  const n = String(name)
  if (!TOKEN.test(n)) throw new TypeError(`invalid header name: ${JSON.stringify(n)}`)
  return n.toLowerCase()
}

function headerValue(value: string): string {
  const v = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '')
  if (BAD_VALUE.test(v)) throw new TypeError('invalid header value')
  return v
}

type HeaderPairs =
  | Iterable<readonly [string, string]>
  | Record<string, string>
  | { forEach(cb: (value: string, key: string) => void): void }

/** Headers as the Fetch standard has them (case-insensitive names, combined values, sorted iteration). */
export class LiteHeaders {
  readonly #map = new Map<string, string>()
  readonly #cookies: string[] = []

  constructor(init?: HeaderPairs | null) {
    if (init == null) return
    // Pairs (arrays, Headers of either kind), else a headers-like object with forEach, else a record.
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly [string, string]>) {
        if (pair.length !== 2) throw new TypeError('a header init pair must have a name and a value')
        this.append(pair[0], pair[1])
      }
    } else if (typeof (init as { forEach?: unknown }).forEach === 'function') {
      ;(init as { forEach(cb: (value: string, key: string) => void): void }).forEach((v, k) => {
        this.append(k, v)
      })
    } else {
      for (const [k, v] of Object.entries(init as Record<string, string>)) this.append(k, v)
    }
  }

  append(name: string, value: string): void {
    const k = headerName(name)
    const v = headerValue(value)
    if (k === 'set-cookie') this.#cookies.push(v)
    const old = this.#map.get(k)
    this.#map.set(k, old === undefined ? v : `${old}, ${v}`)
  }

  set(name: string, value: string): void {
    const k = headerName(name)
    const v = headerValue(value)
    if (k === 'set-cookie') this.#cookies.splice(0, this.#cookies.length, v)
    this.#map.set(k, v)
  }

  delete(name: string): void {
    const k = headerName(name)
    if (k === 'set-cookie') this.#cookies.length = 0
    this.#map.delete(k)
  }

  get(name: string): string | null {
    return this.#map.get(headerName(name)) ?? null
  }

  has(name: string): boolean {
    return this.#map.has(headerName(name))
  }

  getSetCookie(): string[] {
    return [...this.#cookies]
  }

  forEach(cb: (value: string, key: string, parent: LiteHeaders) => void, thisArg?: unknown): void {
    for (const [k, v] of this) cb.call(thisArg, v, k, this)
  }

  *entries(): IterableIterator<[string, string]> {
    for (const k of [...this.#map.keys()].sort()) {
      if (k === 'set-cookie') for (const c of this.#cookies) yield [k, c]
      else yield [k, this.#map.get(k)!]
    }
  }

  *keys(): IterableIterator<string> {
    for (const [k] of this.entries()) yield k
  }

  *values(): IterableIterator<string> {
    for (const [, v] of this.entries()) yield v
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries()
  }

  get [Symbol.toStringTag](): string {
    return 'Headers'
  }
}

export type InProcessBody = string | Uint8Array | ArrayBuffer | null | undefined

/** What Hono reads of a request it is handed in-process. The body travels beside it (`env.embeddedBody`). */
export class InProcessRequest {
  readonly url: string
  readonly method: string
  readonly headers: LiteHeaders
  readonly body = null
  readonly bodyUsed = false
  readonly #text: string

  constructor(url: string, init: { method?: string; headers?: HeaderPairs; body?: InProcessBody } = {}) {
    this.url = new URL(url).href
    const m = init.method ?? 'GET'
    this.method = /^(get|head|post|put|patch|delete|options)$/i.test(m) ? m.toUpperCase() : m
    this.headers = new LiteHeaders(init.headers)
    this.#text = bodyText(init.body)
  }

  text(): Promise<string> {
    return Promise.resolve(this.#text)
  }

  json(): Promise<unknown> {
    return this.text().then((t) => JSON.parse(t))
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(toArrayBuffer(new TextEncoder().encode(this.#text)))
  }
}

/** The request body as text: bodies of the embedded client are JSON text. */
export function bodyText(body: InProcessBody): string {
  if (body == null) return ''
  if (typeof body === 'string') return body
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return new TextDecoder().decode(body)
  throw new TypeError('the embedded transport sends text or bytes only')
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

type ResponseInitLike = { status?: number; statusText?: string; headers?: HeaderPairs }
type AnyBody = string | ArrayBuffer | ArrayBufferView | JsonValueBody | null | undefined | object

/** Whether {@link useLiteWebClasses} has put the lite classes in place of Node's. */
let replaced = false

/**
 * A real class for what the lite ones hand on (a body stream, form data, a blob, a clone of a
 * stream). Before {@link useLiteWebClasses} that is the global; after it, Node's own are gone (they
 * were never loaded: see there), so it is undici's, the same Fetch implementation as a package,
 * loaded on first use from node_modules (the bundler leaves a created require alone: not bundled).
 */
function realClass<T>(name: 'Headers' | 'Response'): T {
  if (!replaced) return (globalThis as Record<string, unknown>)[name] as T
  const undici = createRequire(import.meta.url)('undici') as Record<string, unknown>
  return undici[name] as T
}

/**
 * A Response whose body is kept as given. status, headers, text(), json() and arrayBuffer() are
 * answered here; the rest of the Response interface from a real Response built on first use.
 */
export class LiteResponse {
  readonly status: number
  readonly statusText: string
  readonly headers: LiteHeaders
  readonly type = 'default'
  readonly url = ''
  readonly redirected = false
  #body: AnyBody
  #used = false
  #real: Response | undefined

  constructor(body?: AnyBody, init: ResponseInitLike = {}) {
    const status = init.status ?? 200
    if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`invalid response status ${status}`)
    this.status = status
    this.statusText = init.statusText ?? ''
    this.headers = init.headers instanceof LiteHeaders ? init.headers : new LiteHeaders(init.headers)
    this.#body = body ?? null
    if (typeof body === 'string' && !this.headers.has('content-type')) this.headers.set('content-type', 'text/plain;charset=UTF-8')
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false)
  }

  /** True when the body can be answered here (text, bytes or a JSON value); otherwise the real Response handles it. */
  #simple(): boolean {
    const b = this.#body
    return (
      !this.#real &&
      (b === null || typeof b === 'string' || b instanceof JsonValueBody || b instanceof ArrayBuffer || ArrayBuffer.isView(b))
    )
  }

  #real_(): Response {
    if (!this.#real) {
      const R = realClass<typeof Response>('Response')
      const H = realClass<typeof Headers>('Headers')
      const body = this.#body instanceof JsonValueBody ? this.#body.text() : this.#body
      this.#real = new R(body as ConstructorParameters<typeof Response>[0], {
        status: this.status,
        statusText: this.statusText,
        headers: new H([...this.headers]),
      })
    }
    return this.#real
  }

  #take(): string | Uint8Array | null {
    if (this.#used) throw new TypeError('the response body has already been read')
    this.#used = true
    const b = this.#body
    if (b === null || typeof b === 'string') return b as string | null
    if (b instanceof JsonValueBody) return b.text()
    if (b instanceof ArrayBuffer) return new Uint8Array(b)
    const v = b as ArrayBufferView
    return new Uint8Array(v.buffer, v.byteOffset, v.byteLength)
  }

  text(): Promise<string> {
    if (!this.#simple()) return this.#real_().text()
    try {
      const b = this.#take()
      return Promise.resolve(b === null ? '' : typeof b === 'string' ? b : new TextDecoder().decode(b))
    } catch (err) {
      return Promise.reject(err)
    }
  }

  json(): Promise<unknown> {
    return this.text().then((t) => JSON.parse(t))
  }

  /**
   * The body's JSON value as the app made it, not a copy: for a caller in this process that only
   * reads it (client/request.ts). Undefined, and the body left unread, when the body is not one.
   */
  jsonValue(): { value: unknown } | undefined {
    if (!(this.#body instanceof JsonValueBody) || !this.#simple() || this.#used) return undefined
    this.#used = true
    return { value: this.#body.value }
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    if (!this.#simple()) return this.#real_().arrayBuffer()
    try {
      const b = this.#take()
      return Promise.resolve(toArrayBuffer(b === null ? new Uint8Array(0) : typeof b === 'string' ? new TextEncoder().encode(b) : b))
    } catch (err) {
      return Promise.reject(err)
    }
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === null && !this.#real) return null
    return this.#real_().body
  }

  blob(): Promise<Blob> {
    return this.#real_().blob()
  }

  formData(): Promise<FormData> {
    return this.#real_().formData()
  }

  bytes(): Promise<Uint8Array> {
    return this.arrayBuffer().then((b) => new Uint8Array(b))
  }

  clone(): LiteResponse | Response {
    if (this.#simple() && !this.#used)
      return new LiteResponse(this.#body, { status: this.status, statusText: this.statusText, headers: new LiteHeaders(this.headers) })
    return this.#real_().clone()
  }

  get [Symbol.toStringTag](): string {
    return 'Response'
  }

  static json(data: unknown, init: ResponseInitLike = {}): LiteResponse {
    const headers = new LiteHeaders(init.headers)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    return new LiteResponse(JSON.stringify(data), { ...init, headers })
  }

  static error(): Response {
    return realClass<typeof Response>('Response').error()
  }

  static redirect(url: string, status?: number): Response {
    const R = realClass<typeof Response>('Response')
    return R.redirect(url, (status ?? 302) as Parameters<typeof R.redirect>[1])
  }
}

/**
 * Put LiteHeaders and LiteResponse in place of the global Headers and Response, for a CLI process
 * whose target is embedded. Node defines those globals lazily: the first look at them (on Node 22
 * and later even `Object.getOwnPropertyDescriptor` or `Object.defineProperty`) loads its internal
 * undici. So they are deleted and defined again, never read, and only while that module is not loaded yet (Node's list of loaded modules
 * says); once it is, there is nothing left to save and this does nothing. Returns whether the lite
 * classes are in place.
 */
export function useLiteWebClasses(): boolean {
  if (replaced) return true
  const loaded = (process as { moduleLoadList?: string[] }).moduleLoadList
  if (!loaded || loaded.includes('NativeModule internal/deps/undici/undici')) return false
  for (const [name, value] of [
    ['Headers', LiteHeaders],
    ['Response', LiteResponse],
  ] as const) {
    // Deleted first: redefining Node's lazy property in place would load it (a delete does not).
    if (!Reflect.deleteProperty(globalThis, name)) return replaced
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false })
    replaced = true
  }
  return true
}

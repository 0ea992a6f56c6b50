/**
 * Every page of a list as the service's own JSON text of each row, for output that prints rows as
 * JSON (`tx list --all --json`): parsing a page only to write the same text again was most of the
 * walk's time (docs/performance.md). A row's text is what JSON.stringify wrote on the service, which
 * is exactly what JSON.stringify writes of the row parsed back; on the embedded transport, where the
 * page comes as the app's value (api/json-answer.ts), each row is written from it the same way.
 */
import type { Client, PaginationInfo, RequestOptions } from './client.js'
import { answerValue, envelopeResult, parseResponse } from './request.js'

export interface RowPage {
  /** Each row's JSON text, as the service wrote it. */
  rows: string[]
  pagination?: PaginationInfo
}

// How JSON.stringify begins and ends a finctl list envelope ({ success, data, pagination }).
const HEAD = '{"success":true,"data":['
const TAIL = '],"pagination":'

/** Every page of a list, one page at a time, its rows as text (memory holds one page). */
export async function* rowPages(client: Client, path: string, query: RequestOptions['query'] = {}): AsyncGenerator<RowPage> {
  let cursor: string | undefined
  for (;;) {
    const page = await rowPage(client, path, { ...query, cursor })
    yield page
    cursor = page.pagination?.next_cursor ?? undefined
    if (!page.pagination?.has_more || !cursor) return
  }
}

async function rowPage(client: Client, path: string, query: RequestOptions['query']): Promise<RowPage> {
  const res = await client.send('GET', path, { query })
  // A page the app kept as its value (the embedded transport): each row as the service would write it.
  const kept = answerValue(res)
  if (kept) return fromParsed(envelopeResult<unknown[]>(res, kept.value))
  if (!res.ok) return fromParsed(await parseResponse<unknown[]>(res))
  const text = await res.text()
  // "pagination" is the envelope's last key, and `],"pagination":` cannot occur inside a string
  // (a quote there is escaped): the last one found is the envelope's.
  const tail = text.lastIndexOf(TAIL)
  const items = text.startsWith(HEAD) && tail > 0 && text.endsWith('}') ? arrayItems(text, HEAD.length - 1, tail) : undefined
  if (!items) return fromParsed(await parseResponse<unknown[]>(new Response(text, { status: res.status, headers: res.headers })))
  return { rows: items, pagination: JSON.parse(text.slice(tail + TAIL.length, -1)) as PaginationInfo }
}

/** A page written in another layout (another service's JSON): parsed, each row written as JSON.stringify does. */
function fromParsed(page: { data: unknown[]; pagination?: PaginationInfo }): RowPage {
  return { rows: page.data.map(rowJson), pagination: page.pagination }
}

/**
 * A row's JSON. A row that is an instance of a class (a page's ListedTransaction, on the embedded
 * transport) is written from a plain copy of its fields, the same text: V8's fast JSON.stringify
 * takes plain objects only, and took twice as long over the class's (docs/performance.md, "`tx list
 * --all` beside the store").
 */
function rowJson(r: unknown): string {
  return JSON.stringify(
    typeof r === 'object' && r !== null && Object.getPrototypeOf(r) !== Object.prototype && !Array.isArray(r) ? { ...r } : r,
  )
}

/**
 * The items of the compact JSON array text[open..close] (`[` at open, its `]` at close), each as its
 * text; undefined when it is not one compact array (whitespace between items, brackets unmatched).
 */
export function arrayItems(text: string, open: number, close: number): string[] | undefined {
  const items: string[] = []
  let depth = 0
  let start = open + 1
  for (let i = open; i <= close; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // A string: on to its closing quote, the one not escaped by an odd run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1)
        if (i < 0 || i > close) return undefined
        let b = i - 1
        while (text.charCodeAt(b) === 0x5c) b--
        if ((i - 1 - b) % 2 === 0) break
      }
    } else if (c === 0x7b || c === 0x5b) depth++
    else if (c === 0x7d || c === 0x5d) {
      depth--
      if (depth === 0) {
        if (i !== close) return undefined
        if (i > start) items.push(text.slice(start, i))
        else if (items.length) return undefined
      }
    } else if (c === 0x2c && depth === 1) {
      items.push(text.slice(start, i))
      start = i + 1
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return undefined
  }
  return depth === 0 ? items : undefined
}

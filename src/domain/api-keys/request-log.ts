/**
 * The request log (`GET /api-v1/logs`, `finctl logs tail`; docs/logs.md): the usage records of a
 * company's keys, in the order they were written, after a cursor, filtered.
 *
 * The cursor is the id of the last record read. Ids follow the order records are committed in
 * (SQLite has one writer; on PostgreSQL the writers of api_requests take an advisory lock), so a
 * reader that follows them misses none, whichever serve process wrote it. The log's own requests
 * (and long polls) are left out: a tail would otherwise show itself.
 */
import { z } from '@hono/zod-openapi'
import { leadingText, maxOf } from '../../store/fragments.js'
import type { Store } from '../../store/store.js'
import { longPoll, type Waker } from '../long-poll.js'
import { Timestamp } from '../schema-common.js'

export const LOG_PATH = '/api-v1/logs'
/** The longest a long poll waits (seconds): under the usual proxy and client idle timeouts. */
export const MAX_WAIT_SECONDS = 30

export const RequestLogQuery = z
  .object({
    after: z
      .string()
      .regex(/^\d{1,18}$/, 'must be a cursor from an earlier answer (next_cursor)')
      .optional()
      .openapi({ description: 'next_cursor of an earlier answer; without it, the newest `limit` records' }),
    limit: z.coerce.number().int().min(0).max(500).optional().openapi({ description: '0..500, default 100' }),
    wait: z.coerce
      .number()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .openapi({ description: `seconds to wait for a record after \`after\` when there is none yet (long poll), 0..${MAX_WAIT_SECONDS}` }),
    status: z
      .string()
      .regex(/^([1-5]xx|[1-5]\d\d)$/, 'must be a status (404) or a class (4xx, 5xx)')
      .optional(),
    method: z
      .string()
      .regex(/^[A-Za-z]{1,10}$/, 'must be an HTTP method')
      .transform((m) => m.toUpperCase())
      .optional(),
    path: z
      .string()
      .startsWith('/', 'must start with /')
      .max(200)
      .optional()
      .openapi({ description: 'records whose path starts with this' }),
    key: z.string().min(1).max(64).optional().openapi({ description: "a key's id or its key_prefix" }),
  })
  .strict()
export type RequestLogQuery = z.infer<typeof RequestLogQuery>

export const RequestLogEntry = z
  .object({
    id: z.string(),
    request_id: z.string().nullable(),
    created_at: Timestamp,
    method: z.string(),
    path: z.string().openapi({ description: 'as requested (the route template on records made before finctl 0022)' }),
    endpoint: z.string().openapi({ description: 'the route template, as usage statistics count it' }),
    status: z.number().int(),
    response_time_ms: z.number().int(),
    key_id: z.string(),
    key_prefix: z.string().nullable(),
    via: z
      .string()
      .nullable()
      .openapi({ description: 'the MCP tool whose call made the request (`mcp:search_transactions`: docs/agents.md); null otherwise' }),
  })
  .openapi('RequestLogEntry')
export type RequestLogEntry = z.infer<typeof RequestLogEntry>

export const RequestLogPage = z
  .object({
    success: z.literal(true),
    data: z.array(RequestLogEntry),
    pagination: z.object({
      limit: z.number().int(),
      next_cursor: z.string().openapi({ description: 'where the next read starts (as `after`); always set' }),
      has_more: z.boolean(),
    }),
  })
  .openapi('RequestLogPage')
export type RequestLogPage = z.infer<typeof RequestLogPage>

type Filters = Omit<RequestLogQuery, 'after' | 'limit' | 'wait'>

/** One read: the records after `after` (or the newest `limit`), and the cursor past everything read. */
export async function readRequestLog(store: Store, companyId: string, q: RequestLogQuery): Promise<RequestLogPage> {
  const limit = q.limit ?? 100
  // The newest id first: records after it are left to the next read, so that filtered-out records
  // are passed over once (the cursor moves to it) and none written meanwhile is skipped.
  const top = await store.db.selectFrom('api_requests').select(maxOf('id').as('id')).where('company_id', '=', companyId).executeTakeFirst()
  const newest = Number(top?.id ?? 0)
  const after = q.after === undefined ? undefined : Number(q.after)
  // Nothing written since the cursor (an idle long poll's every read): no second query.
  if (after !== undefined && newest <= after)
    return { success: true, data: [], pagination: { limit, next_cursor: String(after), has_more: false } }
  let query = filtered(store, companyId, q)
    .where('r.id', '<=', newest)
    .select([
      'r.id',
      'r.request_id',
      'r.created_at',
      'r.method',
      'r.path',
      'r.endpoint',
      'r.status_code',
      'r.response_time_ms',
      'r.key_id',
      'r.via',
    ])
    .select('k.key_prefix')
    .limit(limit + 1)
  query = after === undefined ? query.orderBy('r.id', 'desc') : query.where('r.id', '>', after).orderBy('r.id', 'asc')
  const rows = await query.execute()
  const hasMore = after !== undefined && rows.length > limit
  const page = rows.slice(0, limit)
  if (after === undefined) page.reverse()
  const last = page.at(-1)
  const cursor = hasMore && last ? Number(last.id) : Math.max(newest, after ?? 0)
  return {
    success: true,
    data: page.map((r) => ({
      id: String(r.id),
      request_id: r.request_id,
      created_at: r.created_at,
      method: r.method,
      path: r.path ?? r.endpoint,
      endpoint: r.endpoint,
      status: Number(r.status_code),
      response_time_ms: Number(r.response_time_ms),
      key_id: r.key_id,
      key_prefix: r.key_prefix ?? null,
      via: r.via ?? null,
    })),
    pagination: { limit, next_cursor: String(cursor), has_more: hasMore },
  }
}

function filtered(store: Store, companyId: string, f: Filters) {
  let q = store.db
    .selectFrom('api_requests as r')
    .leftJoin('api_keys as k', 'k.id', 'r.key_id')
    .where('r.company_id', '=', companyId)
    .where('r.endpoint', '!=', LOG_PATH)
  if (f.status) {
    const s = f.status
    q = s.endsWith('xx')
      ? q.where('r.status_code', '>=', Number(s[0]) * 100).where('r.status_code', '<', Number(s[0]) * 100 + 100)
      : q.where('r.status_code', '=', Number(s))
  }
  if (f.method) q = q.where('r.method', '=', f.method)
  if (f.path) {
    const p = f.path
    q = q.where(leadingText('r.path', 'r.endpoint', p.length), '=', p)
  }
  if (f.key) q = f.key.startsWith('fds_') ? q.where('k.key_prefix', '=', f.key) : q.where('r.key_id', '=', f.key)
  return q
}

/** `wait` seconds of long poll (long-poll.ts) over `readRequestLog`: answers once a record matches. */
export function waitForRequestLog(store: Store, companyId: string, q: RequestLogQuery, waker: Waker): Promise<RequestLogPage> {
  const read = (previous?: RequestLogPage) =>
    readRequestLog(store, companyId, previous ? { ...q, after: previous.pagination.next_cursor } : q)
  // Without a cursor there is nothing to wait for: the answer is the newest records.
  return longPoll(q.after === undefined ? 0 : (q.wait ?? 0), waker, read, (p) => p.data.length > 0)
}

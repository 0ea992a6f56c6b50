/**
 * Shared helpers of the hardening suite: bounded requests, envelope checks, the route list from
 * the OpenAPI document, and SQLite integrity checks.
 */
import Database from 'better-sqlite3'
import { expect } from 'vitest'
import { STATUS_BY_CODE, type ErrorCode } from '../../src/kernel/errors.js'

/** Longer variants run with FINCTL_SOAK=1. */
export const SOAK = process.env.FINCTL_SOAK === '1'

export interface Answer {
  status: number
  headers: Headers
  text: string
  body: any
}

/** Rejects when `p` does not settle in `ms`: a hang is a failure, not a stuck test run. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, rej) => {
      timer = setTimeout(() => rej(new Error(`no answer within ${ms} ms: ${what}`)), ms)
    }),
  ])
}

type FetchLike = (url: string, init: RequestInit) => Promise<Response>

/** One request, bounded in time, with the body read and parsed (null when it is not JSON). */
export async function send(
  fetchFn: FetchLike,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string | Uint8Array },
  timeoutMs = 10_000,
): Promise<Answer> {
  const what = `${init.method} ${url.slice(0, 200)}`
  return withTimeout(
    (async () => {
      const res = await fetchFn(url, {
        method: init.method,
        headers: init.headers,
        body: init.body as RequestInit['body'],
        signal: AbortSignal.timeout(timeoutMs),
      })
      const text = await res.text()
      let body: any = null
      try {
        body = JSON.parse(text)
      } catch {
        body = null
      }
      return { status: res.status, headers: res.headers, text, body }
    })(),
    timeoutMs + 1000,
    what,
  )
}

const CODES = Object.keys(STATUS_BY_CODE) as ErrorCode[]

/**
 * The property every answer must have: a 2xx success envelope, or a 4xx error envelope of docs/api.md
 * section 1 whose code matches its status and whose request_id is the X-Request-Id header.
 * Never a 5xx, never a stack trace.
 */
export function expectWellFormed(a: Answer, context: string): void {
  const ctx = `${context}\n→ ${a.status} ${a.text.slice(0, 500)}`
  expect(a.status, ctx).toBeGreaterThanOrEqual(200)
  expect(a.status, ctx).toBeLessThan(500)
  expect(a.body, ctx).not.toBeNull()
  expect(a.headers.get('x-request-id'), ctx).toBeTruthy()
  if (a.status < 300) {
    expect(a.body.success, ctx).toBe(true)
    expect(a.body, ctx).toHaveProperty('data')
    return
  }
  expect(a.status, ctx).toBeGreaterThanOrEqual(400)
  expect(a.body.success, ctx).toBe(false)
  const e = a.body.error
  expect(typeof e?.code, ctx).toBe('string')
  expect(CODES, ctx).toContain(e.code)
  expect(STATUS_BY_CODE[e.code as ErrorCode], ctx).toBe(a.status)
  expect(typeof e.message, ctx).toBe('string')
  expect(e.message.length, ctx).toBeGreaterThan(0)
  expect(e.request_id, ctx).toBe(a.headers.get('x-request-id'))
  expect(e.message, ctx).not.toMatch(/\n\s+at |node_modules|SQLITE_|syntax error at/)
  if (e.details !== undefined) {
    expect(Array.isArray(e.details), ctx).toBe(true)
    for (const d of e.details) {
      expect(typeof d.path, ctx).toBe('string')
      expect(typeof d.message, ctx).toBe('string')
    }
  }
}

export interface Route {
  method: string
  /** OpenAPI template, e.g. /api-v1/transactions/{id} */
  path: string
  security: Array<Record<string, string[]>> | undefined
  queryParams: string[]
  bodySchema?: string
}

/** Every operation of the served OpenAPI document. */
export function routesOf(doc: { paths: Record<string, Record<string, any>> }): Route[] {
  const out: Route[] = []
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['get', 'post', 'patch', 'put', 'delete'].includes(method)) continue
      const params = (op.parameters ?? []) as Array<{ in: string; name: string }>
      const ref = op.requestBody?.content?.['application/json']?.schema?.$ref as string | undefined
      out.push({
        method: method.toUpperCase(),
        path,
        security: op.security,
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodySchema: ref?.split('/').pop(),
      })
    }
  }
  return out
}

/** Percent-encode every byte of the UTF-8 form (lone surrogates become U+FFFD, never a throw). */
export function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('')
}

/** PRAGMA integrity_check and foreign_key_check on a SQLite file, through a connection of its own. */
export function sqliteChecks(file: string): { integrity: string[]; foreignKeyViolations: unknown[] } {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check)
    const foreignKeyViolations = db.pragma('foreign_key_check') as unknown[]
    return { integrity, foreignKeyViolations }
  } finally {
    db.close()
  }
}

export function expectSqliteHealthy(file: string): void {
  const r = sqliteChecks(file)
  expect(r.integrity).toEqual(['ok'])
  expect(r.foreignKeyViolations).toEqual([])
}

/** Strings that have broken services before. */
export const NASTY_STRINGS: string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '-1e400',
  '1e-400',
  '9'.repeat(40),
  '0x1F',
  '1_000',
  '1,50',
  '١٢٣',
  '-0',
  '+5',
  '.5',
  '5.',
  '',
  "'; DROP TABLE transactions; --",
  "' OR '1'='1",
  '" OR ""="',
  '1; SELECT pg_sleep(5)',
  '%',
  '_',
  '\\',
  '%_\\%',
  "=cmd|' /C calc'!A0",
  '+1+1',
  '-2+3+cmd',
  '@SUM(A1:A9)',
  '\t=1+1',
  '\r=1+1',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '\uffff',
  '\u202e',
  '😀'.repeat(10),
  'x'.repeat(1001),
  'y'.repeat(5000),
  '../../../etc/passwd',
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  'null',
  'true',
  'undefined',
  ' ',
  '\n',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '99999-01-01',
  '2026-1-1',
  '2026-01-01T00:00:00Z',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
]

import type { ServeProcess } from '../helpers/cli.js'
export type Served = ServeProcess

/** `finctl serve --port 0 --database DB ...extra` in its own config folder, stderr captured for its whole life. */
export async function serve(database: string, extra: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const { mkdtempSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const { spawnServe } = await import('../helpers/cli.js')
  const configDir = mkdtempSync(join(tmpdir(), 'finctl-hard-serve-'))
  const remove = () => rmSync(configDir, { recursive: true, force: true })
  let served: Served
  try {
    served = await spawnServe(['--database', database, ...extra], {
      env: { ...process.env, FINCTL_CONFIG_DIR: configDir, ...env },
      stopTimeoutMs: 20_000,
    })
  } catch (err) {
    remove()
    throw err
  }
  // The config folder is the server's own: it goes when the server does (stop() waits for that).
  if (served.child.exitCode !== null || served.child.signalCode !== null) remove()
  else served.child.once('exit', remove)
  return served
}

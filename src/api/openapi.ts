/** Small helpers so each route declares its request and responses once, for validation and docs. */
import { OpenAPIHono, type z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { ErrorBody } from '../domain/schema-common.js'
import type { Scope } from '../kernel/vocabulary.js'
import { validationError } from './errors.js'
import type { AppEnv } from './env.js'

const WHERE = { json: 'body', query: 'query', param: 'path', header: 'headers', form: 'form', cookie: 'cookies' } as const

/** A router whose validation failures become 400 validation_error envelopes naming each field. */
export function router(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error, WHERE[result.target as keyof typeof WHERE] ?? 'request')
    },
  })
}

export function jsonBody<T extends z.ZodType>(schema: T) {
  return { content: { 'application/json': { schema } }, required: true }
}

export function ok<T extends z.ZodType>(schema: T, description = 'OK') {
  return { content: { 'application/json': { schema } }, description }
}

const err = (description: string) => ({ content: { 'application/json': { schema: ErrorBody } }, description })

export const ERRORS = {
  400: err('Validation error or malformed JSON'),
  401: err('Unauthorized'),
  403: err('Forbidden'),
  404: err('Not found'),
  409: err('Conflict'),
  413: err('Payload too large'),
  415: err('Unsupported media type'),
  429: err('Rate limited'),
  500: err('Internal error'),
} as const

/** A route's OpenAPI `security`: the credentials and scopes it accepts, each requirement one way in. */
export type Security = Array<Record<string, Scope[]>>

/**
 * The scopes a route accepts (docs/api.md section 2), declared on the route itself as its OpenAPI
 * `security`: one requirement per scope, for an API key or a login, so that any one of them suffices.
 * The scope check reads this declaration of the route a request matched (middleware/scopes.ts), and
 * the served document lists it.
 */
export function accepts(...scopes: [Scope, ...Scope[]]): Security {
  return [...scopes.map((s) => ({ ApiKey: [s] })), ...scopes.map((s) => ({ Bearer: [s] }))]
}

/** As {@link accepts}, for a login alone (the route refuses an API key). */
export function loginAccepts(...scopes: [Scope, ...Scope[]]): Security {
  return scopes.map((s) => ({ Bearer: [s] }))
}

/** Any credential whatever its scopes: a key asking about itself (/api-keys/me). */
export const ANY_CREDENTIAL: Security = [{ ApiKey: [] }, { Bearer: [] }]

/**
 * A stored file's bytes as their media type, or with `?as=base64` as JSON (`meta` and
 * `content_base64`): the CLI asks for base64, since the embedded thread carries bodies as text.
 */
export function fileResponse(c: Context<AppEnv>, bytes: Uint8Array, mediaType: string, meta: Record<string, string>) {
  if (c.req.query('as') === 'base64')
    return c.json({ success: true as const, data: { ...meta, content_base64: Buffer.from(bytes).toString('base64') } }, 200)
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'content-type': mediaType,
    'content-length': String(bytes.length),
    'x-content-type-options': 'nosniff',
  })
}

/** Small helpers so each route declares its request and responses once, for validation and docs. */
import { OpenAPIHono, type z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { ErrorBody } from '../domain/schema-common.js'
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

export const SECURITY: Array<Record<string, string[]>> = [{ ApiKey: [] }, { Bearer: [] }]
export const JWT_ONLY: Array<Record<string, string[]>> = [{ Bearer: [] }]

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

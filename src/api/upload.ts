/**
 * The body of an upload (documents, exchange rates, statements): the file as multipart/form-data, or
 * as JSON with the file in base64 (what the CLI sends: the embedded transport carries text bodies).
 * One schema per media type; the route makes its use case's input of the fields either gives.
 */
import type { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { zodError } from '../domain/validation.js'
import { AppError } from '../kernel/errors.js'
import type { AppEnv } from './env.js'

export interface UploadSpec<F extends { file: Blob; file_name?: string }, J extends { file_name: string; content_base64: string }> {
  form: z.ZodType<F>
  json: z.ZodType<J>
  /** The 415's message: how to send the file. */
  unsupported: string
  /** A form's file part without a name nor a `file_name`. */
  defaultName: string
  maxBytes: number
  /** The 413 for a file of `size` bytes (`about`: told from the length of its base64). */
  tooLarge: (size: number, about: boolean) => AppError
  /**
   * Base64 longer than this is refused before it is decoded (the use case then measures the bytes);
   * without it, the decoded bytes are measured here.
   */
  maxBase64?: number
}

export interface Upload<F, J> {
  fileName: string
  bytes: Uint8Array
  /** The other fields, as the form's or the JSON's schema gave them. */
  fields: F | J
}

export async function readUpload<F extends { file: Blob; file_name?: string }, J extends { file_name: string; content_base64: string }>(
  c: Context<AppEnv>,
  spec: UploadSpec<F, J>,
): Promise<Upload<F, J>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (type === 'multipart/form-data') {
    let raw: Record<string, unknown>
    try {
      raw = await c.req.parseBody({ all: true })
    } catch {
      throw new AppError('validation_error', 'the multipart/form-data body cannot be read', {
        details: [{ path: '(body)', message: 'is not valid multipart/form-data' }],
      })
    }
    const parsed = spec.form.safeParse({ ...raw })
    if (!parsed.success) throw zodError(parsed.error, 'form')
    const f = parsed.data
    if (f.file.size > spec.maxBytes) throw spec.tooLarge(f.file.size, false)
    return {
      fileName: f.file_name ?? ((f.file as { name?: string }).name || spec.defaultName),
      bytes: new Uint8Array(await f.file.arrayBuffer()),
      fields: f,
    }
  }
  if (!/^application\/(.+\+)?json$/.test(type)) throw new AppError('unsupported_media_type', spec.unsupported)
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    throw new AppError('invalid_json', 'the request body is not valid JSON')
  }
  const parsed = spec.json.safeParse(body)
  if (!parsed.success) throw zodError(parsed.error, 'body')
  const j = parsed.data
  const b64 = j.content_base64.replace(/\s+/g, '')
  if (spec.maxBase64 !== undefined && b64.length > spec.maxBase64) throw spec.tooLarge(Math.floor((b64.length * 3) / 4), true)
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64))
    throw new AppError('validation_error', 'content_base64: is not base64', {
      details: [{ path: 'content_base64', message: 'is not base64' }],
    })
  const bytes = Buffer.from(b64, b64.includes('-') || b64.includes('_') ? 'base64url' : 'base64')
  if (spec.maxBase64 === undefined && bytes.length > spec.maxBytes) throw spec.tooLarge(bytes.length, false)
  return { fileName: j.file_name, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), fields: j }
}

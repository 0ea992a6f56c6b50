/**
 * The one upload reader of the documents, exchange-rates and statements routes (src/api/upload.ts):
 * a form's file or JSON's base64, and the size rules each route sets, with tiny limits.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from '../../src/api/env.js'
import { onError } from '../../src/api/errors.js'
import { readUpload, type UploadSpec } from '../../src/api/upload.js'
import { AppError } from '../../src/kernel/errors.js'

const Form = z.object({
  file: z.custom<Blob>((v) => v instanceof Blob, 'must be a file part'),
  file_name: z.string().optional(),
  tag: z.string(),
})
const Json = z.object({ file_name: z.string(), content_base64: z.string(), tag: z.string() })

function app(o: { maxBase64?: number } = {}) {
  const spec: UploadSpec<z.infer<typeof Form>, z.infer<typeof Json>> = {
    form: Form,
    json: Json,
    unsupported: 'send a form or JSON',
    defaultName: 'upload',
    maxBytes: 8,
    tooLarge: (size, about) => new AppError('payload_too_large', `${about ? 'about ' : ''}${size} bytes`),
    ...o,
  }
  const a = new OpenAPIHono<AppEnv>()
  a.use('*', async (c, next) => {
    c.set('requestId', 'r')
    await next()
  })
  a.post('/up', async (c) => {
    const u = await readUpload(c, spec)
    return c.json({ name: u.fileName, text: Buffer.from(u.bytes).toString(), tag: u.fields.tag })
  })
  a.onError((err, c) => onError(err, c, ':memory:'))
  return a
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const answer = async (r: Response) => ({
  status: r.status,
  body: (await r.json()) as { error?: { message: string }; name?: string; text?: string; tag?: string },
})

describe('readUpload', () => {
  it('reads a form file (named by its part) and JSON base64 (whitespace and base64url too)', async () => {
    const fd = new FormData()
    fd.append('file', new File(['hello'], 'h.txt'))
    fd.append('tag', 'f')
    expect((await answer(await app().request('/up', { method: 'POST', body: fd }))).body).toEqual({
      name: 'h.txt',
      text: 'hello',
      tag: 'f',
    })
    const b64 = Buffer.from('hi?>').toString('base64')
    expect((await answer(await app().request('/up', json({ file_name: 'j', content_base64: ` ${b64}\n`, tag: 'j' })))).body.text).toBe(
      'hi?>',
    )
    const url = Buffer.from('hi?>').toString('base64url')
    expect((await answer(await app().request('/up', json({ file_name: 'j', content_base64: url, tag: 'j' })))).body.text).toBe('hi?>')
  })

  it('refuses other media types, bad JSON, bad base64 and an unreadable form as the routes always did', async () => {
    expect((await answer(await app().request('/up', { method: 'POST', body: 'x' }))).body.error?.message).toBe('send a form or JSON')
    const bad = await answer(await app().request('/up', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }))
    expect(bad).toMatchObject({ status: 400, body: { error: { message: 'the request body is not valid JSON' } } })
    const b64 = await answer(await app().request('/up', json({ file_name: 'j', content_base64: '!!', tag: 'j' })))
    expect(b64).toMatchObject({ status: 400, body: { error: { message: 'content_base64: is not base64' } } })
    const form = await app().request('/up', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=z' },
      body: '--z\r\nx',
    })
    expect((await answer(form)).body.error?.message).toBe('the multipart/form-data body cannot be read')
  })

  it('measures a form file, base64 before decoding when the route says how long it may be, else the decoded bytes', async () => {
    const fd = new FormData()
    fd.append('file', new File(['123456789'], 'big'))
    fd.append('tag', 'f')
    expect(await answer(await app().request('/up', { method: 'POST', body: fd }))).toMatchObject({
      status: 413,
      body: { error: { message: '9 bytes' } },
    })
    const nine = Buffer.from('123456789').toString('base64')
    expect((await answer(await app().request('/up', json({ file_name: 'j', content_base64: nine, tag: 'j' })))).body.error?.message).toBe(
      '9 bytes',
    )
    const early = await answer(await app({ maxBase64: 8 }).request('/up', json({ file_name: 'j', content_base64: nine, tag: 'j' })))
    expect(early).toMatchObject({ status: 413, body: { error: { message: 'about 9 bytes' } } })
    // Under the base64 bound, the use case measures the bytes (its own 413): the reader lets them through.
    expect(
      (await answer(await app({ maxBase64: 64 }).request('/up', json({ file_name: 'j', content_base64: nine, tag: 'j' })))).status,
    ).toBe(200)
  })
})

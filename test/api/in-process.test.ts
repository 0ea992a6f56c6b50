// The embedded transport's stand-ins for the web classes (src/embedded/in-process.ts), checked against
// Node's own Headers and Response (test/e2e/startup.test.ts checks the CLI never loads those).
import { describe, expect, it } from 'vitest'
import { InProcessRequest, LiteHeaders, LiteResponse, bodyText } from '../../src/embedded/in-process.js'

type HeaderOp = ['append' | 'set', string, string] | ['delete', string]

function apply(h: { append(k: string, v: string): void; set(k: string, v: string): void; delete(k: string): void }, ops: HeaderOp[]) {
  for (const op of ops) {
    if (op[0] === 'delete') h.delete(op[1])
    else h[op[0]](op[1], op[2])
  }
}

describe('LiteHeaders behaves as Node Headers', () => {
  const cases: Array<[string, HeaderOp[]]> = [
    [
      'case-insensitive names, combined values',
      [
        ['append', 'X-A', '1'],
        ['append', 'x-a', '2'],
        ['set', 'Content-Type', 'application/json'],
      ],
    ],
    [
      'set replaces, delete removes',
      [
        ['append', 'Accept', 'a'],
        ['set', 'ACCEPT', 'b'],
        ['append', 'X-Gone', '1'],
        ['delete', 'x-gone'],
      ],
    ],
    ['values are trimmed', [['set', 'X-Pad', '  v \t']]],
    [
      'set-cookie kept apart',
      [
        ['append', 'Set-Cookie', 'a=1'],
        ['append', 'set-cookie', 'b=2'],
        ['append', 'Vary', 'x'],
      ],
    ],
    [
      'iteration is sorted',
      [
        ['set', 'zeta', '1'],
        ['set', 'alpha', '2'],
        ['set', 'Mid', '3'],
      ],
    ],
  ]
  for (const [name, ops] of cases) {
    it(name, () => {
      const real = new Headers()
      const lite = new LiteHeaders()
      apply(real, ops)
      apply(lite, ops)
      expect([...lite]).toEqual([...real])
      for (const k of ['x-a', 'content-type', 'accept', 'x-gone', 'x-pad', 'set-cookie', 'vary', 'alpha', 'missing']) {
        expect(lite.get(k)).toBe(real.get(k))
        expect(lite.has(k)).toBe(real.has(k))
      }
      expect(lite.getSetCookie()).toEqual(real.getSetCookie())
    })
  }

  it('is built from a record, pairs, or other headers; refuses bad names and values', () => {
    const fromRecord = new LiteHeaders({ 'X-One': '1', Accept: 'a' })
    expect(fromRecord.get('x-one')).toBe('1')
    expect([
      ...new LiteHeaders([
        ['b', '2'],
        ['a', '1'],
      ]),
    ]).toEqual([
      ['a', '1'],
      ['b', '2'],
    ])
    expect([...new LiteHeaders(fromRecord)]).toEqual([...fromRecord])
    expect([...new LiteHeaders(new Headers({ 'X-Real': 'r' }))]).toEqual([['x-real', 'r']])
    expect(() => new LiteHeaders({ 'bad name': 'x' })).toThrow(TypeError)
    expect(() => new LiteHeaders({ ok: 'line\nbreak' })).toThrow(TypeError)
    const seen: string[] = []
    fromRecord.forEach((v, k) => {
      seen.push(`${k}=${v}`)
    })
    expect(seen).toEqual(['accept=a', 'x-one=1'])
  })
})

describe('LiteResponse', () => {
  it('answers status, headers and the body as text, JSON or bytes, once', async () => {
    const r = new LiteResponse('{"a":1}', { status: 201, headers: { 'Content-Type': 'application/json' } })
    expect(r.status).toBe(201)
    expect(r.ok).toBe(true)
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(r.bodyUsed).toBe(false)
    expect(await r.json()).toEqual({ a: 1 })
    expect(r.bodyUsed).toBe(true)
    await expect(r.text()).rejects.toThrow(TypeError)

    const bytes = new LiteResponse(new TextEncoder().encode('héllo'), { status: 404 })
    expect(bytes.ok).toBe(false)
    expect(await bytes.text()).toBe('héllo')
    expect(new TextDecoder().decode(await new LiteResponse('x').arrayBuffer())).toBe('x')
    expect(await new LiteResponse(null).text()).toBe('')
    expect(new LiteResponse(null).body).toBeNull()
  })

  it('gives a text body the content type a real Response gives it', () => {
    expect(new LiteResponse('x').headers.get('content-type')).toBe(new Response('x').headers.get('content-type'))
  })

  it('refuses a status a real Response refuses', () => {
    expect(() => new LiteResponse('x', { status: 99 })).toThrow(RangeError)
    expect(() => new Response('x', { status: 99 })).toThrow(RangeError)
  })

  it('hands what it does not answer itself to a real Response: a stream, form data, a clone', async () => {
    const form = new LiteResponse('--b\r\nContent-Disposition: form-data; name="f"\r\n\r\nv\r\n--b--\r\n', {
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    })
    expect((await form.formData()).get('f')).toBe('v')
    const streamed = new LiteResponse('chunk')
    const reader = streamed.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('chunk')
    const original = new LiteResponse('same', { status: 202 })
    const copy = original.clone()
    expect(await copy.text()).toBe('same')
    expect(await original.text()).toBe('same')
    expect(copy.status).toBe(202)
  })
})

describe('InProcessRequest', () => {
  it('normalises the URL and method and keeps the body as text', async () => {
    const r = new InProcessRequest('http://finctl.embedded/api-v1/x?q=1', { method: 'post', headers: { 'X-Key': 'k' }, body: '{"a":1}' })
    expect(r.url).toBe('http://finctl.embedded/api-v1/x?q=1')
    expect(r.method).toBe('POST')
    expect(r.headers.get('x-key')).toBe('k')
    expect(await r.json()).toEqual({ a: 1 })
    expect(new InProcessRequest('http://h/p').method).toBe('GET')
  })

  it('takes text or bytes as a body, nothing else', () => {
    expect(bodyText(undefined)).toBe('')
    expect(bodyText('t')).toBe('t')
    expect(bodyText(new TextEncoder().encode('b'))).toBe('b')
    expect(() => bodyText({} as unknown as string)).toThrow(TypeError)
  })
})

describe('useLiteWebClasses', () => {
  // In a process of its own: it replaces globals, and this worker has loaded Node's classes already.
  it("puts the lite classes in place without loading Node's; what they hand on still works", async () => {
    const { spawnSync } = await import('node:child_process')
    const { resolve } = await import('node:path')
    const src = resolve(import.meta.dirname, '../../src/embedded/in-process.ts')
    const script = `
      import { useLiteWebClasses, LiteResponse, LiteHeaders } from ${JSON.stringify(src)}
      const loaded = () => process.moduleLoadList.includes('NativeModule internal/deps/undici/undici')
      const out = { before: loaded(), replaced: useLiteWebClasses(), again: useLiteWebClasses() }
      out.lite = globalThis.Response === LiteResponse && globalThis.Headers === LiteHeaders
      out.loaded = loaded()
      const form = new Response('--b\\r\\nContent-Disposition: form-data; name="f"\\r\\n\\r\\nv\\r\\n--b--\\r\\n', { headers: { 'content-type': 'multipart/form-data; boundary=b' } })
      out.form = (await form.formData()).get('f')
      const reader = new Response('chunk').body.getReader()
      out.stream = new TextDecoder().decode((await reader.read()).value)
      out.nodeLoadedAfterFallback = loaded()
      console.log(JSON.stringify(out))
    `
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: resolve(import.meta.dirname, '../..'),
    })
    expect(r.status, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({
      before: false,
      replaced: true,
      again: true,
      lite: true,
      loaded: false,
      form: 'v',
      stream: 'chunk',
      nodeLoadedAfterFallback: false,
    })
  })
})

/** A webhook receiver on 127.0.0.1 for tests: records each delivery (raw body and headers), answers as told. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  body: string
  headers: Record<string, string | string[] | undefined>
  event: { id: string; type: string; sequence: number; object_id: string | null; data: Record<string, unknown> }
}

export interface Receiver {
  url: string
  received: Received[]
  /** The status to answer the nth request (1-based) with; 200 by default. */
  answer: (n: number) => number
  close(): Promise<void>
}

export async function startReceiver(answer: (n: number) => number = () => 200): Promise<Receiver> {
  const r: Receiver = { url: '', received: [], answer, close: async () => {} }
  let n = 0
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const status = r.answer(++n)
      if (status >= 200 && status < 300) r.received.push({ body, headers: req.headers, event: JSON.parse(body) })
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  r.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return r
}

/** Wait until `check` holds, calling `poke` (a delivery round) between looks. */
export async function until(check: () => boolean, poke: () => Promise<unknown>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for deliveries')
    await poke()
    await new Promise((res) => setTimeout(res, 50))
  }
}

/**
 * `finctl serve --mcp`: the MCP server over Streamable HTTP at /mcp (the SDK's web-standard
 * transport, stateless: each POST is answered by a server of its own, so any serve process of a
 * database answers any request). The caller's API key is the bearer (401 without one, or with one
 * the service refuses); the tools' requests go to this process's app with it, as a command's would.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { Client, EMBEDDED_BASE_URL, type FetchLike } from '../client/client.js'
import { AppError } from '../kernel/errors.js'
import { finctlMcpServer, isAgentKey } from './server.js'

export const MCP_PATH = '/mcp'

/** A JSON-RPC message body read here at most: a CSV for propose_import fits. */
const MAX_MCP_BODY = 10 * 1024 * 1024

const refuse = (status: number, message: string, extra: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...extra },
  })

export function mcpHttpHandler(o: { fetch: FetchLike; files?: string }): (req: Request) => Promise<Response> {
  return async (req) => {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get('authorization') ?? '')?.[1]
    const challenge = { 'www-authenticate': 'Bearer realm="finctl", error="invalid_token"' }
    if (!bearer) return refuse(401, 'send an API key as a bearer: Authorization: Bearer fds_...', challenge)
    if (Number(req.headers.get('content-length') ?? '0') > MAX_MCP_BODY) return refuse(413, 'the message is larger than 10 MiB')
    let parsedBody: unknown
    if (req.method === 'POST') {
      const text = await boundedText(req, MAX_MCP_BODY)
      // The rest of the body is not read: the connection cannot carry another request.
      if (text === undefined) return refuse(413, 'the message is larger than 10 MiB', { connection: 'close' })
      try {
        parsedBody = JSON.parse(text)
      } catch {
        return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'the message is not JSON' }, id: null }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        })
      }
    }
    const client = new Client({ baseUrl: EMBEDDED_BASE_URL, fetch: o.fetch, apiKey: bearer, maxRetries: 0 })
    let agent: boolean
    try {
      agent = await isAgentKey(client)
    } catch (e) {
      if (e instanceof AppError && e.code === 'unauthorized') return refuse(401, e.message, challenge)
      throw e
    }
    const server = finctlMcpServer(client, { agent, files: o.files })
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    await server.connect(transport)
    try {
      return await transport.handleRequest(req, { parsedBody })
    } finally {
      await server.close()
    }
  }
}

/** The body as text, read up to `max` bytes whatever its Content-Length says (a chunked one too); undefined past it. */
async function boundedText(req: Request, max: number): Promise<string | undefined> {
  if (!req.body) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length
    if (size > max) {
      await req.body.cancel().catch(() => {})
      return undefined
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

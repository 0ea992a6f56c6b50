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
      return await transport.handleRequest(req)
    } finally {
      await server.close()
    }
  }
}

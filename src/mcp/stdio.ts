/**
 * `finctl mcp`: the MCP server on this process's stdin and stdout (newline-delimited JSON-RPC, the
 * SDK's transport, each message at most 10 MiB), until the client closes stdin. stdout carries the
 * protocol alone; anything for people goes to stderr.
 */
import type { Readable, Writable } from 'node:stream'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Client } from '../client/client.js'
import { finctlMcpServer, isAgentKey } from './server.js'

export interface StdioOptions {
  client: Client
  stdin: Readable
  stdout: Writable
  files?: string
  /** Said once the server listens: whether the write tools may propose (the key is an agent's). */
  ready?: (agent: boolean) => void
}

/** Serve until stdin ends. */
export async function serveStdio(o: StdioOptions): Promise<void> {
  const agent = await isAgentKey(o.client)
  const server = finctlMcpServer(o.client, { agent, files: o.files })
  const transport = new StdioServerTransport(o.stdin, o.stdout)
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve
    o.stdin.once('end', () => void server.close())
    o.stdin.once('close', () => void server.close())
  })
  await server.connect(transport)
  o.ready?.(agent)
  await closed
}

/**
 * finctl's MCP server (docs/agents.md), on the official TypeScript SDK: the read tools and the write
 * tools that only propose, over a client of the service like any command's. `finctl mcp` serves it
 * on stdio (stdio.ts), `finctl serve --mcp` over Streamable HTTP at /mcp (http.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Client } from '../client/client.js'
import { VERSION } from '../version.js'
import { DATA_NOTICE } from './answer.js'
import { registerReadTools } from './read-tools.js'
import { registerWriteTools, type WriteOptions } from './write-tools.js'

const INSTRUCTIONS = `finctl holds a company's books: bank accounts, transactions, reports, month-end closes, imports.
Read with the read tools; every write tool only proposes: it returns a pending proposal that a person approves or rejects (finctl approvals), and nothing changes before that. Give each proposal a reason.
${DATA_NOTICE}`

/** The server for one client of the service: each tool's requests go through it, marked with the tool's name. */
export function finctlMcpServer(client: Client, o: WriteOptions): McpServer {
  const server = new McpServer({ name: 'finctl', version: VERSION }, { instructions: INSTRUCTIONS })
  const clientFor = (tool: string, signal: AbortSignal) => client.with({ headers: { 'x-finctl-via': `mcp:${tool}` }, signal })
  registerReadTools(server, clientFor)
  registerWriteTools(server, clientFor, o)
  return server
}

/** Whether the client's credential is an agent's key (the write tools propose only with one). */
export async function isAgentKey(client: Client): Promise<boolean> {
  if (!client.hasApiKey) return false
  return (await client.keys.me()).agent === true
}

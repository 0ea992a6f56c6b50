/**
 * `finctl mcp` (docs/agents.md) as an MCP client starts it: the built CLI spawned by the SDK's stdio
 * client, on the embedded database and on a remote `finctl serve` (FINCTL_BASE_URL), with an agent's
 * key in FINCTL_API_KEY. The tools are listed with their hints, every read tool answers on seeded
 * rows, every write tool proposes and changes no row; `finctl approvals approve` refuses the agent's
 * key and applies a person's approval; `finctl verify` counts the entries; the request log names the tools.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, Sandbox, startServe, stopServeAndCleanup, type ServeProcess } from '../helpers/cli.js'
import { callEveryWriteTool, data, expectEveryReadTool, expectToolsWithHints, failed, SEED_ROWS, type Seeded } from '../helpers/mcp.js'

describe.each(['embedded', 'remote'] as const)('finctl mcp on stdio, on the %s target', (target) => {
  let sb: Sandbox
  let server: ServeProcess | undefined
  let agentKey: string
  let seeded: Seeded
  let mcp: { c: McpClient; stderr: () => string }

  /** `finctl mcp` spawned as an MCP client spawns it: embedded, or against the remote serve (FINCTL_BASE_URL). */
  async function connect(key: string) {
    const env = sb.env({ FINCTL_API_KEY: key, ...(server ? { FINCTL_BASE_URL: server.url } : {}) }) as Record<string, string>
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--files', sb.dir],
      env,
      cwd: sb.dir,
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
    const c = new McpClient({ name: 'e2e', version: '1' })
    await c.connect(transport)
    return { c, stderr: () => stderr }
  }

  beforeAll(async () => {
    sb = new Sandbox(`mcp-${target}`)
    await sb.ok(['init', '--email', 'owner@mcp.test', '--password-stdin', '--no-input'], { input: 'password-for-mcp\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
    await sb.json(['accounts', 'create', '--name', 'Operating', '--type', 'checking', '--currency', 'USD', '--json'])
    const ids: string[] = []
    for (const r of SEED_ROWS) {
      const extra = r.category ? ['--category', r.category] : []
      const args = ['--date', r.transaction_date, '--description', r.description, '--amount', r.amount, ...extra]
      ids.push((await sb.json(['tx', 'create', '--account', 'Operating', ...args, '--json'])).id)
    }
    seeded = { accountName: 'Operating', uberId: ids[0], acmeId: ids[1] }
    // The agent's key in a profile of its own: the CLI then acts with it alone (no login beside it).
    await sb.ok([
      'keys',
      'create',
      '--agent',
      '--name',
      'claude',
      '--scopes',
      'read,write,transactions',
      '--rate-limit-per-minute',
      '100000',
      '--save-profile',
      'agent',
    ])
    agentKey = sb.remember(sb.profiles().profiles.agent.api_key)
    writeFileSync(join(sb.dir, 'february.csv'), 'Date,Description,Amount\n2026-02-02,Stationery,-8.20\n')
    if (target === 'remote') server = await startServe(sb, sb.database)
    mcp = await connect(agentKey)
  })
  afterAll(async () => {
    await mcp?.c.close()
    await stopServeAndCleanup(server, sb)
  })

  it('says on stderr what it serves, and lists the tools with their hints', async () => {
    await expectToolsWithHints(mcp.c)
    expect(mcp.stderr()).toContain('the write tools propose, as this agent key')
  })

  it('answers every read tool on the seeded rows', async () => {
    await expectEveryReadTool(mcp.c, seeded)
  })

  it('proposes with every write tool and changes no row; the agent cannot approve, a person does', async () => {
    const before = await sb.json(['tx', 'list', '--all', '--json'])
    const proposed = await callEveryWriteTool(mcp.c, seeded)
    // A file under --files is read as csv_text is; a path outside it is refused.
    const fromFile = data<{ state: string }>(
      await mcp.c.callTool({
        name: 'propose_import',
        arguments: { account: 'Operating', path: 'february.csv', reason: 'the February file' },
      }),
    )
    expect(fromFile.state).toBe('pending')
    const outside = failed(
      await mcp.c.callTool({ name: 'propose_import', arguments: { account: 'Operating', path: '/etc/passwd', reason: 'no' } }),
    )
    expect(outside.code).toBe('forbidden')
    expect(await sb.json(['tx', 'list', '--all', '--json'])).toEqual(before)

    const id = proposed.propose_note.proposal_id
    const refused = await sb.run(['--profile', 'agent', 'approvals', 'approve', id])
    expect(refused.code, refused.stderr).toBe(4)
    expect(refused.stderr).toMatch(/agent's key never may approve/)
    const approved = await sb.run(['approvals', 'approve', id])
    expect(approved.code, approved.stderr).toBe(0)
    expect(approved.stderr + approved.stdout).toContain(`approved ${id}`)
    const tx = await sb.json(['tx', 'get', seeded.acmeId, '--json'])
    expect(tx.notes.map((n: { text: string }) => n.text)).toEqual(['Invoice 42 of ACME: the PDF is in the mail'])
    // The categorization and the import land once approved; verify counts their entries with the proposals.
    for (const p of [proposed.propose_categorize, proposed.propose_import])
      expect((await sb.run(['approvals', 'approve', p.proposal_id])).code).toBe(0)
    expect((await sb.json(['tx', 'get', seeded.uberId, '--json'])).category).toBe('Travel')
    const verified = await sb.json(['verify', '--json'])
    expect(verified).toMatchObject({ intact: true, transactions: 5 })
    expect(verified.proposals).toBe(5)
  })

  it('the request log names the tools that made its requests', async () => {
    const log = await sb.json(['api', 'GET', '/api-v1/logs?limit=500'])
    const via = new Set((log.data as Array<{ via: string | null }>).map((r) => r.via))
    for (const tool of ['search_transactions', 'report_summary', 'propose_note', 'propose_import']) expect(via).toContain(`mcp:${tool}`)
  })

  it("with a person's key, serves the read tools and refuses the write tools", async () => {
    const person = await connect(sb.profiles().profiles.local.api_key!)
    try {
      expect(person.stderr()).toContain('read tools only')
      expect(data(await person.c.callTool({ name: 'list_accounts', arguments: {} }))).toHaveProperty('accounts')
      const e = failed(
        await person.c.callTool({ name: 'propose_categorize', arguments: { transaction_id: seeded.acmeId, category: 'X', reason: 'y' } }),
      )
      expect(e.code).toBe('forbidden')
    } finally {
      await person.c.close()
    }
  })
})

/**
 * `finctl serve --mcp` (docs/agents.md) on both stores, driven by the SDK's Streamable HTTP client:
 * an API key is the bearer (401 without one, or with a bad one); the tools are listed with their
 * hints; every read tool answers on seeded data; every write tool proposes and changes nothing but
 * proposals and a review import's staging, table by table; the agent's key is refused on approve;
 * a person's approval applies each, and `verify` counts the entries; the request log names the tools.
 */
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { sql } from 'kysely'
import { Agent, fetch as undiciFetch } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { createHarness, type Harness, STORES, type Tenant } from '../helpers/harness.js'
import { callEveryWriteTool, data, expectEveryReadTool, expectToolsWithHints, failed, SEED_ROWS, type Seeded } from '../helpers/mcp.js'

/** What a write tool may change: the proposals and their trail, the request log, a review import's staging. */
const MAY_CHANGE = new Set([
  'proposals',
  'audit_entries',
  'audit_chain_heads',
  'events',
  'api_requests',
  'api_key_usage',
  'api_key_usage_periods',
  'api_keys',
  'rate_limit_counters',
  'import_batches',
  'import_pending_rows',
  'import_reviews',
  'import_review_files',
])

describe.each(STORES)('serve --mcp on %s', (storeKind) => {
  let h: Harness
  let t: Tenant
  let owner: Client
  let agentKey: string
  let mcp: McpClient
  let seeded: Seeded

  const connect = async (key: string) => {
    const c = new McpClient({ name: 'test', version: '1' })
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${h.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    )
    return c
  }

  /** Every table's rows, as text, to find which a call changed. */
  async function tables(): Promise<Map<string, string>> {
    const names =
      storeKind === 'sqlite'
        ? (
            await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
              h.store.db,
            )
          ).rows
        : (
            await sql<{
              name: string
            }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(h.store.db)
          ).rows
    const out = new Map<string, string>()
    for (const { name } of names) {
      const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(h.store.db)).rows
      out.set(name, JSON.stringify(rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).sort()))
    }
    return out
  }

  beforeAll(async () => {
    h = await createHarness('http', storeKind, { args: ['--mcp'] })
    t = await h.tenant('Mcp')
    owner = h.client({ token: t.token })
    agentKey = (
      await owner.keys.create({
        name: 'claude',
        scopes: ['read', 'write', 'transactions'],
        agent: true,
        rate_limit_per_minute: 100_000,
        rate_limit_per_day: 1_000_000,
      })
    ).key
    const [uber, acme] = await Promise.all(SEED_ROWS.map((r) => owner.transactions.create({ bank_account_id: t.accountId, ...r })))
    seeded = { accountName: 'Operating', uberId: uber.id, acmeId: acme.id }
    mcp = await connect(agentKey)
  })
  afterAll(async () => {
    await mcp?.close()
    await h?.close()
  })

  it('answers 401 without a bearer, or with a key the service refuses', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    const none = await fetch(`${h.baseUrl}/mcp`, { method: 'POST', headers, body })
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/)
    const bad = await fetch(`${h.baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer fds_notAKeyAtAll000000000000000000000000000000' },
      body,
    })
    expect(bad.status).toBe(401)
  })

  it('refuses a message over 10 MiB (413), whatever its Content-Length says', async () => {
    const huge = new ReadableStream<Uint8Array>({
      start(ctl) {
        const chunk = new Uint8Array(1024 * 1024).fill(0x20)
        for (let i = 0; i < 11; i++) ctl.enqueue(chunk)
        ctl.close()
      },
    })
    // A connection of its own: the server closes it after the 413, the MCP client's stay as they are.
    const dispatcher = new Agent()
    try {
      const res = await undiciFetch(`${h.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${agentKey}` },
        body: huge,
        duplex: 'half',
        dispatcher,
      })
      expect(res.status).toBe(413)
    } finally {
      await dispatcher.close()
    }
  })

  it('lists every tool with its hints', async () => {
    await expectToolsWithHints(mcp)
  })

  it('answers every read tool on the seeded rows', async () => {
    await expectEveryReadTool(mcp, seeded)
  })

  it("every write tool proposes; only the proposals (and a review import's staging) change", async () => {
    const before = await tables()
    const proposed = await callEveryWriteTool(mcp, seeded)
    const after = await tables()
    const changed = [...after.keys()].filter((name) => before.get(name) !== after.get(name))
    expect(changed).toContain('proposals')
    expect(changed.filter((name) => !MAY_CHANGE.has(name))).toEqual([])
    expect((await owner.transactions.get(seeded.uberId)).category).toBeNull()
    for (const p of Object.values(proposed)) expect((await owner.approvals.get(p.proposal_id)).state).toBe('pending')

    // The agent's key never decides, over HTTP with it either.
    const id = proposed.propose_categorize.proposal_id
    const refused = await h.raw('POST', `/api-v1/approvals/${id}/approve`, { headers: { 'x-api-key': agentKey } })
    expect(refused.status).toBe(403)

    // A person approves them: the books change, and verify counts every entry.
    for (const p of [proposed.propose_rule, proposed.propose_note, proposed.propose_import])
      expect((await owner.approvals.approve(p.proposal_id)).state).toBe('approved')
    expect((await owner.transactions.get(seeded.uberId)).category).toBe('Travel')
    // The rule changed the row the categorization was proposed on: that one is bound to it, and fails.
    const stale = await owner.approvals.approve(id).catch((e: Error) => e)
    expect(stale).toMatchObject({ code: 'conflict', message: expect.stringMatching(/changed since/) })
    expect((await owner.approvals.get(id)).state).toBe('failed')
    expect((await owner.transactions.get(seeded.acmeId)).notes.map((n) => n.text)).toEqual(['Invoice 42 of ACME: the PDF is in the mail'])
    const batch = (proposed.propose_import.effect.batch as { id: string }).id
    expect((await owner.transactions.list({ import_batch_id: batch })).data).toHaveLength(2)
    const v = (await owner.audit.verify()) as unknown as { intact: boolean; proposals: number; transactions: number }
    expect(v).toMatchObject({ intact: true, transactions: 5 })
    expect(v.proposals).toBeGreaterThanOrEqual(4)
  })

  it('writes nothing with a person’s key: its write tools refuse, saying why', async () => {
    const person = await connect(t.key)
    try {
      const e = failed(
        await person.callTool({ name: 'propose_note', arguments: { transaction_id: seeded.uberId, text: 'x', reason: 'y' } }),
      )
      expect(e).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/agent's key/) })
      expect((await owner.transactions.get(seeded.uberId)).notes).toEqual([])
      // Its read tools answer.
      expect(data(await person.callTool({ name: 'list_accounts', arguments: {} }))).toHaveProperty('accounts')
    } finally {
      await person.close()
    }
  })

  it('names each tool beside the requests it made, in the request log', async () => {
    const log = await owner.request<Array<{ via: string | null; path: string }>>('GET', '/api-v1/logs', { query: { limit: 500 } })
    const via = new Set(log.data.map((r) => r.via).filter(Boolean))
    for (const tool of ['search_transactions', 'get_transaction', 'propose_categorize', 'propose_import'])
      expect(via).toContain(`mcp:${tool}`)
  })
})

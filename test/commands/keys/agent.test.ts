/**
 * An agent's key from the command line (docs/agents.md), in process: `keys create --agent` and the
 * list's agent column; the agent's `tx update`, `rules create` and `imports apply` print a proposal
 * and exit 15, changing nothing; `approvals list` names the agent; `approvals approve` with its key
 * is refused (exit 4) and a person's applies it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tsv } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe("an agent's key, in process", () => {
  let sb: InProcessSandbox
  let txId: string
  const agent = (args: string[]) => sb.run(['--profile', 'agent', ...args])

  beforeAll(async () => {
    sb = new InProcessSandbox('agent-key')
    await sb.ok(['init', '--email', 'owner@agent.test', '--password-stdin', '--no-input'], { input: 'password-for-agents\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
    await sb.ok(['accounts', 'create', '--name', 'Operating', '--type', 'checking', '--currency', 'USD'])
    txId = (
      await sb.json([
        'tx',
        'create',
        '--account',
        'Operating',
        '--date',
        '2026-01-10',
        '--description',
        'UBER TRIP',
        '--amount',
        '-25.40',
        '--json',
      ])
    ).id
    const made = await sb.run([
      'keys',
      'create',
      '--agent',
      '--name',
      'claude',
      '--scopes',
      'read,write,transactions',
      '--save-profile',
      'agent',
    ])
    expect(made.code, made.stderr).toBe(0)
    sb.remember(sb.profiles().profiles.agent.api_key)
  })
  afterAll(() => sb?.cleanup())

  it('keys list shows which key is an agent’s, in the table and in --json', async () => {
    const rows = tsv((await sb.ok(['keys', 'list'])).stdout)
    const at = rows[0].indexOf('AGENT')
    expect(at).toBeGreaterThan(0)
    expect(rows.find((r) => r[1] === 'claude')?.[at]).toBe('agent')
    expect(rows.find((r) => r[1] === 'finctl CLI')?.[at]).toBe('')
    const keys = await sb.json(['keys', 'list', '--json'])
    expect(keys.find((k: { name: string }) => k.name === 'claude').agent).toBe(true)
  })

  it('the agent’s tx update, rules create and tx delete are proposals (exit 15); nothing changes', async () => {
    const update = await agent(['tx', 'update', txId, '--category', 'Travel'])
    expect(update.code, update.stderr).toBe(15)
    expect(update.stderr).toMatch(/proposal \S+ waits for approval \(agent categorize transaction/)
    const rule = await agent(['rules', 'create', '--description-contains', 'uber', '--set', 'category=Travel'])
    expect(rule.code, rule.stderr).toBe(15)
    expect((await sb.json(['tx', 'get', txId, '--json'])).category).toBeNull()
    expect(await sb.json(['rules', 'list', '--json'])).toEqual([])
    // Any other write is proposed as the request it is.
    const del = await agent(['tx', 'delete', txId, '--yes'])
    expect(del.code, del.stderr).toBe(15)
    expect(del.stderr).toMatch(/proposal \S+ waits for approval \(agent DELETE \/api-v1\/transactions\//)
    expect((await sb.json(['tx', 'get', txId, '--json'])).id).toBe(txId)
    // For a script, the proposal is the data on stdout.
    const scripted = await agent(['accounts', 'create', '--name', 'Shadow', '--type', 'checking', '--currency', 'USD', '--json'])
    expect(scripted.code, scripted.stderr).toBe(15)
    expect(JSON.parse(scripted.stdout)).toMatchObject({ kind: 'agent', state: 'pending', target: 'POST /api-v1/bank-accounts' })
  })

  it('approvals list names the agent; its own approve is refused (exit 4); the owner’s applies it', async () => {
    const list = tsv((await sb.ok(['approvals', 'list'])).stdout)
    const by = list[0].indexOf('PROPOSED BY')
    expect(list.slice(1).map((r) => r[by])).toEqual(Array(4).fill('owner@agent.test (agent claude)'))
    // Newest first: the account, the deletion, the rule, then the categorization.
    const [, , , , first] = list
    const id = first[0]
    const refused = await agent(['approvals', 'approve', id])
    expect(refused.code).toBe(4)
    expect(refused.stderr).toMatch(/agent's key never may approve/)
    const shown = await sb.ok(['approvals', 'show', id])
    expect(shown.stdout).toContain("the agent's reason: (none given)")
    // No proposing person: the agent is named as the proposer, and no "user:null" beside it.
    expect(shown.stdout).toMatch(/proposed_by\towner@agent\.test \(agent claude\)/)
    expect(shown.stdout).not.toContain('null')
    await sb.ok(['approvals', 'approve', id])
    expect((await sb.json(['approvals', 'list', '--state', 'approved', '--json'])).map((p: { id: string }) => p.id)).toEqual([id])
  })

  it('serve --mcp-files without --mcp is a usage error (exit 2), naming both', async () => {
    const r = await sb.run(['serve', '--mcp-files', sb.dir])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--mcp-files goes with --mcp')
  })
})

/**
 * End-to-end (#52 item 3): --json FIELDS, --jq and --template through the built CLI, as gh has them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox } from '../helpers/cli.js'

describe('--json FIELDS, --jq, --template', () => {
  const sb = new Sandbox('json-shape')
  let all: Array<{ id: string; amount: number; description: string }> = []

  beforeAll(async () => {
    await sb.ok(['init', '--demo', '--no-input'])
    all = await sb.json(['tx', 'list', '--all', '--json'])
  }, 60_000)
  afterAll(() => sb.cleanup())

  it('--json alone prints what --output json prints; with fields, only those', async () => {
    const bare = await sb.ok(['tx', 'list', '--json'])
    expect(bare.stdout).toBe((await sb.ok(['tx', 'list', '--output', 'json'])).stdout)
    expect((await sb.ok(['--json', 'tx', 'list'])).stdout).toBe(bare.stdout)
    const some = await sb.json<object[]>(['tx', 'list', '--json', 'amount,id'])
    expect(some).toEqual(all.map((t) => ({ amount: t.amount, id: t.id })))
    expect(Object.keys(some[0])).toEqual(['amount', 'id'])
    // Streamed pages (--all) are cut too; one record (tx get) as well, --json before or after its id.
    expect(await sb.json(['tx', 'list', '--all', '--json=id'])).toEqual(all.map((t) => ({ id: t.id })))
    expect(await sb.json(['tx', 'get', all[0].id, '--json', 'description'])).toEqual({ description: all[0].description })
    expect((await sb.json(['tx', 'get', '--json', all[0].id])).id).toBe(all[0].id)
  })

  it('an unknown field: exit 2 listing the valid ones, nothing on stdout', async () => {
    const r = await sb.run(['tx', 'list', '--json', 'id,amout'])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error: --json: unknown field "amout"; the fields are:\n {2}id\n {2}transaction_date\n/)
    expect(r.stderr).toContain('\n  amount\n')
  })

  it('--jq filters with jq itself, strings raw; a bad filter is exit 2', async () => {
    const r = await sb.ok(['tx', 'list', '--all', '--jq', '.[] | select(.amount < 0) | .description'])
    expect(r.stdout).toBe(
      all
        .filter((t) => t.amount < 0)
        .map((t) => `${t.description}\n`)
        .join(''),
    )
    expect((await sb.ok(['reports', 'summary', '--json', 'transaction_count', '--jq', '.transaction_count'])).stdout).toBe(
      `${all.length}\n`,
    )
    expect((await sb.ok(['api', 'GET', '/api-v1/transactions', '--jq', '.data | length'])).stdout).toBe(`${Math.min(all.length, 50)}\n`)
    const bad = await sb.run(['tx', 'list', '--jq', '.[0'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^error: --jq: jq: error: syntax error/)
  }, 60_000)

  it('--template formats the JSON: range, fields, functions', async () => {
    const r = await sb.ok(['tx', 'list', '--template', '{{range .}}{{.id}} {{.description | upper}}{{"\\n"}}{{end}}'])
    expect(r.stdout).toBe(all.map((t) => `${t.id} ${t.description.toUpperCase()}\n`).join(''))
    const bad = await sb.run(['tx', 'list', '--template', '{{range .}}'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('error: --template: {{range}} without {{end}}\n')
    expect((await sb.run(['tx', 'list', '--jq', '.', '--template', 'x'])).code).toBe(2)
  })
})

/**
 * End-to-end: --json FIELDS, --jq and --template through the built CLI, as gh has them.
 * A filter that never ends is stopped by SIGTERM (143) or Ctrl-C (130) at once.
 */
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, Sandbox } from '../helpers/cli.js'

describe('--json FIELDS, --jq, --template', () => {
  const sb = new Sandbox('json-shape')
  let all: Array<{ id: string; amount: number; description: string }> = []

  beforeAll(async () => {
    await sb.ok(['init', '--demo', '--no-input'])
    all = await sb.json(['tx', 'list', '--all', '--json'])
  }, 120_000)
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
  }, 120_000)

  it('--template formats the JSON: range, fields, functions', async () => {
    const r = await sb.ok(['tx', 'list', '--template', '{{range .}}{{.id}} {{.description | upper}}{{"\\n"}}{{end}}'])
    expect(r.stdout).toBe(all.map((t) => `${t.id} ${t.description.toUpperCase()}\n`).join(''))
    const bad = await sb.run(['tx', 'list', '--template', '{{range .}}'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('error: --template: {{range}} without {{end}}\n')
    expect((await sb.run(['tx', 'list', '--jq', '.', '--template', 'x'])).code).toBe(2)
  })

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    '%s ends a filter that never ends at once: exit %i, saying so',
    async (signal, exit) => {
      // Its own limit far away: a signal that only took effect when the filter stopped would never end it.
      const child = spawn(process.execPath, [BIN, 'tx', 'list', '--verbose', '--jq', 'def f: f; f', '--jq-timeout', '3600'], {
        cwd: sb.dir,
        env: sb.env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
        child.once('exit', (code, sig) => res({ code, signal: sig })),
      )
      // The request is answered (--verbose says so), then the filter runs.
      for (const deadline = Date.now() + 60_000; !stderr.includes('-> 200'); ) {
        if (Date.now() > deadline) throw new Error(`no request within 60 s:\n${stderr}`)
        await new Promise((r) => setTimeout(r, 20))
      }
      await new Promise((r) => setTimeout(r, 500))
      child.kill(signal)
      // A filter that kept running past the signal would be killed here, and fail the exit below.
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000)
      const end = await exited
      clearTimeout(killer)
      expect(end).toEqual({ code: exit, signal: null })
      expect(stderr).toContain(`error: --jq: the filter was stopped by ${signal}\n`)
    },
    90_000,
  )
})

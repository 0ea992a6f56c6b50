/**
 * End-to-end: finctl's output read through a real pipe whose reader goes away early, as in
 * `finctl tx list --all --output csv | head -1`. finctl stops quietly (exit 0, nothing on stderr
 * but what --verbose asked for) and stops its work: the rest of a paginated fetch is not requested.
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, Sandbox, startServe, stopServeAndCleanup, type ServeProcess } from '../helpers/cli.js'

const ROWS = 5000
const PAGE = 100

interface Closed {
  code: number | null
  signal: NodeJS.Signals | null
  firstLine: string
  stderr: string
  /** Requests the client sent, from --verbose. */
  requests: number
}

/** Run finctl with stdout on a pipe, read its first line, then close the pipe's reading end. */
function runAndCloseEarly(sb: Sandbox, args: string[]): Promise<Closed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: sb.dir, env: sb.env(), stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let stderr = ''
    let firstLine: string | undefined
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (firstLine !== undefined) return
      out += d
      const nl = out.indexOf('\n')
      if (nl < 0) return
      firstLine = out.slice(0, nl)
      child.stdout.destroy() // `head -1` has its line and exits
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`finctl ${args.join(' ')} did not stop after its reader went away:\n${stderr}`))
    }, 30_000)
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      const requests = stderr.split('\n').filter((l) => /^GET \S+ -> \d{3}/.test(l)).length
      resolve({ code, signal, firstLine: firstLine ?? '', stderr, requests })
    })
  })
}

function expectQuietStop(r: Closed, what: string): void {
  expect(r.signal, what).toBeNull()
  expect(r.code, `${what}:\n${r.stderr}`).toBe(0)
  expect(r.stderr, what).not.toMatch(/EPIPE|Unhandled|error:|\n\s+at /)
}

describe('a closed pipe', () => {
  const sb = new Sandbox('closed-pipe')
  let server: ServeProcess | undefined

  beforeAll(async () => {
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    const account = (await sb.json(['accounts', 'create', '--name', 'Pipe', '--type', 'checking', '--currency', 'USD', '--json']))
      .id as string
    const lines = ['Date,Description,Amount']
    for (let i = 0; i < ROWS; i++)
      lines.push(
        `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')},Row number ${i} with a longer description,-${1 + (i % 97)}.${String(i % 100).padStart(2, '0')}`,
      )
    const csv = join(sb.dir, 'rows.csv')
    writeFileSync(csv, `${lines.join('\n')}\n`)
    await sb.ok(['tx', 'import', csv, '--account', account, '--no-progress'], { timeoutMs: 120_000 })
    server = await startServe(sb, sb.database)
    const key = sb.profiles().profiles.local.api_key!
    await sb.ok(['profile', 'add', 'remote', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
  }, 360_000)

  afterAll(() => stopServeAndCleanup(server, sb))

  const pages = ROWS / PAGE
  const paged: Array<[string, string[]]> = [
    ['tx list --all --output csv', ['tx', 'list', '--all', '--limit', String(PAGE), '--output', 'csv']],
    ['tx list --all --json', ['tx', 'list', '--all', '--limit', String(PAGE), '--json']],
    ['tx list --all --output ndjson', ['tx', 'list', '--all', '--limit', String(PAGE), '--output', 'ndjson']],
    ['tx list --all (table, into a pipe)', ['tx', 'list', '--all', '--limit', String(PAGE)]],
    ['api --paginate', ['api', 'GET', `/api-v1/transactions?limit=${PAGE}`, '--paginate']],
    ['api --paginate --output ndjson', ['api', 'GET', `/api-v1/transactions?limit=${PAGE}`, '--paginate', '--output', 'ndjson']],
  ]
  for (const target of ['embedded', 'remote'] as const) {
    for (const [name, args] of paged) {
      it(`${name} on the ${target} target stops quietly and fetches no further page`, async () => {
        const r = await runAndCloseEarly(sb, [...(target === 'remote' ? ['--profile', 'remote'] : []), '--verbose', ...args])
        expectQuietStop(r, name)
        expect(r.firstLine.length).toBeGreaterThan(0)
        // A page or a few went into the pipe's buffer before the reader left; not all of them.
        expect(r.requests, r.stderr).toBeGreaterThan(0)
        expect(r.requests, r.stderr).toBeLessThan(pages / 2)
      })
    }
  }

  for (const target of ['embedded', 'remote'] as const)
    for (const format of ['csv', 'hledger'])
      it(`export --format ${format} on the ${target} target stops quietly`, async () => {
        const args = [
          ...(target === 'remote' ? ['--profile', 'remote'] : []),
          'export',
          '--format',
          format,
          '--from',
          '2026-01-01',
          '--to',
          '2026-12-31',
        ]
        const r = await runAndCloseEarly(sb, args)
        expectQuietStop(r, args.join(' '))
        expect(r.firstLine.length).toBeGreaterThan(0)
        expect(r.stderr).not.toContain('exported')
      })

  for (const args of [
    ['keys', 'usage'],
    ['accounts', 'list', '--output', 'csv'],
    ['tx', 'list', '--limit', '500', '--json'],
    ['reports', 'summary'],
  ]) {
    it(`finctl ${args.join(' ')} stops quietly`, async () => {
      expectQuietStop(await runAndCloseEarly(sb, args), args.join(' '))
    })
  }
})

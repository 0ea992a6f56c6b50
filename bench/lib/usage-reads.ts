/**
 * Usage reads beside a plain read, same run: p50 of GET /api-keys/me and /api-keys/me/usage vs
 * GET /api-v1/company, one connection, the three interleaved round by round; with two processes on
 * one database each round goes to the next process, and a POST on the other one comes first, so
 * that the read has another process's answered request to count.
 */
import { Agent, request } from 'node:http'
import type { ServerProcess } from './children.js'
import { startFinctl, type FinctlSetup } from './throughput.js'
import { makeFigure, type Figure } from './report.js'

const PATHS = { me: '/api-keys/me', usage: '/api-keys/me/usage', company: '/api-v1/company' } as const

/** Target: each usage read's p50 within 1.5x the company read's. */
export const USAGE_READ_TARGET = { kind: 'max' as const, ratio: 1.5 }

function timed(agent: Agent, url: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ ms: number; status: number; text: string }>((resolve, reject) => {
    const t0 = performance.now()
    const req = request(new URL(path, url), { method, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

export interface UsageReadsResult {
  figures: Figure[]
  /** p50 in ms of each read. */
  p50: Record<keyof typeof PATHS, number>
}

/**
 * `rounds` rounds against `servers` (one, or several on one database). Checks on the way that each
 * usage read counts every request of the key answered before it (on any of the servers).
 */
export async function measureUsageReads(
  servers: ServerProcess[],
  apiKey: string,
  accountId: string,
  rounds: number,
  id: string,
  label: string,
): Promise<UsageReadsResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const headers = { 'x-api-key': apiKey }
  const ms: Record<keyof typeof PATHS, number[]> = { me: [], usage: [], company: [] }
  let records = 0
  const body = JSON.stringify({ bank_account_id: accountId, transaction_date: '2026-01-02', description: 'usage read', amount: '-1.00' })
  try {
    const first = await timed(agent, servers[0].url, 'GET', PATHS.usage, headers)
    records = (JSON.parse(first.text) as { data: { total_requests: number } }).data.total_requests
    let expected = records + 1
    const order = Object.keys(PATHS) as Array<keyof typeof PATHS>
    for (let r = 0; r < rounds; r++) {
      const server = servers[r % servers.length]
      if (servers.length > 1) {
        const other = servers[(r + 1) % servers.length]
        await timed(agent, other.url, 'POST', '/api-v1/transactions', { ...headers, 'content-type': 'application/json' }, body)
        expected++
      }
      for (let i = 0; i < order.length; i++) {
        const which = order[(r + i) % order.length]
        const res = await timed(agent, server.url, 'GET', PATHS[which], headers)
        if (res.status !== 200) throw new Error(`${server.name} GET ${PATHS[which]}: ${res.status} ${res.text.slice(0, 200)}`)
        if (which === 'usage') {
          const got = (JSON.parse(res.text) as { data: { total_requests: number } }).data.total_requests
          if (got !== expected) throw new Error(`${server.name} ${PATHS.usage}: ${got} requests counted, ${expected} answered before it`)
        }
        if (r > 0 || servers.length === 1) ms[which].push(res.ms)
        expected++
      }
    }
  } finally {
    agent.destroy()
  }
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const figure = (which: 'me' | 'usage') =>
    makeFigure({
      id: `${id}.${which}`,
      label: `GET ${PATHS[which]} p50, ${label}`,
      unit: 'ms',
      spread: 'p10-p90',
      value: ms[which],
      baselineLabel: `GET ${PATHS.company}`,
      baseline: ms.company,
      target: USAGE_READ_TARGET,
      // /me/usage aggregates every record of the key: its time grows with them.
      notes: [`the key had ${records} usage records at the start`],
    })
  return { figures: [figure('me'), figure('usage')], p50: { me: p50(ms.me), usage: p50(ms.usage), company: p50(ms.company) } }
}

/** On SQLite: `finctl` alone, then with a second process on the same file. */
export async function usageReadsOnSqlite(root: string, finctl: ServerProcess, setup: FinctlSetup, rounds: number) {
  const one = await measureUsageReads([finctl], setup.apiKey, setup.accountId, rounds, 'serve.usage1', '1 process')
  const second = await startFinctl(root, setup)
  try {
    const two = await measureUsageReads([finctl, second], setup.apiKey, setup.accountId, rounds, 'serve.usage2', '2 processes')
    return { figures: [...one.figures, ...two.figures], p50: { sqlite1: one.p50, sqlite2: two.p50 } }
  } finally {
    await second.stop()
  }
}

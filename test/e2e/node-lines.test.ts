/**
 * End-to-end: finctl on the Node.js line that runs this suite (CI runs test/e2e on 22, 24 and 26),
 * and refused cleanly on a Node.js it does not support.
 *
 * The round trip uses what loads native code or threads: init --demo, tx list, tx import (read, mapped
 * and sent from a worker thread), statements upload, serve with a remote profile, seed. Every spawned
 * finctl must exit by itself: not by a signal, and without a native "Assertion failed".
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  BIN,
  ROOT,
  Sandbox,
  cleanEnv,
  runFinctl,
  startServe,
  stopServeAndCleanup,
  type CliResult,
  type ServeProcess,
} from '../helpers/cli.js'

/** Exit code of bin/finctl.cjs on an unsupported Node.js (EXIT.unsupportedNode). */
const UNSUPPORTED_NODE = 9

function exitedCleanly(r: CliResult, what: string): void {
  expect(r.signal, `${what} ended by a signal:\n${r.stderr}`).toBeNull()
  expect(r.stderr, what).not.toContain('Assertion failed')
}

describe(`finctl on Node.js ${process.versions.node}`, () => {
  let sb: Sandbox
  let server: ServeProcess | undefined
  let accountId: string

  const step = async (args: string[], input?: string): Promise<CliResult> => {
    const r = await sb.run(args, { input, timeoutMs: 60_000 })
    exitedCleanly(r, `finctl ${args.join(' ')}`)
    expect(r.code, `finctl ${args.join(' ')}:\n${r.stderr}`).toBe(0)
    return r
  }

  beforeAll(() => {
    sb = new Sandbox('node-lines')
  })
  afterAll(() => stopServeAndCleanup(server, sb))

  it('--version prints the version of package.json, which the bundle knows as VERSION too', async () => {
    const { VERSION } = await import('../../src/version.js')
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
    expect(VERSION).toBe(pkg.version)
    for (const flag of ['--version', '-V']) expect((await step([flag])).stdout).toBe(`${pkg.version}\n`)
  })

  it('init --demo, then tx list prints the demo rows', async () => {
    await step(['init', '--demo', '--no-input', '--currency', 'USD'])
    const rows = JSON.parse((await step(['tx', 'list', '--limit', '5', '--json'])).stdout) as unknown[]
    expect(rows).toHaveLength(5)
  })

  it('tx import sends a CSV from its worker thread', async () => {
    accountId = JSON.parse(
      (await step(['accounts', 'create', '--name', 'Lines', '--type', 'checking', '--currency', 'USD', '--json'])).stdout,
    ).id
    const csv = join(sb.dir, 'export.csv')
    writeFileSync(csv, 'Date,Description,Amount\n2026-03-02,Coffee,-4.50\n2026-03-03,Refund,12.00\n2026-03-04,Rent,-1200.00\n')
    const summary = JSON.parse((await step(['tx', 'import', csv, '--account', accountId, '--json'])).stdout)
    expect(summary).toMatchObject({ created: 3, rejected: 0 })
  })

  it('statements upload parses a statement file', async () => {
    const qif = join(sb.dir, 'march.qif')
    writeFileSync(qif, '!Type:Bank\nD03/14/2026\nT-20.00\nPBakery\n^\nD03/15/2026\nT150.00\nPClient payment\n^\n')
    const statement = JSON.parse((await step(['statements', 'upload', qif, '--account', accountId, '--json'])).stdout)
    expect(statement).toMatchObject({ status: 'completed' })
  })

  it('serve answers a remote profile', async () => {
    server = await startServe(sb, sb.database)
    const key = sb.profiles().profiles.local.api_key!
    await step(['profile', 'add', 'remote', '--base-url', server.url, '--api-key-stdin'], `${key}\n`)
    const rows = JSON.parse((await step(['--profile', 'remote', 'tx', 'list', '--account', accountId, '--json'])).stdout) as Array<{
      description: string
    }>
    expect(rows.map((r) => r.description).sort()).toEqual(['Bakery', 'Client payment', 'Coffee', 'Refund', 'Rent'])
  })

  it('seed runs the shipped example', async () => {
    for (const f of ['seed.json', 'seed-transactions.csv', 'seed-statement.csv']) copyFileSync(join(ROOT, 'examples', f), join(sb.dir, f))
    const r = await sb.run(['seed', join(sb.dir, 'seed.json'), '--output', 'json'], { env: { COMPANY_CURRENCY: 'USD' }, timeoutMs: 60_000 })
    exitedCleanly(r, 'finctl seed')
    // The example creates an API key, which needs the login token `init` saved.
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as { steps: Array<{ status: string }> }
    expect(report.steps.length).toBeGreaterThan(3)
    expect(report.steps.every((s) => s.status === 'created')).toBe(true)
  })
})

/**
 * A Node.js older than 22 to try finctl with: FINCTL_TEST_OLD_NODE, else the first `node` on PATH
 * (outside node_modules, whose `node` is the project's own 26) that is older than 22.
 */
function findOldNode(): { path: string; version: string } | undefined {
  const candidates = process.env.FINCTL_TEST_OLD_NODE
    ? [process.env.FINCTL_TEST_OLD_NODE]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter((d) => d && !d.includes('node_modules'))
        .map((d) => join(d, 'node'))
        .filter((p) => existsSync(p))
  for (const path of candidates) {
    try {
      const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim()
      if (Number(version.split('.')[0]) < 22) return { path, version }
    } catch {
      // not a node that runs
    }
  }
  return undefined
}

const old = findOldNode()
if (!old && process.env.CI === 'true')
  throw new Error('no Node.js older than 22 found for the unsupported-Node test: set FINCTL_TEST_OLD_NODE')
if (!old) process.stderr.write('unsupported-Node test skipped: no Node.js older than 22 on PATH (set FINCTL_TEST_OLD_NODE to one)\n')

describe.skipIf(!old)(`finctl on an unsupported Node.js (${old?.version ?? 'none found'})`, () => {
  const sb = new Sandbox('old-node')
  afterAll(() => sb.cleanup())

  for (const args of [['--version'], ['init', '--demo', '--no-input'], ['tx', 'list'], ['serve', '--port', '0']]) {
    it(`finctl ${args.join(' ')} prints one line naming the version and the lines, and exits ${UNSUPPORTED_NODE}`, () => {
      let status: number | null = null
      let stderr = ''
      let stdout = ''
      try {
        stdout = execFileSync(old!.path, [BIN, ...args], {
          cwd: sb.dir,
          env: sb.env(),
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 20_000,
        })
        status = 0
      } catch (err) {
        const e = err as { status: number | null; signal: string | null; stderr: string; stdout: string }
        expect(e.signal).toBeNull()
        status = e.status
        stderr = e.stderr
        stdout = e.stdout
      }
      expect(status).toBe(UNSUPPORTED_NODE)
      expect(stdout).toBe('')
      expect(stderr.split('\n').filter(Boolean)).toHaveLength(1)
      expect(stderr).toContain(`this is Node.js ${old!.version}`)
      expect(stderr).toMatch(/Node\.js 22 .*24 .*26/)
      expect(stderr).toContain('nvm install 26')
      // nothing ran: no database, no profile
      expect(existsSync(sb.configDir)).toBe(false)
    })
  }

  it('the exit code is the one `finctl help exit-codes` documents', async () => {
    const r = await runFinctl(['help', 'exit-codes'], cleanEnv({ FINCTL_CONFIG_DIR: sb.configDir }), { cwd: sb.dir })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^  ${UNSUPPORTED_NODE} +this Node\\.js is not a supported line`, 'm'))
  })
})

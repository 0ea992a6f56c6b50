/**
 * The cost of webhooks on a large import: `finctl tx import` of a generated CSV into a
 * `finctl serve` (SQLite), with and without a webhook endpoint subscribed to transactions.imported
 * (a receiver on loopback answering 200), in interleaved pairs (A B, B A, ...), each into a fresh
 * database. Prints each run, the medians and their ratio, and how long after the import's end the
 * last delivery arrived. Usage: npx tsx bench/webhook-import.ts [--rows 100000] [--pairs 3] [--cpu-prof DIR]
 */
import { spawn, spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { cleanupNow, makeTempDir } from './lib/children.js'
import { writeCsv } from './lib/import.js'
import { prepareFinctl, startFinctl } from './lib/throughput.js'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const rows = arg('rows', 100_000)
// --cpu-prof DIR: each finctl serve writes its CPU profile there (where the deliverer's time goes).
const profDir = process.argv.includes('--cpu-prof') ? process.argv[process.argv.indexOf('--cpu-prof') + 1] : undefined
const pairs = arg('pairs', 3)
const root = resolve(import.meta.dirname, '..')
const bin = join(root, 'bin', 'finctl.cjs')
const log = (l: string) => process.stderr.write(`${l}\n`)

function run(env: NodeJS.ProcessEnv, cwd: string, args: string[]): string {
  const r = spawnSync(process.execPath, [bin, ...args], { env, cwd, encoding: 'utf8', timeout: 60_000 })
  if (r.status !== 0) throw new Error(`finctl ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}

function importAsync(env: NodeJS.ProcessEnv, cwd: string, file: string, account: string): Promise<number> {
  const t0 = performance.now()
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [bin, 'tx', 'import', file, '--account', account, '--json', '--no-progress'], { env, cwd })
    let err = ''
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.stdout.resume()
    child.once('exit', (code) =>
      code === 0 ? res((performance.now() - t0) / 1000) : rej(new Error(`tx import exited ${code}: ${err.slice(-2000)}`)),
    )
  })
}

async function once(withHook: boolean, file: string): Promise<{ seconds: number; lastDeliveryAfter?: number; deliveries?: number }> {
  const setup = prepareFinctl(root, () => {})
  let deliveries = 0
  let last = 0
  const receiver = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      deliveries++
      last = performance.now()
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  try {
    if (withHook) {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
      run(setup.env, setup.configDir, ['webhooks', 'create', '--url', url, '--events', 'transactions.imported', '--json'])
    }
    // The receiver is on loopback, which finctl serve refuses unless told otherwise.
    const served = { ...setup, env: { ...setup.env, FINCTL_WEBHOOK_ALLOW_PRIVATE: '1' } }
    const server = await startFinctl(root, served, profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [])
    try {
      const env = { ...setup.env, FINCTL_BASE_URL: server.url, FINCTL_API_KEY: setup.apiKey }
      const seconds = await importAsync(env, setup.configDir, file, setup.accountId)
      const ended = performance.now()
      if (!withHook) return { seconds }
      const batches = Math.ceil(rows / 1000)
      const deadline = Date.now() + 60_000
      while (deliveries < batches && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      return { seconds, deliveries, lastDeliveryAfter: Math.max(0, (last - ended) / 1000) }
    } finally {
      await server.stop()
    }
  } finally {
    receiver.close()
  }
}

const median = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b)
  const m = Math.floor(v.length / 2)
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2
}

async function main(): Promise<void> {
  const dir = makeTempDir('webhook-import')
  const file = join(dir, `rows-${rows}.csv`)
  writeCsv(file, rows)
  const times: Record<'without' | 'with', number[]> = { without: [], with: [] }
  for (let p = 0; p < pairs; p++) {
    const order: Array<'without' | 'with'> = p % 2 === 0 ? ['without', 'with'] : ['with', 'without']
    for (const v of order) {
      const r = await once(v === 'with', file)
      times[v].push(r.seconds)
      log(
        `pair ${p + 1} ${v.padEnd(7)} ${r.seconds.toFixed(2)} s${r.deliveries !== undefined ? `, ${r.deliveries} deliveries, the last ${r.lastDeliveryAfter?.toFixed(2)} s after the import ended` : ''}`,
      )
    }
  }
  const a = median(times.without)
  const b = median(times.with)
  log(`median without ${a.toFixed(2)} s, with ${b.toFixed(2)} s: ${(((b - a) / a) * 100).toFixed(1)}%`)
  // Each pair ran back to back, so its own ratio cancels most of the machine's drift.
  const ratios = times.with.map((w, i) => w / times.without[i])
  log(`pair ratios ${ratios.map((r) => r.toFixed(3)).join(', ')}; median ${median(ratios).toFixed(3)}`)
}

main()
  .catch((e) => {
    log(String(e?.stack ?? e))
    process.exitCode = 1
  })
  .finally(() => cleanupNow())

/**
 * Section `revert`: `finctl imports revert BATCH --yes` of a batch of N rows beside the `finctl tx
 * import` that made it, same database, same run, embedded; then the same file imported again, which
 * must create all N rows again (the revert released their keys). Each round in a fresh database.
 */
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { makeTempDir } from './children.js'
import { writeCsv } from './import.js'
import { makeFigure, type Figure } from './report.js'
import { prepareFinctl } from './throughput.js'

export interface RevertConfig {
  sizes: number[]
  rounds: number
}

function timed(root: string, env: NodeJS.ProcessEnv, cwd: string, args: string[]): { seconds: number; out: Record<string, unknown> } {
  const t0 = performance.now()
  const r = spawnSync(process.execPath, [join(root, 'bin', 'finctl.cjs'), ...args], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 30 * 60_000,
    maxBuffer: 256 * 1024 * 1024,
  })
  const seconds = (performance.now() - t0) / 1000
  if (r.status !== 0) throw new Error(`finctl ${args[0]} ${args[1]} exited ${r.status ?? r.signal}: ${(r.stderr ?? '').slice(-2000)}`)
  if (!r.stdout.trim()) throw new Error(`finctl ${args[0]} ${args[1]} printed nothing: ${(r.stderr ?? '').slice(-2000)}`)
  return { seconds, out: JSON.parse(r.stdout) as Record<string, unknown> }
}

export async function runRevertSection(
  root: string,
  c: RevertConfig,
  log: (l: string) => void,
): Promise<{ figures: Figure[]; lines: string[]; extra: unknown }> {
  const dir = makeTempDir('revert')
  const figures: Figure[] = []
  const lines = ['revert: rows | tx import (median s) | imports revert (median s) | import again after the revert (median s)']
  const extra: Record<string, unknown> = {}
  for (const n of c.sizes) {
    const file = join(dir, `rows-${n}.csv`)
    writeCsv(file, n, 42, 'ascending')
    const imports: number[] = []
    const reverts: number[] = []
    const again: number[] = []
    for (let r = 0; r < c.rounds; r++) {
      const setup = prepareFinctl(root, log)
      const env = { ...setup.env, FINCTL_API_KEY: setup.apiKey }
      const importArgs = ['tx', 'import', file, '--account', setup.accountId, '--json', '--no-progress']
      const first = timed(root, env, setup.configDir, importArgs)
      if (first.out.created !== n) throw new Error(`tx import created ${first.out.created} of ${n}`)
      const revert = timed(root, env, setup.configDir, ['imports', 'revert', String(first.out.batch_id), '--yes', '--json'])
      if (revert.out.deleted !== n) throw new Error(`imports revert deleted ${revert.out.deleted} of ${n}`)
      const next = timed(root, env, setup.configDir, importArgs)
      if (next.out.created !== n) throw new Error(`the import after the revert created ${next.out.created} of ${n}`)
      imports.push(first.seconds)
      reverts.push(revert.seconds)
      again.push(next.seconds)
      log(
        `revert: ${n} rows, round ${r + 1}: import ${first.seconds.toFixed(2)} s, revert ${revert.seconds.toFixed(2)} s, again ${next.seconds.toFixed(2)} s`,
      )
      rmSync(setup.configDir, { recursive: true, force: true })
    }
    const label = n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`
    const f = makeFigure({
      id: `revert.${label}`,
      label: `imports revert of ${n.toLocaleString('en-US')} rows (embedded, SQLite)`,
      unit: 's',
      spread: 'min-max',
      value: reverts,
      baselineLabel: `tx import of the same rows`,
      baseline: imports,
    })
    figures.push(f)
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    lines.push(`revert: ${n} | ${med(imports).toFixed(2)} | ${med(reverts).toFixed(2)} | ${med(again).toFixed(2)}`)
    extra[label] = { imports, reverts, again }
  }
  rmSync(dir, { recursive: true, force: true })
  return { figures, lines, extra }
}

/**
 * Part of section `import`: `tx import --review` then `imports apply` of a generated CSV, beside a
 * direct `tx import` of the same file, embedded, each into a fresh database, the two alternating
 * round by round so that both see the same minutes of a shared machine. The apply lands the rows
 * through the batch create path in chunks of 5,000, as one bulk load as a direct import's. Each
 * command's processor time (GNU time's user + system) is logged and kept beside its wall time.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { makeTempDir } from './children.js'
import { writeCsv } from './import.js'
import { makeFigure, type Figure } from './report.js'
import { prepareFinctl } from './throughput.js'

/** GNU time, where there is one: each command's processor time (user + system) beside its wall time. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined

function finctl(
  root: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  args: string[],
): { seconds: number; cpu?: number; out: Record<string, unknown> } {
  const t0 = performance.now()
  const timed = join(cwd, 'time.txt')
  const argv = [join(root, 'bin', 'finctl.cjs'), ...args, '--json']
  const [cmd, all] = TIME ? [TIME, ['-f', '%U %S', '-o', timed, process.execPath, ...argv]] : [process.execPath, argv]
  const r = spawnSync(cmd, all, {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 30 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
  })
  const seconds = (performance.now() - t0) / 1000
  if (r.status !== 0)
    throw new Error(`finctl ${args.slice(0, 2).join(' ')} exited ${r.status ?? r.signal}: ${(r.stderr ?? '').slice(-2000)}`)
  let cpu: number | undefined
  if (TIME && existsSync(timed)) {
    const [user, sys] = readFileSync(timed, 'utf8').trim().split(/\s+/).slice(-2).map(Number)
    cpu = user + sys
    rmSync(timed)
  }
  return { seconds, cpu, out: JSON.parse(r.stdout) as Record<string, unknown> }
}

export async function runReviewFigure(
  root: string,
  o: { rows: number; rounds: number },
  log: (l: string) => void,
): Promise<{ figures: Figure[]; lines: string[]; extra: unknown }> {
  const dir = makeTempDir('import-review')
  const file = join(dir, `review-${o.rows}.csv`)
  writeCsv(file, o.rows)
  const label = o.rows >= 1_000_000 ? `${o.rows / 1_000_000}M` : `${o.rows / 1000}k`
  const direct: number[] = []
  const review: number[] = []
  const apply: number[] = []
  const cpu: Array<{ direct?: number; review?: number; apply?: number }> = []
  for (let i = 0; i < o.rounds; i++) {
    const d = prepareFinctl(root, log)
    const env = (s: typeof d) => ({ ...s.env, FINCTL_API_KEY: s.apiKey })
    const plain = finctl(root, env(d), d.configDir, ['tx', 'import', file, '--account', d.accountId, '--no-progress'])
    if (plain.out.created !== o.rows) throw new Error(`the direct import created ${String(plain.out.created)} of ${o.rows} rows`)
    direct.push(plain.seconds)
    const r = prepareFinctl(root, log)
    const staged = finctl(root, env(r), r.configDir, ['tx', 'import', file, '--account', r.accountId, '--review', '--no-progress'])
    const pending = (staged.out.review as { pending?: number } | undefined)?.pending
    if (pending !== o.rows) throw new Error(`the review kept ${String(pending)} of ${o.rows} rows pending`)
    const applied = finctl(root, env(r), r.configDir, ['imports', 'apply', String(staged.out.batch_id)])
    const created = (applied.out.applied as { created?: number }).created
    if (created !== o.rows) throw new Error(`imports apply created ${String(created)} of ${o.rows} rows`)
    review.push(staged.seconds)
    apply.push(applied.seconds)
    cpu.push({ direct: plain.cpu, review: staged.cpu, apply: applied.cpu })
    const c = (x?: number) => (x === undefined ? '' : ` (CPU ${x.toFixed(1)} s)`)
    log(
      `import review ${label}: direct ${plain.seconds.toFixed(1)} s${c(plain.cpu)}; --review ${staged.seconds.toFixed(1)} s${c(staged.cpu)} + apply ${applied.seconds.toFixed(1)} s${c(applied.cpu)}`,
    )
  }
  const both = review.map((s, i) => s + apply[i])
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  return {
    figures: [
      makeFigure({
        id: `import.review.${label}`,
        label: `tx import --review + imports apply, ${label} rows, embedded`,
        unit: 's',
        spread: 'min-max',
        value: both,
        baselineLabel: 'tx import (direct)',
        baseline: direct,
      }),
    ],
    lines: [
      `import review ${label}: median --review ${med(review).toFixed(1)} s, apply ${med(apply).toFixed(1)} s, direct import ${med(direct).toFixed(1)} s (${o.rounds} alternating rounds)`,
    ],
    extra: { rows: o.rows, direct, review, apply, cpu },
  }
}

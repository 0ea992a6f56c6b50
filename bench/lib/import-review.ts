/**
 * Part of section `import`: `tx import --review` then `imports apply` of a generated CSV, beside a
 * direct `tx import` of the same file, embedded, each into a fresh database, the two alternating
 * round by round so that both see the same minutes of a shared machine. The apply lands the rows
 * through the batch create path in chunks of 5,000, as one bulk load as a direct import's. Each
 * command's processor time (GNU time's user + system) is logged and kept beside its wall time.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
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

/** One round of one build: a direct import, then --review and apply, each into a fresh database. */
interface Round {
  direct: number
  review: number
  apply: number
  cpu: { direct?: number; review?: number; apply?: number }
}

function round(root: string, file: string, rows: number, log: (l: string) => void): Round {
  const d = prepareFinctl(root, log)
  const env = (s: typeof d) => ({ ...s.env, FINCTL_API_KEY: s.apiKey })
  const plain = finctl(root, env(d), d.configDir, ['tx', 'import', file, '--account', d.accountId, '--no-progress'])
  if (plain.out.created !== rows) throw new Error(`the direct import created ${String(plain.out.created)} of ${rows} rows`)
  const r = prepareFinctl(root, log)
  const staged = finctl(root, env(r), r.configDir, ['tx', 'import', file, '--account', r.accountId, '--review', '--no-progress'])
  const pending = (staged.out.review as { pending?: number } | undefined)?.pending
  if (pending !== rows) throw new Error(`the review kept ${String(pending)} of ${rows} rows pending`)
  const applied = finctl(root, env(r), r.configDir, ['imports', 'apply', String(staged.out.batch_id)])
  const created = (applied.out.applied as { created?: number }).created
  if (created !== rows) throw new Error(`imports apply created ${String(created)} of ${rows} rows`)
  rmSync(d.configDir, { recursive: true, force: true })
  rmSync(r.configDir, { recursive: true, force: true })
  return {
    direct: plain.seconds,
    review: staged.seconds,
    apply: applied.seconds,
    cpu: { direct: plain.cpu, review: staged.cpu, apply: applied.cpu },
  }
}

/**
 * `o.against`: another built checkout, its round beside this build's in every round, the order
 * alternating round by round (A/B in the same minutes of a shared machine).
 */
export async function runReviewFigure(
  root: string,
  o: { rows: number; rounds: number; against?: string },
  log: (l: string) => void,
): Promise<{ figures: Figure[]; lines: string[]; extra: unknown }> {
  const dir = makeTempDir('import-review')
  const file = join(dir, `review-${o.rows}.csv`)
  writeCsv(file, o.rows)
  const label = o.rows >= 1_000_000 ? `${o.rows / 1_000_000}M` : `${o.rows / 1000}k`
  const builds = o.against ? [root, o.against] : [root]
  const rounds = new Map<string, Round[]>(builds.map((b) => [b, []]))
  const c = (x?: number) => (x === undefined ? '' : ` (CPU ${x.toFixed(1)} s)`)
  for (let i = 0; i < o.rounds; i++) {
    for (const b of i % 2 === 0 ? builds : [...builds].reverse()) {
      const x = round(b, file, o.rows, log)
      rounds.get(b)!.push(x)
      const both = x.review + x.apply
      const cpuBoth = (x.cpu.review ?? Number.NaN) + (x.cpu.apply ?? Number.NaN)
      log(
        `import review ${label}${b === root ? '' : ` [${b}]`}: direct ${x.direct.toFixed(1)} s${c(x.cpu.direct)}; --review ${x.review.toFixed(1)} s${c(x.cpu.review)} + apply ${x.apply.toFixed(1)} s${c(x.cpu.apply)}; both / direct ${(both / x.direct).toFixed(2)}x wall, ${(cpuBoth / (x.cpu.direct ?? Number.NaN)).toFixed(2)}x CPU; load ${loadavg()[0].toFixed(1)}`,
      )
    }
  }
  rmSync(dir, { recursive: true, force: true })
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const figures: Figure[] = []
  const lines: string[] = []
  for (const b of builds) {
    const rs = rounds.get(b)!
    const of = b === root ? '' : ` (${b})`
    figures.push(
      makeFigure({
        id: `import.review.${label}${b === root ? '' : '.against'}`,
        label: `tx import --review + imports apply, ${label} rows, embedded${of}`,
        unit: 's',
        spread: 'min-max',
        value: rs.map((x) => x.review + x.apply),
        baselineLabel: 'tx import (direct)',
        baseline: rs.map((x) => x.direct),
      }),
    )
    lines.push(
      `import review ${label}${of}: median --review ${med(rs.map((x) => x.review)).toFixed(1)} s, apply ${med(rs.map((x) => x.apply)).toFixed(1)} s, direct import ${med(rs.map((x) => x.direct)).toFixed(1)} s; both / direct ${med(rs.map((x) => (x.review + x.apply) / x.direct)).toFixed(2)}x wall, ${med(rs.map((x) => ((x.cpu.review ?? Number.NaN) + (x.cpu.apply ?? Number.NaN)) / (x.cpu.direct ?? Number.NaN))).toFixed(2)}x CPU (${o.rounds} rounds${o.against ? ', builds alternating' : ''})`,
    )
  }
  return { figures, lines, extra: { rows: o.rows, builds: Object.fromEntries(rounds) } }
}

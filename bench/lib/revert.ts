/**
 * Section `revert`: `finctl imports revert BATCH --yes` of a batch of N rows beside the `finctl tx
 * import` that made it, same database, same run, embedded; then the same file imported again, which
 * must create all N rows again (the revert released their keys). Each round in a fresh database.
 * Each child's peak RSS and processor time come from /usr/bin/time when it is there. With
 * `against` (another checkout, built), each round runs that build too, in alternating order, so
 * both builds' figures share the machine's load.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { makeTempDir } from './children.js'
import { writeCsv } from './import.js'
import { makeFigure, type Figure } from './report.js'
import { prepareFinctl } from './throughput.js'

export interface RevertConfig {
  sizes: number[]
  rounds: number
  /** Another checkout's root (built) to run beside this one, round by round. */
  against?: string
  /** Leave out the import after the revert (a third of a round's time, for large sizes). */
  noAgain?: boolean
}

interface Run {
  seconds: number
  /** Peak resident set of the child, MB (NaN without /usr/bin/time). */
  rssMb: number
  /** User plus system processor time of the child, s (NaN without /usr/bin/time). */
  cpu: number
  out: Record<string, unknown>
}

const TIME = '/usr/bin/time'

function timed(root: string, env: NodeJS.ProcessEnv, cwd: string, args: string[], stats: string): Run {
  const withTime = existsSync(TIME)
  const cmd = [process.execPath, join(root, 'bin', 'finctl.cjs'), ...args]
  const t0 = performance.now()
  const r = spawnSync(withTime ? TIME : cmd[0], withTime ? ['-f', '%M %U %S', '-o', stats, ...cmd] : cmd.slice(1), {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 30 * 60_000,
    maxBuffer: 256 * 1024 * 1024,
  })
  const seconds = (performance.now() - t0) / 1000
  if (r.status !== 0) throw new Error(`finctl ${args[0]} ${args[1]} exited ${r.status ?? r.signal}: ${(r.stderr ?? '').slice(-2000)}`)
  if (!r.stdout.trim()) throw new Error(`finctl ${args[0]} ${args[1]} printed nothing: ${(r.stderr ?? '').slice(-2000)}`)
  let rssMb = Number.NaN
  let cpu = Number.NaN
  if (withTime) {
    const [kb, user, sys] = readFileSync(stats, 'utf8').trim().split(/\s+/).slice(-3).map(Number)
    rssMb = kb / 1024
    cpu = user + sys
  }
  return { seconds, rssMb, cpu, out: JSON.parse(r.stdout) as Record<string, unknown> }
}

interface Round {
  import: Run
  revert: Run
  again: Run
}

function round(root: string, file: string, n: number, stats: string, log: (l: string) => void, noAgain = false): Round {
  const setup = prepareFinctl(root, log)
  const env = { ...setup.env, FINCTL_API_KEY: setup.apiKey }
  const importArgs = ['tx', 'import', file, '--account', setup.accountId, '--json', '--no-progress']
  try {
    const first = timed(root, env, setup.configDir, importArgs, stats)
    if (first.out.created !== n) throw new Error(`tx import created ${first.out.created} of ${n}`)
    const revert = timed(root, env, setup.configDir, ['imports', 'revert', String(first.out.batch_id), '--yes', '--json'], stats)
    if (revert.out.deleted !== n) throw new Error(`imports revert deleted ${revert.out.deleted} of ${n}`)
    if (noAgain) return { import: first, revert, again: { seconds: Number.NaN, rssMb: Number.NaN, cpu: Number.NaN, out: {} } }
    const again = timed(root, env, setup.configDir, importArgs, stats)
    if (again.out.created !== n) throw new Error(`the import after the revert created ${again.out.created} of ${n}`)
    return { import: first, revert, again }
  } finally {
    rmSync(setup.configDir, { recursive: true, force: true })
  }
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-')
const mb = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '-')

export async function runRevertSection(
  root: string,
  c: RevertConfig,
  log: (l: string) => void,
): Promise<{ figures: Figure[]; lines: string[]; extra: unknown }> {
  const dir = makeTempDir('revert')
  const stats = join(dir, 'time.txt')
  const figures: Figure[] = []
  const builds: Array<[string, string]> = [['this', root], ...(c.against ? [['against', c.against] as [string, string]] : [])]
  const lines = [
    'revert: build | rows | tx import (median s, CPU s, peak RSS MB) | imports revert (median s, CPU s, peak RSS MB) | revert/import | import again (median s)',
  ]
  const extra: Record<string, unknown> = {}
  try {
    for (const n of c.sizes) {
      const file = join(dir, `rows-${n}.csv`)
      writeCsv(file, n, 42, 'ascending')
      const runs = new Map<string, Round[]>(builds.map(([name]) => [name, []]))
      for (let r = 0; r < c.rounds; r++) {
        // Alternate which build goes first, so neither always runs on the warmer (or busier) machine.
        const order = r % 2 === 0 ? builds : [...builds].reverse()
        for (const [name, at] of order) {
          const x = round(at, file, n, stats, log, c.noAgain)
          runs.get(name)!.push(x)
          log(
            `revert: ${name}, ${n} rows, round ${r + 1}: import ${f2(x.import.seconds)} s (${mb(x.import.rssMb)} MB), ` +
              `revert ${f2(x.revert.seconds)} s (CPU ${f2(x.revert.cpu)} s, ${mb(x.revert.rssMb)} MB), again ${f2(x.again.seconds)} s`,
          )
        }
      }
      const label = n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`
      for (const [name] of builds) {
        const rs = runs.get(name)!
        const get = (k: keyof Round, f: keyof Run) => rs.map((x) => x[k][f] as number)
        figures.push(
          makeFigure({
            id: `revert.${label}${name === 'this' ? '' : `.${name}`}`,
            label: `imports revert of ${n.toLocaleString('en-US')} rows (embedded, SQLite${name === 'this' ? '' : `, ${c.against}`})`,
            unit: 's',
            spread: 'min-max',
            value: get('revert', 'seconds'),
            baselineLabel: `tx import of the same rows`,
            baseline: get('import', 'seconds'),
          }),
        )
        const ratio = med(get('revert', 'seconds')) / med(get('import', 'seconds'))
        lines.push(
          `revert: ${name} | ${n} | ${f2(med(get('import', 'seconds')))}, ${f2(med(get('import', 'cpu')))}, ${mb(Math.max(...get('import', 'rssMb')))} | ` +
            `${f2(med(get('revert', 'seconds')))}, ${f2(med(get('revert', 'cpu')))}, ${mb(Math.max(...get('revert', 'rssMb')))} | ${f2(ratio)}x | ${f2(med(get('again', 'seconds')))}`,
        )
        extra[`${label}.${name}`] = rs.map((x) => ({
          import: { s: x.import.seconds, cpu: x.import.cpu, rssMb: x.import.rssMb },
          revert: { s: x.revert.seconds, cpu: x.revert.cpu, rssMb: x.revert.rssMb },
          again: { s: x.again.seconds },
        }))
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return { figures, lines, extra }
}

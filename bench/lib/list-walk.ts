/**
 * `tx list --all` beside the store's floor, for the `list-scale` section: the CLI's walk of every
 * row (`--json`, `--output=csv`, stdout to /dev/null) and a process reading the same rows with
 * better-sqlite3, alternated run by run (the order swapped every other run, so that a drift of the
 * machine falls on both), each after `sync` (the rows just added written back first), timed by wall
 * clock and by /usr/bin/time (peak RSS, user + system CPU). Then the same walks under a bounded V8
 * heap, which show whether the walk keeps rows: a walk that held them could not finish in a heap
 * smaller than they are, and its peak RSS would follow them.
 */
import Database from 'better-sqlite3'
import { spawnSync } from 'node:child_process'
import { closeSync, existsSync, openSync, statSync } from 'node:fs'
import { loadavg } from 'node:os'

export const FORMATS = ['--json', '--output=csv'] as const
export type Format = (typeof FORMATS)[number]

export interface Measured {
  ms: number
  rssMb: number
  /** User + system time of the process (all its threads), seconds. */
  cpuS: number
}

export interface WalkRuns {
  cli: Measured[]
  floor: Measured[]
}

export interface Walks {
  byFormat: Record<Format, WalkRuns>
  /** The same walks under `--max-old-space-size=boundedHeapMb`, once each; undefined when not asked. */
  bounded?: Record<Format, Measured>
  /** The SQLite file (and its WAL) when the walks ran, MiB: what the page cache (64 MiB at most) could hold. */
  fileMb: number
  loadBefore: number
  loadAfter: number
}

const FLOOR_SCRIPT =
  "const D=require('better-sqlite3');const db=new D(process.argv[1],{readonly:true});let n=0;" +
  'for(const r of db.prepare(process.argv[2]).iterate(Number(process.argv[3]))){n+=r?1:0}process.stdout.write(String(n))'

/** A child `node ARGS` after `sync`: wall time, peak RSS (MiB) and CPU, its stdout to /dev/null. */
function runMeasured(root: string, args: string[], env: NodeJS.ProcessEnv): Measured {
  const out = openSync('/dev/null', 'w')
  try {
    // Dirty pages of earlier writes (the rows just added, a walk's usage records) written back now,
    // not during this run.
    spawnSync('sync')
    const t0 = performance.now()
    const r = spawnSync('/usr/bin/time', ['-f', 'RSS_KB=%M CPU_S=%U+%S', process.execPath, ...args], {
      cwd: root,
      env,
      stdio: ['ignore', out, 'pipe'],
      encoding: 'utf8',
      timeout: 600_000,
    })
    const ms = performance.now() - t0
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr.slice(-1000)}`)
    const kb = Number(/RSS_KB=(\d+)/.exec(r.stderr)?.[1])
    const cpu = /CPU_S=([\d.]+)\+([\d.]+)/.exec(r.stderr)
    return { ms, rssMb: kb / 1024, cpuS: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN }
  } finally {
    closeSync(out)
  }
}

/**
 * The walks at one size: a checkpoint of the WAL the rows were added through (so that no walk pays
 * for it), one untimed run of each side, then `runs` alternated pairs a format, then the bounded ones.
 */
export function measureWalks(
  root: string,
  o: { file: string; env: NodeJS.ProcessEnv; allSql: string; companyKey: number; runs: number; boundedHeapMb: number },
): Walks {
  const rw = new Database(o.file, { fileMustExist: true })
  try {
    rw.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    rw.close()
  }
  const fileMb = [o.file, `${o.file}-wal`].reduce((s, f) => s + (existsSync(f) ? statSync(f).size : 0), 0) / 2 ** 20
  const cli = (format: string, node: string[] = []) => runMeasured(root, [...node, 'bin/finctl.cjs', 'tx', 'list', '--all', format], o.env)
  const floor = () => runMeasured(root, ['-e', FLOOR_SCRIPT, o.file, o.allSql, String(o.companyKey)], o.env)
  const loadBefore = loadavg()[0]
  cli('--json')
  floor()
  const byFormat = Object.fromEntries(FORMATS.map((f) => [f, { cli: [], floor: [] } as WalkRuns])) as Record<Format, WalkRuns>
  for (let i = 0; i < o.runs; i++) {
    for (const format of FORMATS) {
      const w = byFormat[format]
      if (i % 2 === 0) {
        w.cli.push(cli(format))
        w.floor.push(floor())
      } else {
        w.floor.push(floor())
        w.cli.push(cli(format))
      }
    }
  }
  let bounded: Walks['bounded']
  if (o.boundedHeapMb > 0) {
    const heap = [`--max-old-space-size=${o.boundedHeapMb}`]
    bounded = Object.fromEntries(FORMATS.map((f) => [f, cli(f, heap)])) as Record<Format, Measured>
  }
  return { byFormat, bounded, fileMb, loadBefore, loadAfter: loadavg()[0] }
}

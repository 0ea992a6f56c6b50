/**
 * Machine-wide CPU figures from /proc (Linux; NaN elsewhere): how busy all cores were during a run,
 * and how much CPU the local PostgreSQL server processes used (they run on the same machine; any
 * other client of that server counts too).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'

export interface CpuSnapshot {
  /** Sum of all /proc/stat cpu jiffies, and the idle + iowait part, in ms (100 Hz assumed). */
  totalMs: number
  idleMs: number
  /** utime + stime of each process named `postgres`, in ms, by pid. */
  postgres: Map<number, number>
}

function machine(): { totalMs: number; idleMs: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]
    const f = line.trim().split(/\s+/).slice(1).map(Number)
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0)
    return { totalMs: total * 10, idleMs: (f[3] + (f[4] ?? 0)) * 10 }
  } catch {
    return { totalMs: Number.NaN, idleMs: Number.NaN }
  }
}

/** CPU time of each `postgres` process alive now. */
function postgresCpu(): Map<number, number> {
  const out = new Map<number, number>()
  if (!existsSync('/proc')) return out
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      if (name !== 'postgres') continue
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.set(Number(pid), (Number(fields[11]) + Number(fields[12])) * 10)
    } catch {
      // gone meanwhile
    }
  }
  return out
}

export function cpuSnapshot(): CpuSnapshot {
  return { ...machine(), postgres: postgresCpu() }
}

export interface CpuDelta {
  /** Share of all cores busy over the interval, 0..1. */
  machineBusy: number
  /** Cores' worth of CPU busy (machineBusy x cores). */
  busyCores: number
  /**
   * CPU the postgres processes used over the interval, in ms: for each process alive at the end, its
   * time minus its time at the start (0 if it started since). A backend that exited in between
   * (an idle pooled connection closed) is left out rather than counted negative.
   */
  postgresMs: number
}

export function cpuDelta(a: CpuSnapshot, b: CpuSnapshot, cores: number): CpuDelta {
  const total = b.totalMs - a.totalMs
  const idle = b.idleMs - a.idleMs
  const busy = total > 0 ? (total - idle) / total : Number.NaN
  let pgMs = 0
  for (const [pid, ms] of b.postgres) pgMs += ms - (a.postgres.get(pid) ?? 0)
  return { machineBusy: busy, busyCores: busy * cores, postgresMs: pgMs }
}

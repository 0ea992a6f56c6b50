/**
 * Summary of a V8 .cpuprofile (from `node --cpu-prof`): self time per function and per package.
 * Frames in the bundle (dist/) are mapped back to their source through the bundle's
 * source maps, so bundled dependencies (hono, zod, kysely, …) are told apart from finctl's own code.
 */
import { existsSync, readFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { fileURLToPath } from 'node:url'

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
  columnNumber: number
}
interface ProfileNode {
  id: number
  callFrame: CallFrame
  hitCount?: number
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples?: number[]
  timeDeltas?: number[]
}

export interface TimeRow {
  name: string
  location: string
  group: string
  ms: number
  /** Percent of the busy (non-idle) time. */
  pct: number
}

export interface ProfileSummary {
  /** The part of the profile summarized, in ms from its start. */
  window: { fromMs: number; toMs: number }
  totalMs: number
  /** Time outside idle. */
  busyMs: number
  topFunctions: TimeRow[]
  /**
   * Inclusive time (the function or anything it called synchronously, counted once per stack) of
   * frames from finctl's code and its packages; node internals and V8 left out. Async functions
   * only count the synchronous stretches they run.
   */
  topInclusive: TimeRow[]
  byGroup: { group: string; ms: number; pct: number }[]
}

export interface SummarizeOptions {
  top?: number
  /** Only samples taken from `fromMs` to `toMs` after the profile started (e.g. the load window). */
  fromMs?: number
  toMs?: number
}

const maps = new Map<string, SourceMap | null>()
function sourceMapFor(file: string): SourceMap | null {
  if (!maps.has(file)) {
    let m: SourceMap | null = null
    try {
      if (existsSync(`${file}.map`)) m = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')))
    } catch {
      m = null
    }
    maps.set(file, m)
  }
  return maps.get(file) ?? null
}

function packageOf(path: string): string | undefined {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)
  return m?.[1]
}

/** Where a frame comes from: its original source location and a group (package, finctl, node, V8). */
function locate(cf: CallFrame): { location: string; group: string } {
  if (!cf.url) return { location: '', group: cf.functionName.startsWith('(') ? cf.functionName : 'V8/native' }
  if (cf.url.startsWith('node:')) return { location: `${cf.url}:${cf.lineNumber + 1}`, group: 'node internals' }
  let file = cf.url
  if (file.startsWith('file://')) {
    try {
      file = fileURLToPath(file)
    } catch {
      // keep the URL
    }
  }
  let location = `${file}:${cf.lineNumber + 1}`
  let original = file
  if (/\/dist\//.test(file) && cf.lineNumber >= 0) {
    const entry = sourceMapFor(file)?.findEntry(cf.lineNumber, Math.max(0, cf.columnNumber)) as
      | { originalSource?: string; originalLine?: number }
      | undefined
    if (entry?.originalSource) {
      original = entry.originalSource
      location = `${entry.originalSource.replace(/^(\.\.\/)+/, '')}:${(entry.originalLine ?? 0) + 1}`
    }
  }
  const pkg = packageOf(original)
  if (pkg) return { location: location.replace(/^.*node_modules\//, ''), group: pkg }
  if (/(^|\/)(src|commands)\//.test(original)) return { location: location.replace(/^.*?((src|commands)\/)/, '$1'), group: 'finctl (src/)' }
  return { location, group: 'other' }
}

export function summarizeCpuProfile(path: string, o: SummarizeOptions = {}): ProfileSummary {
  const top = o.top ?? 20
  const p = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const fromUs = (o.fromMs ?? 0) * 1000
  const toUs = o.toMs === undefined ? Number.POSITIVE_INFINITY : o.toMs * 1000
  const selfUs = new Map<number, number>()
  const inclusiveUs = new Map<string, number>()
  const keyOf = new Map<number, { key: string; name: string; location: string; group: string }>()
  const describe = (id: number) => {
    let d = keyOf.get(id)
    if (!d) {
      const cf = byId.get(id)!.callFrame
      const { location, group } = locate(cf)
      const name = cf.functionName || '(anonymous)'
      d = { key: `${name}@${location}`, name, location, group }
      keyOf.set(id, d)
    }
    return d
  }
  if (!p.samples || !p.timeDeltas || p.samples.length !== p.timeDeltas.length) throw new Error(`${path}: no samples in the profile`)
  // Sample i lasts until sample i+1 (DevTools' convention).
  let t = 0
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i]
    if (t < fromUs || t > toUs) continue
    const d = Math.max(0, p.timeDeltas[i + 1] ?? 0)
    const id = p.samples[i]
    selfUs.set(id, (selfUs.get(id) ?? 0) + d)
    const seen = new Set<string>()
    for (let n: number | undefined = id, depth = 0; n !== undefined && depth < 500; n = parent.get(n), depth++) {
      const k = describe(n).key
      if (seen.has(k)) continue
      seen.add(k)
      inclusiveUs.set(k, (inclusiveUs.get(k) ?? 0) + d)
    }
  }
  const totalUs = [...selfUs.values()].reduce((s, x) => s + x, 0)
  let idleUs = 0
  const fn = new Map<string, TimeRow>()
  const groups = new Map<string, number>()
  for (const [id, us] of selfUs) {
    const node = byId.get(id)
    if (!node || us === 0) continue
    if (node.callFrame.functionName === '(idle)') idleUs += us
    const { key, name, location, group } = describe(id)
    const row = fn.get(key) ?? { name, location, group, ms: 0, pct: 0 }
    row.ms += us / 1000
    fn.set(key, row)
    groups.set(group, (groups.get(group) ?? 0) + us / 1000)
  }
  const busyMs = (totalUs - idleUs) / 1000
  const pct = (ms: number) => (busyMs > 0 ? (100 * ms) / busyMs : 0)
  const topFunctions = [...fn.values()]
    .filter((r) => r.name !== '(idle)')
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top)
    .map((r) => ({ ...r, ms: round(r.ms), pct: round(pct(r.ms)) }))
  const byGroup = [...groups.entries()]
    .filter(([g]) => g !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .map(([group, ms]) => ({ group, ms: round(ms), pct: round(pct(ms)) }))
  const rowOf = new Map([...keyOf.values()].map((d) => [d.key, d]))
  const topInclusive = [...inclusiveUs.entries()]
    .map(([k, us]) => ({ ...rowOf.get(k)!, ms: us / 1000 }))
    .filter((r) => r.group !== 'node internals' && r.group !== 'V8/native' && !r.group.startsWith('('))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top)
    .map(({ name, location, group, ms }) => ({ name, location, group, ms: round(ms), pct: round(pct(ms)) }))
  const lastMs = t / 1000
  return {
    window: { fromMs: round(Math.max(0, fromUs / 1000)), toMs: round(Math.min(lastMs, toUs / 1000)) },
    totalMs: round(totalUs / 1000),
    busyMs: round(busyMs),
    topFunctions,
    topInclusive,
    byGroup,
  }
}

function round(x: number): number {
  return Math.round(x * 10) / 10
}

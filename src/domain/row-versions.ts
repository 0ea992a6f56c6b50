/**
 * The rows a mass change takes as they were (their versions): what a proposal of it is bound to
 * (docs/people.md, "Approval policies"). A revert or a rule run gathers them as it reads its rows,
 * in any order and of any number, when proposed and again when approved; a difference is named.
 */
import { createHash } from 'node:crypto'

/** Rows whose version a proposal lists by id, to name what moved; the rest are in the digest alone. */
const LISTED = 1000

export interface Versions {
  rows: number
  /** Each row's SHA-256 (its action, id and version) folded by XOR: the same whatever the order read. */
  sha256: string
  listed: Record<string, string>
}

export class RowVersions {
  private readonly acc = Buffer.alloc(32)
  private rows = 0
  private readonly listed: Record<string, string> = {}
  private readonly seen = new Map<string, string>()

  /** `watch`: the ids a proposal listed, whose versions now are noted so that what moved can be named. */
  constructor(private readonly watch?: Readonly<Record<string, string>>) {}

  add(action: string, id: string, version: string): void {
    const h = createHash('sha256').update(`${action}\t${id}\t${version}`).digest()
    for (let i = 0; i < 32; i++) this.acc[i] ^= h[i]
    if (this.rows++ < LISTED) this.listed[id] = version
    if (this.watch && id in this.watch) this.seen.set(id, version)
  }

  done(): Versions {
    return { rows: this.rows, sha256: this.acc.toString('hex'), listed: this.listed }
  }

  /** What moved since `then` (a proposal's versions), in words; null when nothing did. */
  movedSince(then: Versions): string | null {
    const now = this.done()
    if (now.sha256 === then.sha256 && now.rows === then.rows) return null
    const changed = Object.entries(then.listed).filter(([id, v]) => this.seen.get(id) !== v)
    const named = changed.slice(0, 5).map(([id]) => `${id} (${this.seen.has(id) ? 'changed' : 'gone'})`)
    const rows = now.rows === then.rows ? '' : `; ${now.rows} rows now, ${then.rows} were shown`
    return named.length
      ? `${named.join(', ')}${changed.length > 5 ? `, and ${changed.length - 5} more` : ''}${rows}`
      : `a row beyond the ${Object.keys(then.listed).length} shown changed${rows}`
  }
}

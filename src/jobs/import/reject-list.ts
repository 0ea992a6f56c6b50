/**
 * The rejected rows of an import, for its summary (line and reason), in flat memory: the first
 * KEPT_REJECTS are kept in memory, the rest go to a spill file of their own (one JSON object a line,
 * in a private temporary folder) and are read back, in order, only when the summary is printed.
 * Kept all in memory, the rejects of a large file whose rows were nearly all rejected (a wrong column
 * for the amount, say) set the command's peak (docs/performance.md, "Importing"), and the summary
 * crossed from the import thread to the main thread as one copy more.
 */
import { closeSync, createReadStream, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'

export interface RejectedRow {
  line: number
  reason: string
}

/** How many rejected rows an import keeps in memory; the rest wait in a spill file. */
export const KEPT_REJECTS = 1000

/** Bytes written to the spill file at a time. */
const FLUSH_AT = 64 * 1024

export class RejectList {
  /** The first rejected rows, in the order they were rejected. */
  readonly kept: RejectedRow[] = []
  private spill: { path: string; fd: number } | undefined
  private pending = ''

  constructor(
    private readonly keep = KEPT_REJECTS,
    /**
     * The spill file's folder, named by whoever may stop the import before it is made (a thread told
     * of it afterwards could be stopped in between, and leave it behind); else a new temporary one.
     */
    private readonly spillDir?: string,
  ) {}

  add(row: RejectedRow): void {
    if (this.kept.length < this.keep) {
      this.kept.push(row)
      return
    }
    this.pending += `${JSON.stringify(row)}\n`
    if (this.pending.length >= FLUSH_AT) this.flush()
  }

  /** After `close`: the file that holds the rows after the kept ones, if there were more. */
  get spillPath(): string | undefined {
    return this.spill?.path
  }

  /** Write what is pending and close the spill file; the file stays for `readRejects`. */
  close(): void {
    if (this.pending) this.flush()
    if (this.spill && this.spill.fd >= 0) {
      closeSync(this.spill.fd)
      this.spill.fd = -1
    }
  }

  private open(): { path: string; fd: number } {
    if (!this.spill) {
      // A folder of 0700 (mkdtemp's mode): the reasons quote the rows' values.
      const dir = this.spillDir ?? mkdtempSync(join(tmpdir(), 'finctl-rejects-'))
      if (this.spillDir) mkdirSync(dir, { mode: 0o700 })
      const path = join(dir, 'rejects.ndjson')
      this.spill = { path, fd: openSync(path, 'w', 0o600) }
    }
    return this.spill
  }

  private flush(): void {
    const { fd } = this.open()
    writeSync(fd, this.pending)
    this.pending = ''
  }
}

/** Every rejected row: the kept ones, then those of the spill file (if any), in order. */
export async function* readRejects(kept: RejectedRow[], spillPath: string | undefined): AsyncGenerator<RejectedRow> {
  yield* kept
  if (!spillPath) return
  const lines = createInterface({ input: createReadStream(spillPath, { encoding: 'utf8' }), crlfDelay: Infinity })
  for await (const line of lines) if (line) yield JSON.parse(line) as RejectedRow
}

/** A name for a spill folder not made yet (RejectList's `spillDir`), private to this import. */
export const newSpillDir = (): string => join(tmpdir(), `finctl-rejects-${randomBytes(9).toString('base64url')}`)

/** Remove a spill folder and what it holds (nothing if it was never made). */
export function discardSpillDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}

/** Remove a spill file and its folder (nothing if there is none). */
export function discardRejects(spillPath: string | undefined): void {
  if (spillPath) discardSpillDir(dirname(spillPath))
}

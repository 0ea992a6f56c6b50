/**
 * The `--rejects FILE` of `tx import`: each rejected row as the bank wrote it plus its line and the
 * reason, so it can be fixed and imported again. Written as rows are rejected; a failed write (a
 * full disk) is reported by the next write or by close.
 */
import { createWriteStream, type WriteStream } from 'node:fs'
import { AppError } from '../../kernel/errors.js'

/** RFC 4180 field for the rejects file: the row as the bank wrote it, so it can be fixed and re-imported. */
function csvQuote(s: string, delimiter: string): string {
  return s.includes('"') || s.includes(delimiter) || /[\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export class RejectsWriter {
  private out?: WriteStream
  /** The stream's first error (a full disk, say): reported by the next write or by close. */
  private failure?: Error
  constructor(
    private readonly path: string | undefined,
    private readonly header: string[],
    private readonly delimiter: string,
  ) {}
  private check(): void {
    if (this.failure) throw new AppError('internal_error', `cannot write the rejects file ${this.path}: ${this.failure.message}`)
  }
  write(fields: string[], line: number, reason: string): void {
    if (!this.path) return
    this.check()
    if (!this.out) {
      this.out = createWriteStream(this.path, { encoding: 'utf8' })
      this.out.on('error', (e) => {
        this.failure ??= e
      })
      this.out.write(`${[...this.header, 'line', 'reason'].map((f) => csvQuote(f, this.delimiter)).join(this.delimiter)}\n`)
    }
    this.out.write(`${[...fields, String(line), reason].map((f) => csvQuote(f, this.delimiter)).join(this.delimiter)}\n`)
  }
  async close(): Promise<void> {
    const out = this.out
    if (!out) return
    if (!this.failure) {
      await new Promise<void>((res) =>
        out.end((err?: Error | null) => {
          if (err) this.failure ??= err
          res()
        }),
      )
    }
    this.check()
  }
}

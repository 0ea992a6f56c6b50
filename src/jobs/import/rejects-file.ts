/**
 * The `--rejects FILE` of `tx import`: each rejected row as the bank wrote it plus its line and the
 * reason, so it can be fixed and imported again. Written beside FILE as rows are rejected and moved
 * into place when the import ends (output-file.ts); a failed write (a full disk) fails the import.
 */
import { csvLine } from '../../kernel/csv-write.js'
import { AppError } from '../../kernel/errors.js'
import { OutputFile } from '../output-file.js'

export class RejectsWriter {
  private out?: OutputFile
  /** The first failure: reported by the next write or by close. */
  private failure?: Error
  constructor(
    private readonly path: string | undefined,
    private readonly header: string[],
    private readonly delimiter: string,
    private readonly file: { input: string; overwrite?: boolean } = { input: '' },
  ) {}
  private check(): void {
    if (this.failure)
      throw this.failure instanceof AppError
        ? this.failure
        : new AppError('internal_error', `cannot write the rejects file ${this.path}: ${this.failure.message}`)
  }
  /** In the file's own delimiter, through finctl's one CSV writer (its formula guard too). */
  private line(fields: string[]): string {
    return csvLine(fields, this.delimiter)
  }
  write(fields: string[], line: number, reason: string): void {
    if (!this.path) return
    this.check()
    try {
      if (!this.out) {
        this.out = OutputFile.create(this.path, {
          flag: '--rejects',
          what: 'the rejects file',
          overwrite: this.file.overwrite,
          inputs: [{ path: this.file.input, what: 'the file being imported' }],
        })
        this.out.write(this.line([...this.header, 'line', 'reason']))
      }
      this.out.write(this.line([...fields, String(line), reasonCell(reason)]))
    } catch (e) {
      this.failure = e as Error
      throw e
    }
  }
  /** Move the file into place (also after a failed import: the rows rejected so far are in it). */
  async close(): Promise<void> {
    const out = this.out
    this.out = undefined
    if (out && !this.failure) {
      try {
        out.commit()
      } catch (e) {
        this.failure = e as Error
      }
    }
    this.check()
  }
}

/**
 * The reason as a cell: finctl's own words, never marked with the formula guard's '. One that
 * starts as a spreadsheet formula would (a flag: `--account: ...`) reads `error: --account: ...`,
 * as on stderr, so that it stays text without the mark.
 */
function reasonCell(reason: string): string {
  return /^[=+\-@\t\r]/.test(reason) ? `error: ${reason}` : reason
}

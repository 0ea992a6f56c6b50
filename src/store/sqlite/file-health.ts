/**
 * What a SQLite file's errors mean to its user: a locked, full, damaged or read-only file becomes a
 * store error naming it (store-errors.ts), and a damaged one is marked so (damage-mark.ts) for every
 * process from then on. And how a write takes its turn (turns.ts).
 */
import type BetterSqlite3 from 'better-sqlite3'
import { AppError } from '../../kernel/errors.js'
import { readDamageMark, writeDamageMark } from './damage-mark.js'
import { busyWaitMs, isBusy, Turns } from './turns.js'
import { storeError, storeProblemOf } from '../store-errors.js'

/** One file's health, as its store has seen it. */
export class FileHealth {
  /** Why the file is taken for damaged, once it is. */
  damaged: string | undefined
  readonly turns: Turns

  constructor(readonly path: string) {
    const mark = path === ':memory:' ? undefined : readDamageMark(path)
    this.damaged = mark ? `found ${mark.found_at}: ${mark.reason}` : undefined
    this.turns = new Turns(busyWaitMs(), (waitedMs) => storeError('busy', path, { waitedMs }))
  }

  translate = (err: unknown): unknown => {
    if (err instanceof AppError) return err
    const problem = storeProblemOf(err)
    if (!problem) return err
    const code = (err as { code?: string }).code
    if (problem === 'damaged') {
      this.damaged ??= (err as Error).message
      // A file that is no database at all cannot be opened anyway: nothing to mark beside it.
      if (code !== 'SQLITE_NOTADB') writeDamageMark(this.path, `${code}: ${(err as Error).message}`)
    }
    return storeError(problem, this.path, { cause: err })
  }

  /** Before every write of data: a file taken for damaged is written no more. */
  refuseIfDamaged(): void {
    if (this.damaged) throw storeError('damaged', this.path, { cause: { code: 'SQLITE_CORRUPT' } })
  }
}

/** BEGIN IMMEDIATE when the lock is free; false (nothing done) while another connection holds it. */
export function beginImmediate(raw: BetterSqlite3.Database): boolean {
  try {
    raw.exec('BEGIN IMMEDIATE')
    return true
  } catch (e) {
    if (isBusy(e)) return false
    throw e
  }
}

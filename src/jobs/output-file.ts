/**
 * The files finctl writes: gathered text or bytes (`OutputFile`: `--rejects`, `--env-out`, `keys
 * create --output-file`, a document or statement file) or a stream (`openOutputStream`: an export,
 * a close's exports, an auditor's pack, a suggested chart). Such a file is never a file the command
 * reads (same device and inode: a hard link, a link or another spelling counts), never written over
 * an existing file unless `--overwrite`, never through a symbolic link. It is written to a temporary
 * file beside it, created exclusively (0600 when it holds secrets), and moved into place whole: a
 * failure leaves the old file as it was, and a reader never sees half of one. A pipe or a device
 * (/dev/null, a named pipe) is written as it is, never replaced by a file.
 */
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  constants,
  createWriteStream,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  type WriteStream,
  writeSync,
} from 'node:fs'
import { open, rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { AppError } from '../kernel/errors.js'

export interface OutputOptions {
  /** The flag that names the file, for messages. */
  flag: string
  overwrite?: boolean
  /** Credentials or keys: the file is created 0600. */
  secret?: boolean
  /** The files the command reads, which the output may not be. */
  inputs?: ReadonlyArray<{ path: string; what: string }>
  /** Why the output must be a file (a closed month's export is read back): a pipe or a device is refused. */
  fileOnly?: string
  /** What the file is, for the message of a failed write ("the rejects file"); default the flag. */
  what?: string
}

const usage = (message: string) => new AppError('usage', message)

/** A pipe or a device (/dev/null, a named pipe): written as it is, there is no file to keep whole. */
export function isStream(info: Stats | undefined): boolean {
  return Boolean(info && (info.isCharacterDevice() || info.isFIFO()))
}

/** Check an output path before any work starts, so that a mistake is exit 2 and not a failure at the end. */
export function checkOutputFile(path: string, o: OutputOptions): void {
  const dir = dirname(resolve(path))
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw usage(`${o.flag}: no such folder: ${dir}`)
  const here = lstatSync(path, { throwIfNoEntry: false })
  if (!here) return
  // Followed through a link, so that a link to an input is named as that input.
  const target = statSync(path, { throwIfNoEntry: false })
  for (const input of o.inputs ?? []) {
    const read = statSync(input.path, { throwIfNoEntry: false })
    if (read && target && read.dev === target.dev && read.ino === target.ino)
      throw usage(`${o.flag} must not be ${input.what}: it would be overwritten`)
  }
  if (here.isSymbolicLink())
    throw usage(`${o.flag}: ${path} is a symbolic link: give the path of a regular file (finctl never writes through a link)`)
  if (here.isDirectory()) throw usage(`${o.flag}: ${path} is a folder: give the path of a file to write`)
  if (isStream(here) && o.fileOnly) throw usage(`${o.flag}: ${path} is a pipe or a device: ${o.fileOnly}`)
  if (isStream(here)) return
  if (!here.isFile()) throw usage(`${o.flag}: ${path} is not a regular file`)
  if (!o.overwrite) throw usage(`${o.flag}: ${path} already exists: give a new path, or --overwrite to replace it`)
}

/** Writes are gathered up to this size, then written: a rejects file can hold millions of rows. */
const CHUNK = 64 * 1024

/** A file being written: `write`, then `commit` (moved into place) or `discard`. */
export class OutputFile {
  private pending: string[] = []
  private pendingSize = 0
  private open = true

  private constructor(
    readonly path: string,
    /** Undefined for a pipe or a device, written directly. */
    readonly tempPath: string | undefined,
    private readonly fd: number,
    private readonly o: OutputOptions,
  ) {}

  /** Check `path` again (things change while an import runs) and create the temporary file beside it. */
  static create(path: string, o: OutputOptions): OutputFile {
    checkOutputFile(path, o)
    const nofollow = constants.O_NOFOLLOW ?? 0
    if (isStream(lstatSync(path, { throwIfNoEntry: false })))
      return new OutputFile(path, undefined, openSync(path, constants.O_WRONLY | nofollow), o)
    const temp = beside(path, 6, 'tmp')
    let fd: number
    try {
      fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | nofollow, o.secret ? 0o600 : 0o666)
    } catch (e) {
      throw usage(`${o.flag}: cannot create a file in ${dirname(resolve(path))}: ${(e as Error).message}`)
    }
    return new OutputFile(path, temp, fd, o)
  }

  write(text: string): void {
    this.pending.push(text)
    this.pendingSize += text.length
    if (this.pendingSize < CHUNK) return
    try {
      this.flush()
    } catch (e) {
      this.discard()
      throw e
    }
  }

  /** Bytes (a stored document), written after any pending text. */
  writeBytes(bytes: Uint8Array): void {
    try {
      this.flush()
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at)
    } catch (e) {
      this.discard()
      throw e instanceof AppError ? e : this.failed(e)
    }
  }

  /** A write that fails (a full disk) throws, naming the file. */
  private flush(): void {
    if (this.pendingSize === 0) return
    const bytes = Buffer.from(this.pending.join(''), 'utf8')
    this.pending = []
    this.pendingSize = 0
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at)
    } catch (e) {
      throw this.failed(e)
    }
  }

  private failed(e: unknown): AppError {
    return new AppError('internal_error', `cannot write ${this.o.what ?? this.o.flag} ${this.path}: ${(e as Error).message}`)
  }

  /**
   * Write what is left and move the file into place; without `overwrite`, never over a file that
   * appeared meanwhile (the temporary file is then kept, and named). A failed write discards it.
   */
  commit(): void {
    const temp = this.tempPath
    try {
      this.flush()
      if (temp) fsyncSync(this.fd)
    } catch (e) {
      this.discard()
      throw e instanceof AppError ? e : this.failed(e)
    }
    this.close()
    if (!temp || place(temp, this.path, this.o.overwrite)) return
    throw usage(`${this.o.flag}: ${this.path} was created meanwhile; what finctl wrote is in ${temp}`)
  }

  discard(): void {
    this.close()
    if (!this.tempPath) return
    try {
      unlinkSync(this.tempPath)
    } catch {
      // gone already
    }
  }

  private close(): void {
    if (!this.open) return
    this.open = false
    closeSync(this.fd)
  }
}

/** Write `text` to `path` as one whole file (checked as checkOutputFile says). */
export function writeOutputFile(path: string, text: string, o: OutputOptions): void {
  const file = OutputFile.create(path, o)
  file.write(text)
  file.commit()
}

/** A file being written as a stream: `commit` gives it its name, `abandon` removes it (after a failure). */
export interface OutputStream {
  stream: WriteStream
  commit(): Promise<void>
  abandon(): Promise<void>
}

/**
 * Open `path` (checked as checkOutputFile says) for a stream: a temporary `.part` file beside it,
 * named only when complete; a name taken meanwhile removes it and is refused.
 */
export async function openOutputStream(path: string, o: OutputOptions): Promise<OutputStream> {
  checkOutputFile(path, o)
  if (isStream(lstatSync(path, { throwIfNoEntry: false }))) return openDevice(path, o)
  const temp = beside(resolve(path), 4, 'part')
  const stream = createWriteStream(temp, { flags: 'wx' })
  await opened(stream)
  return {
    stream,
    async commit() {
      await end(stream)
      if (place(temp, path, o.overwrite)) return
      await rm(temp, { force: true })
      throw new AppError('conflict', `${o.flag}: ${path} was created by something else meanwhile; the export was not written`)
    },
    async abandon() {
      stream.destroy()
      await rm(temp, { force: true })
    },
  }
}

/** A temporary name beside `path`, hidden, with `bytes` random bytes. */
function beside(path: string, bytes: number, suffix: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(bytes).toString('hex')}.${suffix}`)
}

/**
 * Give `temp` the name `path`; without `overwrite`, never over a file: false when the name was
 * taken meanwhile (`temp` is then left as it is).
 */
function place(temp: string, path: string, overwrite: boolean | undefined): boolean {
  if (overwrite) {
    renameSync(temp, path)
    return true
  }
  try {
    // link() fails on an existing name, where rename() would replace it.
    linkSync(temp, path)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false
    // A file system without hard links: the check just before is the best there is.
    if (lstatSync(path, { throwIfNoEntry: false })) return false
    renameSync(temp, path)
    return true
  }
  unlinkSync(temp)
  return true
}

/** No O_CREAT or O_TRUNC: a pipe or a device that went away meanwhile is an error, not a new file. */
async function openDevice(path: string, o: OutputOptions): Promise<OutputStream> {
  const handle = await open(path, constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0)).catch((e: Error) => {
    throw usage(`${o.flag}: cannot write ${path}: ${e.message}`)
  })
  const stream = createWriteStream(path, { fd: handle })
  return {
    stream,
    commit: () => end(stream),
    async abandon() {
      stream.destroy()
    },
  }
}

function end(stream: WriteStream): Promise<void> {
  return new Promise<void>((res, rej) => {
    if (stream.closed) return res()
    stream.once('error', rej)
    stream.end(() => res())
  })
}

function opened(stream: WriteStream): Promise<void> {
  return new Promise((res, rej) => {
    stream.once('open', () => res())
    stream.once('error', rej)
  })
}

/**
 * Where an export is written: a new file, or with --overwrite one that exists (checked as
 * checkOutputFile says: never a file the command reads, never through a link, never a folder). The
 * export goes to a temporary file in the same folder, which takes the name only when complete (a
 * hard link, which fails if the name was taken meanwhile, then the temporary name is removed); a
 * failure removes it. No reader ever sees half an export under the name asked for. A pipe or a
 * device (/dev/null, a named pipe) is written as it is, never replaced by a file.
 */
import { randomBytes } from 'node:crypto'
import { constants, createWriteStream, lstatSync, type WriteStream } from 'node:fs'
import { link, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { AppError } from '../../kernel/errors.js'
import { checkOutputFile, isStream, type OutputOptions } from '../output-file.js'

export interface OutputFile {
  stream: WriteStream
  /** Give the finished file its name. */
  commit(): Promise<void>
  /** Remove the temporary file (after a failure). */
  abandon(): Promise<void>
}

export async function openOutputFile(path: string, o: OutputOptions): Promise<OutputFile> {
  checkOutputFile(path, o)
  if (isStream(lstatSync(path, { throwIfNoEntry: false }))) return openStream(path, o)
  const flag = o.flag
  const temp = join(dirname(resolve(path)), `.${basename(path)}.${randomBytes(4).toString('hex')}.part`)
  const stream = createWriteStream(temp, { flags: 'wx' })
  await once(stream, 'open')
  return {
    stream,
    async commit() {
      await end(stream)
      if (o.overwrite) return rename(temp, path)
      try {
        await link(temp, path)
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code
        if (code === 'EEXIST') {
          await rm(temp, { force: true })
          throw new AppError('conflict', `${flag}: ${path} was created by something else meanwhile; the export was not written`)
        }
        // A file system without hard links: the name was free a moment ago.
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw e
        if (lstatSync(path, { throwIfNoEntry: false }))
          throw new AppError('conflict', `${flag}: ${path} was created by something else meanwhile`)
        await rename(temp, path)
        return
      }
      await rm(temp, { force: true })
    },
    async abandon() {
      stream.destroy()
      await rm(temp, { force: true })
    },
  }
}

/** No O_CREAT or O_TRUNC: a pipe or a device that went away meanwhile is an error, not a new file. */
async function openStream(path: string, o: OutputOptions): Promise<OutputFile> {
  const handle = await open(path, constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0)).catch((e: Error) => {
    throw new AppError('usage', `${o.flag}: cannot write ${path}: ${e.message}`)
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

function once(stream: WriteStream, event: 'open'): Promise<void> {
  return new Promise((res, rej) => {
    stream.once(event, () => res())
    stream.once('error', rej)
  })
}

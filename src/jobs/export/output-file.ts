/**
 * Where an export is written: a new file, never one that exists. The export goes to a temporary
 * file in the same folder, which takes the name only when complete (a hard link, which fails if the
 * name was taken meanwhile, then the temporary name is removed); a failure removes it. No reader
 * ever sees half an export under the name asked for.
 */
import { randomBytes } from 'node:crypto'
import { createWriteStream, type WriteStream } from 'node:fs'
import { link, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { AppError } from '../../kernel/errors.js'

export interface OutputFile {
  stream: WriteStream
  /** Give the finished file its name. */
  commit(): Promise<void>
  /** Remove the temporary file (after a failure). */
  abandon(): Promise<void>
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    (e: NodeJS.ErrnoException) => e.code !== 'ENOENT',
  )

export async function refuseExisting(path: string, flag: string): Promise<void> {
  const dir = dirname(resolve(path))
  const folder = await stat(dir).catch(() => undefined)
  if (!folder?.isDirectory()) throw new AppError('usage', `${flag}: no such folder: ${dir}`)
  if (await exists(path))
    throw new AppError('usage', `${flag}: ${path} exists already: give the path of a new file (finctl does not overwrite files)`)
}

export async function openOutputFile(path: string, flag: string): Promise<OutputFile> {
  await refuseExisting(path, flag)
  const temp = join(dirname(resolve(path)), `.${basename(path)}.${randomBytes(4).toString('hex')}.part`)
  const stream = createWriteStream(temp, { flags: 'wx' })
  await once(stream, 'open')
  const closed = () =>
    new Promise<void>((res, rej) => {
      if (stream.closed) return res()
      stream.once('error', rej)
      stream.end(() => res())
    })
  return {
    stream,
    async commit() {
      await closed()
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
        if (await exists(path)) throw new AppError('conflict', `${flag}: ${path} was created by something else meanwhile`)
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

function once(stream: WriteStream, event: 'open'): Promise<void> {
  return new Promise((res, rej) => {
    stream.once(event, () => res())
    stream.once('error', rej)
  })
}

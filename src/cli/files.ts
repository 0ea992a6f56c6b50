/**
 * The files a command reads (`tx import`, `statements upload`, `seed`, `rates import`): a regular
 * file it may read, checked before any work starts, so a mistake is a usage error (exit 2) that
 * says what the path is, not a failure halfway. The files it writes: src/jobs/output-file.ts.
 */
import type { Stats } from 'node:fs'
import { AppError } from '../kernel/errors.js'

/** Why a file named on the command line cannot be read, as a usage error (exit 2) in the user's words. */
export function unreadableFile(path: string, e: NodeJS.ErrnoException): AppError {
  if (e.code === 'EACCES') return new AppError('usage', `cannot read ${path}: permission denied`)
  if (e.code === 'ELOOP')
    return new AppError('usage', `${path} is a loop of symbolic links (each leads back to another): give the path of the file itself`)
  if (e.code === 'ENAMETOOLONG') return new AppError('usage', `${path}: the path is too long`)
  if (e.code === 'ENOTDIR') return new AppError('usage', `no such file: ${path} (a part of the path is not a folder)`)
  return new AppError('usage', `no such file: ${path}`)
}

export async function requireInputFile(path: string): Promise<Stats> {
  // Loaded when a file is named: node:fs/promises costs every command's start a few milliseconds.
  const { open, stat } = await import('node:fs/promises')
  const info = await stat(path).catch((e: NodeJS.ErrnoException) => e)
  if (info instanceof Error) throw unreadableFile(path, info)
  if (info.isDirectory()) throw new AppError('usage', `${path} is a folder: give the path of a file in it`)
  if (!info.isFile())
    throw new AppError('usage', `${path} is not a regular file (a pipe or a device): save it to a file and give that file's path`)
  // stat needs no read permission: open the file once so that an unreadable one is named now.
  const handle = await open(path, 'r').catch((e: NodeJS.ErrnoException) => e)
  if (handle instanceof Error)
    throw new AppError('usage', `cannot read ${path}: ${handle.code === 'EACCES' ? 'permission denied' : handle.message}`)
  await handle.close()
  return info
}

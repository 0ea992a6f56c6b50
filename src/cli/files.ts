/**
 * The files a command reads and writes. A file it reads (`tx import`, `statements upload`, `seed`)
 * must be a regular file; a file it writes (`--rejects`, `--env-out`) must be writable where it
 * points and must not be the file it reads. Either is checked before any work starts, so a mistake
 * is a usage error (exit 2) that says what the path is, not a failure halfway.
 */
import { realpathSync, statSync, type Stats } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { AppError } from '../kernel/errors.js'

export async function requireInputFile(path: string): Promise<Stats> {
  const info = await stat(path).catch((e: NodeJS.ErrnoException) => e)
  if (info instanceof Error) {
    if (info.code === 'EACCES') throw new AppError('usage', `cannot read ${path}: permission denied`)
    throw new AppError('usage', `no such file: ${path}`)
  }
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

/** The real path of an existing file (links followed), else its absolute path. */
function samePathAs(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}

/**
 * A file `flag` will write: its folder exists, it is not a folder itself, and it is not `input`
 * (writing it would destroy the file being read).
 */
export function requireOutputFile(path: string, flag: string, input: { path: string; what: string }): void {
  const dir = dirname(resolve(path))
  const folder = statSync(dir, { throwIfNoEntry: false })
  if (!folder?.isDirectory()) throw new AppError('usage', `${flag}: no such folder: ${dir}`)
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw new AppError('usage', `${flag}: ${path} is a folder: give the path of a file to write`)
  if (samePathAs(path) === samePathAs(input.path)) throw new AppError('usage', `${flag} must not be ${input.what}: it would be overwritten`)
}

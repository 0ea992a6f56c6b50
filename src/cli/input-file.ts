/**
 * The file a command reads (`tx import`, `statements upload`, `seed`): a regular file, or a usage
 * error that says what the path is instead (missing, a folder, a pipe or a device).
 */
import { stat } from 'node:fs/promises'
import type { Stats } from 'node:fs'
import { AppError } from '../domain/errors.js'

export async function requireInputFile(path: string): Promise<Stats> {
  const info = await stat(path).catch((e: NodeJS.ErrnoException) => e)
  if (info instanceof Error) {
    if (info.code === 'EACCES') throw new AppError('usage', `cannot read ${path}: permission denied`)
    throw new AppError('usage', `no such file: ${path}`)
  }
  if (info.isDirectory()) throw new AppError('usage', `${path} is a folder: give the path of a file in it`)
  if (!info.isFile()) throw new AppError('usage', `${path} is not a regular file (a pipe or a device): save it to a file and give that file's path`)
  return info
}

/** Read transaction ids from a file, or stdin with "-": one per line (also commas), blank lines and # comments skipped. */
import { AppError } from '../kernel/errors.js'
import type { IO } from './io.js'

export async function readIds(io: IO, path: string): Promise<string[]> {
  let text = ''
  if (path === '-') {
    for await (const chunk of io.stdin) text += chunk.toString()
  } else {
    try {
      const { readFile } = await import('node:fs/promises')
      text = await readFile(path, 'utf8')
    } catch (err) {
      throw new AppError('usage', `--ids-file: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
    }
  }
  return text
    .split(/[\r\n,]+/)
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean)
}

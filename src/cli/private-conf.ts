/**
 * A file of the config folder that holds secrets or trust (profiles, pinned pack keys): the folder
 * made 0700 where it can be, the file 0600 and written whole by conf, and never through a link,
 * since a file reached through a link could be one someone else controls.
 */
import { chmodSync, lstatSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Conf, { type Options } from 'conf'
import { AppError } from '../kernel/errors.js'
import { configDir } from './config-dir.js'

/** `name` without `.json`; `refusal` says, after "FILE is a symbolic link: ", what finctl keeps there. */
// biome-ignore lint/suspicious/noExplicitAny: conf's own constraint
export function privateConf<T extends Record<string, any>>(
  env: NodeJS.ProcessEnv,
  name: string,
  defaults: Options<T>['defaults'],
  refusal: string,
): Conf<T> {
  const dir = configDir(env)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  try {
    chmodSync(dir, 0o700)
  } catch {
    // not ours to change (a shared folder): the file itself is still 0600
  }
  const file = join(dir, `${name}.json`)
  if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) throw new AppError('usage', `${file} is a symbolic link: ${refusal}`)
  return new Conf<T>({ cwd: dir, configName: name, projectName: 'finctl', configFileMode: 0o600, defaults })
}

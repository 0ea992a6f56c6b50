/**
 * Where finctl keeps its settings and its embedded database. A module of its own, without the profile
 * store's dependencies, so that the cached completion (completion-cached.ts) can find the profiles.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.FINCTL_CONFIG_DIR) return env.FINCTL_CONFIG_DIR
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config')
  return join(base, 'finctl')
}

/** Where the embedded database lives by default. */
export function dataDir(env: NodeJS.ProcessEnv): string {
  if (env.FINCTL_DATA_DIR) return env.FINCTL_DATA_DIR
  if (env.FINCTL_CONFIG_DIR) return env.FINCTL_CONFIG_DIR
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share')
  return join(base, 'finctl')
}

export function defaultDatabase(env: NodeJS.ProcessEnv): string {
  return join(dataDir(env), 'finctl.db')
}

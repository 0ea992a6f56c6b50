/**
 * Saved CSV mappings (`tx import --save-mapping NAME`, reused with `--mapping NAME`): the column
 * map and reading options of one bank's export, kept beside the profiles in a `conf` file written
 * with mode 0600. Flags given on the command line win over a saved mapping.
 */
import Conf from 'conf'
import type { CsvMapping } from '../import/plan.js'
import { configDir, validProfileName } from './profiles.js'

/** A bank's mapping as saved: how its files are read and mapped, and the `--set field=value` constants. */
export interface SavedMapping extends CsvMapping {
  set?: Record<string, string>
}

/** A name to save a mapping under: the rule of profile names (letters, digits, `.`, `_`, `-`). */
export const validMappingName = validProfileName

export class MappingStore {
  private readonly conf: Conf<{ mappings: Record<string, SavedMapping> }>

  constructor(env: NodeJS.ProcessEnv) {
    // ProfileStore has made the folder 0700 already when a command runs; conf creates it otherwise.
    this.conf = new Conf({
      cwd: configDir(env),
      configName: 'mappings',
      projectName: 'finctl',
      configFileMode: 0o600,
      defaults: { mappings: {} },
    })
  }

  get(name: string): SavedMapping | undefined {
    const all = this.conf.get('mappings')
    // Own names only: `toString` or `__proto__` name no saved mapping.
    return Object.hasOwn(all, name) ? all[name] : undefined
  }

  list(): Record<string, SavedMapping> {
    return this.conf.get('mappings')
  }

  save(name: string, m: SavedMapping): void {
    const clean = Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)))
    this.conf.set('mappings', { ...this.list(), [name]: clean })
  }
}

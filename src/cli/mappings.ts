/**
 * Saved CSV mappings (`tx import --save-mapping NAME`, reused with `--mapping NAME`): the column
 * map and reading options of one bank's export, kept beside the profiles in a `conf` file written
 * with mode 0600. Flags given on the command line win over a saved mapping. A mapping remembers the
 * header of the file it was made from, so that `tx import` finds it for the bank's next file by
 * itself (docs/csv-mapping.md, "Banks recognised").
 */
import Conf from 'conf'
import type { CsvMapping } from '../import/plan.js'
import { readRecordsBytes, readSample, sniffLayoutBytes } from '../import/read-rows.js'
import { configDir, validProfileName } from './profiles.js'

/** The file a mapping was made from: its header row, and how it was read. */
export interface MappingSource {
  header: string[]
  encoding: string
  delimiter: string
  saved_at: string
}

/** A bank's mapping as saved: how its files are read and mapped, and the `--set field=value` constants. */
export interface SavedMapping extends CsvMapping {
  set?: Record<string, string>
  /** Absent from mappings saved before finctl recognised banks: those are used by name alone. */
  source?: MappingSource
}

/** Lines a header may follow (preamble lines), as the plan looks for it. */
const HEADER_WITHIN = 50

/** A header as compared: cells trimmed, trailing empty cells (a line ending in the delimiter) dropped. */
function headerKey(cells: readonly string[]): string {
  const t = cells.map((c) => c.replace(/^\uFEFF/, '').trim())
  while (t.length && t[t.length - 1] === '') t.pop()
  return JSON.stringify(t)
}

/**
 * The names of the saved mappings whose header is a row among the first lines of the file, read
 * with that mapping's encoding and delimiter (a file that cannot be read so matches nothing).
 */
export async function mappingsMatching(file: string, all: Record<string, SavedMapping>): Promise<string[]> {
  const withSource = Object.entries(all).filter(([, m]) => m.source?.header?.length)
  if (withSource.length === 0) return []
  const sample = await readSample(file)
  const found: string[] = []
  for (const [name, m] of withSource) {
    const src = m.source as MappingSource
    const want = headerKey(src.header)
    try {
      const layout = sniffLayoutBytes(sample, { encoding: src.encoding, delimiter: src.delimiter })
      let n = 0
      for await (const rec of readRecordsBytes(sample, layout)) {
        if (headerKey(rec.fields) === want) {
          found.push(name)
          break
        }
        if (++n >= HEADER_WITHIN) break
      }
    } catch {
      // not readable with this mapping's encoding or delimiter: not its bank
    }
  }
  return found.sort()
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

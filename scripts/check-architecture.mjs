#!/usr/bin/env node
// Every folder of src/ and commands/ is named in ARCHITECTURE.md, so that the map keeps up with
// the tree. A folder is named by its path (`src/jobs/pack/`, `commands/close/`), by its last two
// names (`store/sqlite/`, `domain/accounts`), or, below src/X/ and commands/X/, by its own name
// with a slash in backticks (`accounts/` in the aggregates' table, `sqlite/` in the store's). A
// folder of src/ or commands/ itself (`src/mcp/`, `commands/tx/`) needs its path. Prints each
// folder missing and exits 1; `npm run check` runs it.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const literal = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Whether `text` names the folder `path` (`src/store/sqlite`), by the rules above. */
export function names(text, path) {
  const parts = path.split('/')
  const tail = parts.slice(-2).join('/')
  // A path token ending with the folder's last two names: not inside a longer name on either side.
  const byPath = new RegExp(String.raw`(?<![\w.-])(?:[\w.-]+/)*${literal(tail)}(?![\w.-]|/[\w-]+/)`)
  if (byPath.test(text)) return true
  return parts.length > 2 && text.includes(`\`${parts.at(-1)}/`)
}

/** The folders of `text`'s tree missing from it: `folders` relative to the root. */
export function missingFolders(text, folders) {
  return folders.filter((f) => !names(text, f))
}

/** The folders under src/ and commands/ of `root`, sorted. */
export function foldersOf(root) {
  return ['src', 'commands']
    .filter((d) => existsSync(join(root, d)))
    .flatMap((d) =>
      readdirSync(join(root, d), { recursive: true, withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => relative(root, join(e.parentPath, e.name))),
    )
    .sort()
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // The project's checkout, or another given as the argument (the tests check a copy).
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'))
  const folders = foldersOf(root)
  const missing = missingFolders(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8'), folders)
  for (const f of missing) process.stderr.write(`${f}/: not named in ARCHITECTURE.md\n`)
  if (missing.length) {
    process.stderr.write(
      `check-architecture: ${missing.length} folder(s) of src/ or commands/ missing from ARCHITECTURE.md: say where each belongs (its path, or its name in its parent's section)\n`,
    )
    process.exit(1)
  }
  process.stdout.write(`check-architecture: the ${folders.length} folders of src/ and commands/ are named in ARCHITECTURE.md\n`)
}

/**
 * Writes the generated parts of the manual: `tsx scripts/docs.ts commands` (docs/commands/, from the
 * command tree) and `tsx scripts/docs.ts openapi` (docs/openapi.json, from the app's schemas).
 * `npm run docs:commands`, `npm run docs:openapi`; `npm run docs` does both.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { commandTree, REFERENCE_DIR, renderCommandReference } from './docs/command-reference.js'
import { OPENAPI_FILE, openApiDocument } from './docs/openapi-document.js'

const ROOT = resolve(import.meta.dirname, '..')
const what = process.argv.slice(2)
const all = what.length === 0

if (all || what.includes('commands')) {
  const dir = join(ROOT, REFERENCE_DIR)
  mkdirSync(dir, { recursive: true })
  const pages = renderCommandReference(await commandTree())
  // A page of a command that no longer exists goes too.
  for (const name of readdirSync(dir)) if (name.endsWith('.md') && !pages.has(name)) rmSync(join(dir, name))
  for (const [name, text] of pages) writeFileSync(join(dir, name), text)
  process.stdout.write(`${REFERENCE_DIR}: ${pages.size} pages\n`)
}
if (all || what.includes('openapi')) {
  writeFileSync(join(ROOT, OPENAPI_FILE), await openApiDocument())
  process.stdout.write(`${OPENAPI_FILE}\n`)
}

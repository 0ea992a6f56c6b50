/**
 * The statement formats' table (src/kernel/statement-formats.ts) is the one list: the API's enums,
 * `--format`, completion, detection by name, help and the fuzz tests (never-throws.test.ts) all
 * follow it, so a row added there shows up everywhere without another list to edit.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { programCompletionTree } from '../../commands/completion-tree-of-program.js'
import { FORMATS } from '../../commands/statements/shared.js'
import { completeFromTree } from '../../src/cli/completion-tree.js'
import { detectFormat, PARSERS } from '../../src/import/statements/index.js'
import { formatNames, STATEMENT_FORMAT, STATEMENT_FORMATS } from '../../src/kernel/statement-formats.js'

const openapi = JSON.parse(readFileSync(join(import.meta.dirname, '../../docs/openapi.json'), 'utf8'))

/** The `format` enums of the statement schemas in the OpenAPI document (the resource and the upload's). */
function formatEnums(): unknown[][] {
  const schemas = openapi.components.schemas as Record<string, { properties?: Record<string, { enum?: unknown[] }> }>
  return Object.entries(schemas)
    .filter(([name, schema]) => name.startsWith('Statement') && schema.properties?.format?.enum)
    .map(([, schema]) => schema.properties?.format?.enum ?? [])
}

describe('the statement formats, one table', () => {
  it('the API answers and accepts exactly its formats', () => {
    const enums = formatEnums()
    expect(enums.length).toBeGreaterThanOrEqual(2)
    for (const e of enums) expect(e).toEqual([...STATEMENT_FORMATS])
  })

  it('`statements upload --format` takes and completes exactly its formats', async () => {
    expect([...FORMATS]).toEqual([...STATEMENT_FORMATS])
    let text = ''
    completeFromTree(await programCompletionTree(), ['--', 'statements', 'upload', '--format', ''], {}, { write: (s) => (text += s) })
    const offered = text
      .split('\n')
      .filter((l) => l && !l.startsWith(':'))
      .map((l) => l.split('\t')[0])
    expect(offered.sort()).toEqual([...STATEMENT_FORMATS].sort())
  })

  it('a file is known by each extension of its format; every parsed format has a parser', () => {
    for (const f of STATEMENT_FORMATS) {
      for (const ext of STATEMENT_FORMAT[f].extensions) expect(detectFormat(new Uint8Array(), `statement${ext.toUpperCase()}`), ext).toBe(f)
    }
    const parsed = STATEMENT_FORMATS.filter((f) => STATEMENT_FORMAT[f].parsed)
    expect(PARSERS.map((p) => p.format).sort()).toEqual([...parsed].sort())
  })

  it('help names every format once, QFX as OFX’s dialect', () => {
    expect(formatNames()).toBe('CSV, OFX/QFX, QIF, CAMT.053, CAMT.054 or MT940')
    expect(formatNames('parsed')).toBe('OFX/QFX, QIF, CAMT.053, CAMT.054 or MT940')
  })
})

/** Every exit code of src/cli/exit-codes.ts is in the README's, scripting.md's and cli.md's list of them. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EXIT } from '../../src/cli/exit-codes.js'

const ROOT = join(import.meta.dirname, '../..')
const read = (page: string) => readFileSync(join(ROOT, page), 'utf8')

/** The text of a page from `start` up to the next heading. */
function part(page: string, start: string): string {
  const md = read(page)
  const at = md.indexOf(start)
  expect(at, `${page}: "${start}"`).toBeGreaterThanOrEqual(0)
  const next = md.slice(at + start.length).search(/^#/m)
  return next < 0 ? md.slice(at) : md.slice(at, at + start.length + next)
}

/** The codes of EXIT a text leaves out (a code counts when it stands as a number of its own). */
const missing = (text: string) =>
  [...new Set(Object.values(EXIT))].filter((code) => !new RegExp(String.raw`(?<![\d.,])${code}(?!\d|[.,]\d)`).test(text))

describe('the exit codes in the docs', () => {
  it('the README names every code', () => {
    expect(missing(part('README.md', 'Exit codes: 0 ok'))).toEqual([])
  })

  it('scripting.md names every code', () => {
    expect(missing(part('docs/scripting.md', '## Exit codes'))).toEqual([])
  })

  it("cli.md's contract names every code", () => {
    expect(missing(part('docs/cli.md', '- Exit codes: 0 ok'))).toEqual([])
  })
})

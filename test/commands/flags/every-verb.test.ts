/**
 * Every verb that takes a runF has its flag parsing tested in this folder: a new verb's module is
 * imported by the test file of its group, or this fails naming it.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : []
  })
}

describe('flag-parsing tests', () => {
  it('import every verb module whose register function takes a runF', () => {
    const verbs = sources(join(ROOT, 'commands'))
      .filter((f) => /\brunF: RunVerb</.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f).replace(/\.ts$/, '.js'))
    const tests = readdirSync(import.meta.dirname)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => readFileSync(join(import.meta.dirname, f), 'utf8'))
      .join('\n')
    expect(verbs.length).toBeGreaterThan(0)
    expect(verbs.filter((v) => !tests.includes(`'../../../${v}'`))).toEqual([])
  })
})

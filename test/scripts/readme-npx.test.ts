/**
 * `npx finctl` outside the clone asks the public registry (npm error 404): the README and the
 * install page say it works only inside the clone and what to use elsewhere.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')
const flat = (path: string) => readFileSync(join(ROOT, path), 'utf8').replace(/\s+/g, ' ')

describe('npx finctl, outside the clone', () => {
  it('the README says npx works only inside the clone, and names npm run link and docs/install.md', () => {
    const readme = flat('README.md')
    expect(readme).toContain('`npx finctl` works only inside the clone')
    expect(readme).toMatch(/outside it use `npm run link` or see \[docs\/install\.md\]\(docs\/install\.md\)/)
  })

  it('the install page says the same', () => {
    expect(flat('docs/install.md')).toContain('`npx finctl` works only inside the clone')
  })
})

/** Links between the README, CONTRIBUTING, ARCHITECTURE and the manual lead to a file that exists, and to a heading it has. */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')

function pages(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    )
  return ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', ...walk('docs')]
}

const withoutCode = (md: string) => md.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '')

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to dashes. */
export function anchors(md: string): Set<string> {
  const out = new Set<string>()
  for (const m of withoutCode(md).matchAll(/^#+\s+(.+)$/gm))
    out.add(
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}_\- ]/gu, '')
        .replace(/ /g, '-'),
    )
  return out
}

describe('links of the manual', () => {
  it('computes anchors as GitHub does', () => {
    expect(anchors('# Prefer: return=minimal\n## 5. Bank accounts (`/api-v1`)\n```sh\n# not a heading\n```\n')).toEqual(
      new Set(['prefer-returnminimal', '5-bank-accounts-api-v1']),
    )
  })

  it('lead to files and headings that exist', () => {
    const broken: string[] = []
    for (const page of pages()) {
      for (const m of withoutCode(readFileSync(join(ROOT, page), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1]
        if (/^[a-z]+:/.test(link)) continue
        const [path, fragment] = link.split('#')
        const target = path ? normalize(join(dirname(page), path)) : page
        if (!existsSync(join(ROOT, target))) broken.push(`${page}: ${link} (no such file)`)
        else if (fragment && target.endsWith('.md') && !anchors(readFileSync(join(ROOT, target), 'utf8')).has(fragment))
          broken.push(`${page}: ${link} (no such heading)`)
      }
    }
    expect(broken).toEqual([])
  })
})

/** The layer check of CI (scripts/check-layers.mjs): it finds upward imports and circles, and the project has none. */
import { execFileSync, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain JavaScript script without type declarations
import { checkLayers, importsOf } from '../../scripts/check-layers.mjs'

const ROOT = join(import.meta.dirname, '../..')
const check = (files: Record<string, string>): string[] => checkLayers(new Map(Object.entries(files)))

describe('the layer check', () => {
  it('reads static, type-only, re-exported and dynamic imports, not commented ones', () => {
    const text = [
      "import { a } from './a.js'",
      "import type { B } from '../b.js'",
      "export { c } from './c.js'",
      "export * from './d.js'",
      "const e = await import('./e.js')",
      "// import { f } from './f.js'",
      '/* import { g } from "./g.js" */',
      "import { readFileSync } from 'node:fs'",
    ].join('\n')
    expect(importsOf('src/domain/x.ts', text).map((i: { target: string }) => i.target)).toEqual([
      'src/domain/a.ts',
      'src/b.ts',
      'src/domain/c.ts',
      'src/domain/d.ts',
      'src/domain/e.ts',
    ])
  })

  it('refuses an import from a floor above, naming the file, the line and the rule', () => {
    const problems = check({
      'src/kernel/money.ts': 'export const m = 1\n',
      'src/cli/context.ts': "import { m } from '../kernel/money.js'\n",
      'src/domain/rules.ts': "import { m } from '../kernel/money.js'\nimport type { C } from '../cli/context.js'\n",
    })
    expect(problems).toEqual([
      'src/domain/rules.ts:2: imports src/cli/context.ts, a floor above (domain may import only its own floor and those below)',
    ])
  })

  it('finds a circle, also of type-only imports on one floor', () => {
    const problems = check({
      'src/domain/a.ts': "import type { B } from './b.js'\n",
      'src/domain/b.ts': "import type { C } from './c.js'\n",
      'src/domain/c.ts': "import { a } from './a.js'\n",
      'src/domain/d.ts': "import { a } from './a.js'\n",
    })
    expect(problems).toEqual(['import circle: src/domain/a.ts -> src/domain/b.ts -> src/domain/c.ts -> src/domain/a.ts'])
  })

  it('names a module on no floor', () => {
    expect(check({ 'src/elsewhere/x.ts': '' })).toEqual([
      'src/elsewhere/x.ts: on no floor of ARCHITECTURE.md (add its folder to FLOORS in scripts/check-layers.mjs)',
    ])
  })

  it('passes on the project itself, and exits 1 on a violation', () => {
    expect(execFileSync(process.execPath, [join(ROOT, 'scripts/check-layers.mjs')], { encoding: 'utf8' })).toMatch(
      /no circle, no upward import/,
    )
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        "import('./scripts/check-layers.mjs').then((m) => process.exit(m.checkLayers(new Map([['src/kernel/x.ts', \"import './../cli/y.js'\"], ['src/cli/y.ts', '']])).length ? 1 : 0))",
      ],
      { cwd: ROOT },
    )
    expect(r.status).toBe(1)
  })
})

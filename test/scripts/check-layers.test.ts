/** The layer check of CI (scripts/check-layers.mjs): it finds upward imports and circles, and the project has none. */
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain JavaScript script without type declarations
import { checkLayers, importsOf } from '../../scripts/check-layers.mjs'

const ROOT = join(import.meta.dirname, '../..')
const check = (files: Record<string, string>): string[] => checkLayers(new Map(Object.entries(files)))

/** The project's own modules, path -> text, as the script reads them. */
function projectFiles(): Map<string, string> {
  const files = new Map<string, string>()
  for (const dir of ['src', 'commands'])
    for (const entry of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true }))
      if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const path = join(entry.parentPath, entry.name)
        files.set(relative(ROOT, path), readFileSync(path, 'utf8'))
      }
  return files
}

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

  it('refuses a module over 450 lines, and a domain module that names a store dialect', () => {
    const long = `${'export const x = 1\n'.repeat(451)}`
    expect(check({ 'src/kernel/long.ts': long })).toEqual(['src/kernel/long.ts: 451 lines, over 450: split it where a concept ends'])
    expect(check({ 'src/kernel/ok.ts': 'export const x = 1\n'.repeat(450) })).toEqual([])
    const domain = {
      'src/domain/a.ts': "// sqlite's planner, said in a comment, is fine\nif (store.dialect === 'postgres') q = q.forUpdate()\n",
      'src/store/b.ts': "export const d = 'sqlite'\n",
    }
    expect(check(domain)).toEqual(['src/domain/a.ts:2: names a store dialect: ask store.sql or store.writes instead'])
  })

  it('refuses a domain module importing sql from kysely, and allows its types', () => {
    const files = {
      'src/domain/raw.ts': "import { sql, type Kysely } from 'kysely'\nexport const none = sql`1 = 0`\n",
      'src/domain/renamed.ts': "import type { Db } from '../store/schema.js'\nimport { sql as q } from 'kysely'\n",
      'src/domain/whole.ts': "import * as k from 'kysely'\n",
      'src/domain/types.ts':
        "import type { Kysely, RawBuilder } from 'kysely'\nimport { type ExpressionBuilder, type sql } from 'kysely'\n",
      'src/domain/said.ts': "// the old way: import { sql } from 'kysely'\nexport const x = 1\n",
      'src/store/fragments.ts': "import { sql } from 'kysely'\nexport const noRows = () => sql`1 = 0`\n",
    }
    const why = 'imports sql from kysely: raw SQL goes in src/store (fragments.ts, queries.ts), called by name'
    expect(check(files)).toEqual([`src/domain/raw.ts:1: ${why}`, `src/domain/renamed.ts:2: ${why}`, `src/domain/whole.ts:1: ${why}`])
  })

  it('refuses a client module loading a route group (its schemas), and allows its types and paths.ts', () => {
    const files = {
      'src/api/paths.ts': 'export const budgetsPaths = {}\n',
      'src/api/routes/budgets.ts': 'export const budgetsApi = {}\n',
      'src/client/budgets.ts':
        "import { budgetsPaths } from '../api/paths.js'\nimport type { budgetsApi } from '../api/routes/budgets.js'\nimport { type budgetsApi as B } from '../api/routes/budgets.js'\n",
      'src/client/loads.ts': "import { budgetsApi } from '../api/routes/budgets.js'\n",
      'src/client/later.ts': "export const load = () => import('../api/routes/budgets.js')\n",
    }
    const why =
      "the client imports the routes' definitions as types (import type) and their paths from src/api/paths.ts, so that it loads no schema"
    expect(check(files)).toEqual([
      `src/client/loads.ts:1: loads src/api/routes/budgets.ts: ${why}`,
      `src/client/later.ts:1: loads src/api/routes/budgets.ts: ${why}`,
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

  it('names a module on no floor, and a domain folder in no aggregate', () => {
    expect(check({ 'src/elsewhere/x.ts': '', 'src/domain/payroll/x.ts': '' })).toEqual([
      'src/elsewhere/x.ts: on no floor of ARCHITECTURE.md (add its folder to FLOORS in scripts/check-layers.mjs)',
      'src/domain/payroll/x.ts: in no aggregate of ARCHITECTURE.md (add its folder to AGGREGATES in scripts/check-layers.mjs)',
    ])
  })

  it('lets a domain aggregate import those below it and the shared root, and refuses one above', () => {
    const problems = check({
      'src/domain/schemas.ts': 'export const s = 1\n',
      'src/domain/accounts/companies.ts': "import { s } from '../schemas.js'\n",
      'src/domain/transactions/rows.ts': "import { c } from '../accounts/companies.js'\n",
      'src/domain/statements/match.ts': "import type { R } from '../transactions/rows.js'\n",
      'src/domain/rates/rates.ts': "import { s } from '../schemas.js'\nimport type { R } from '../transactions/rows.js'\n",
      'src/domain/sums.ts': "const m = await import('./statements/match.js')\n",
    })
    expect(problems).toEqual([
      'src/domain/rates/rates.ts:2: imports src/domain/transactions/rows.ts, an aggregate above (rates may import only its own aggregate and those below)',
      'src/domain/sums.ts:1: imports src/domain/statements/match.ts, an aggregate above (shared may import only its own aggregate and those below)',
    ])
  })

  it('fails on the project with one deliberate upward import between aggregates (accounts -> statements)', () => {
    const files = projectFiles()
    expect(checkLayers(files)).toEqual([])
    const companies = 'src/domain/accounts/companies.ts'
    const text = files.get(companies)!
    files.set(companies, `${text}export { toStatement } from '../statements/statements.js'\n`)
    // (the import also closes a circle through transactions, which the check names too)
    expect(checkLayers(files)).toContain(
      `${companies}:${text.split('\n').length}: imports src/domain/statements/statements.ts, an aggregate above (accounts may import only its own aggregate and those below)`,
    )
  })

  describe('npm run check:layers on a copy of the project', () => {
    let copy: string
    beforeAll(() => {
      copy = mkdtempSync(join(tmpdir(), 'finctl-layers-'))
      for (const dir of ['src', 'commands']) cpSync(join(ROOT, dir), join(copy, dir), { recursive: true })
    })
    afterAll(() => rmSync(copy, { recursive: true, force: true }))

    it('exits 1 naming a domain module that imports sql from kysely', () => {
      const run = () => spawnSync(process.execPath, [join(ROOT, 'scripts/check-layers.mjs'), copy], { encoding: 'utf8' })
      expect(run().status).toBe(0)
      const file = join(copy, 'src/domain/reports/raw.ts')
      writeFileSync(file, "import { type Kysely, sql } from 'kysely'\nexport const n = sql<number>`count(*)`\n")
      const r = run()
      rmSync(file)
      expect(r.status).toBe(1)
      expect(r.stderr).toContain('src/domain/reports/raw.ts:1: imports sql from kysely: raw SQL goes in src/store')
      expect(run().status).toBe(0)
    })

    it('exits 1 naming an upward import between aggregates (transactions -> statements)', () => {
      const run = () => spawnSync(process.execPath, [join(ROOT, 'scripts/check-layers.mjs'), copy], { encoding: 'utf8' })
      expect(run().status).toBe(0)
      const file = join(copy, 'src/domain/transactions/queries.ts')
      writeFileSync(file, `import type { StatementUpload } from '../statements/statements.js'\n${readFileSync(file, 'utf8')}`)
      const r = run()
      expect(r.status).toBe(1)
      expect(r.stderr).toContain(
        'src/domain/transactions/queries.ts:1: imports src/domain/statements/statements.ts, an aggregate above (transactions may import only its own aggregate and those below)',
      )
    })
  })

  it('passes on the project itself, and exits 1 on a violation', () => {
    expect(execFileSync(process.execPath, [join(ROOT, 'scripts/check-layers.mjs')], { encoding: 'utf8' })).toMatch(
      /no circle, no upward import \(floors and domain aggregates\)/,
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

// What the commands a user runs most load of the bundle, read from the launcher's code cache (one
// entry a chunk the command ran) and each chunk's source map: the code of the approval steps (every
// step a policy may hold, and what applies them) and of an import's review stays out of `keys show`
// and `tx list`. Each was in their start once, through a static import, and cost about a quarter of
// `keys show`'s time (docs/performance.md, "Start-up guards").
import { readFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, Sandbox } from '../helpers/cli.js'

/** Heavy code a start should not load, by source path. */
const HEAVY = [
  'src/domain/approvals/steps.ts',
  'src/domain/approvals/proposals.ts',
  'src/domain/imports/review.ts',
  'src/domain/imports/review-schemas.ts',
  'src/domain/imports/revert.ts',
  'src/api/routes/approvals.ts',
  // The approval policy and schemas, a key's usage statistics, and the approvals' command output:
  // loaded when a key is created, its usage asked for, or a step proposed.
  'src/domain/approvals/policy.ts',
  'src/domain/approvals/schemas.ts',
  'src/domain/approvals/registry.ts',
  'src/domain/approvals/step-schemas.ts',
  'src/domain/approvals/key-request.ts',
  'src/domain/api-keys/usage-stats.ts',
  'commands/approvals/shared.ts',
  'commands/approvals/effect.ts',
  // The transactions' writes, a route group apart that loads with the first write.
  'src/api/routes/transaction-writes.ts',
]

describe('the modules a start loads', () => {
  const sb = new Sandbox('start-modules', { ownCache: true })
  const cache = () => join(sb.dir, '.cache', 'finctl', 'code-cache')

  /** The source files of the chunks `args` ran (fresh cache each time). */
  async function loaded(args: string[]): Promise<Set<string>> {
    rmSync(cache(), { recursive: true, force: true })
    await sb.ok(args)
    const node = join(cache(), `${process.version}-${process.arch}`)
    const [install] = readdirSync(node)
    const sources = new Set<string>()
    for (const entry of readdirSync(join(node, install)).filter((f) => f.endsWith('.v8'))) {
      const chunk = entry.slice(0, entry.indexOf('.')).replace('#', '-')
      const map = join(ROOT, 'dist', chunk === 'cli' || chunk.startsWith('cli-') ? 'cli.cjs.map' : `chunks/${chunk}.cjs.map`)
      // The bundler's own runtime has no map (nor sources of ours).
      if (chunk.startsWith('rolldown-runtime-')) continue
      for (const s of (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources) sources.add(s.replace(/^(\.\.\/)+/, ''))
    }
    return sources
  }

  beforeAll(async () => {
    await sb.ok(['init', '--demo', '--no-input'])
  })
  afterAll(() => sb.cleanup())

  it('keys show and tx list load none of the approval steps or the import review', async () => {
    for (const args of [
      ['keys', 'show'],
      ['tx', 'list'],
    ]) {
      const sources = await loaded(args)
      // The reading works: the command's own code and the core are there.
      expect(sources, args.join(' ')).toContain('src/api/app.ts')
      for (const heavy of HEAVY) expect(sources.has(heavy), `${args.join(' ')} loads ${heavy}`).toBe(false)
    }
  })

  it('keys usage loads its statistics', async () => {
    expect(await loaded(['keys', 'usage'])).toContain('src/domain/api-keys/usage-stats.ts')
  })

  it('a bulk change loads the steps when it needs them', async () => {
    const [row] = JSON.parse((await sb.ok(['tx', 'list', '--json'])).stdout) as Array<{ id: string }>
    const sources = await loaded(['tx', 'bulk-delete', '--ids', row.id, '--yes'])
    expect(sources).toContain('src/domain/approvals/steps.ts')
  })
})

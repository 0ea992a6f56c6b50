// The launcher's code cache of the bundle's chunks (bin/code-cache.cjs): what a command keeps, when it
// keeps it again, and that a damaged, stale or unwritable cache costs nothing but the saving.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Sandbox } from '../helpers/cli.js'

describe('the code cache of the bundle', () => {
  const sb = new Sandbox('code-cache', { ownCache: true })
  const root = () => join(sb.dir, '.cache', 'finctl', 'code-cache')
  const node = () => join(root(), `${process.version}-${process.arch}`)
  /** This install's folder: the one folder under this Node.js's (the tests make no other). */
  const folder = () => {
    const installs = readdirSync(node())
    expect(installs).toHaveLength(1)
    return join(node(), installs[0])
  }
  const entries = () => readdirSync(folder()).filter((f) => f.endsWith('.v8'))
  const index = (): Record<string, string[]> => JSON.parse(readFileSync(join(folder(), 'index.json'), 'utf8'))
  const zod = () => {
    const found = entries().filter((f) => f.startsWith('zod#'))
    expect(found).toHaveLength(1)
    return found[0]
  }
  const listed = async (args: string[]) => JSON.parse((await sb.ok([...args, '--json'])).stdout)

  beforeAll(async () => {
    await sb.ok(['init', '--no-input'])
  })
  beforeEach(() => rmSync(join(sb.dir, '.cache'), { recursive: true, force: true }))
  afterAll(() => sb.cleanup())

  it('keeps each chunk a command ran, readable by its user only, and again only for a command it has not held', async () => {
    const key = await listed(['keys', 'show'])
    const kept = entries()
    expect(kept.length).toBeGreaterThan(10)
    expect(kept).toContain(zod())
    expect(statSync(folder()).mode & 0o777).toBe(0o700)
    for (const e of kept) {
      expect(statSync(join(folder(), e)).mode & 0o777, e).toBe(0o600)
      expect(index()[e], e).toEqual(['keys show'])
    }
    const written = new Map(kept.map((e) => [e, statSync(join(folder(), e)).mtimeMs]))

    // The same command again: V8 takes every entry (one it refused would be written again).
    expect((await listed(['keys', 'show'])).id).toBe(key.id)
    for (const e of kept) expect(statSync(join(folder(), e)).mtimeMs, e).toBe(written.get(e))

    // Another command: the chunks it shares are kept again, holding both.
    await listed(['tx', 'list'])
    expect(index()[zod()]).toEqual(['keys show', 'tx list'])
    expect(statSync(join(folder(), zod())).mtimeMs).not.toBe(written.get(zod()))
  })

  it('finctl serve writes the entries it lacks, and adds nothing to those of other commands', async () => {
    await listed(['keys', 'show'])
    const before = new Map(entries().map((e) => [e, statSync(join(folder(), e)).mtimeMs]))
    await sb.ok(['serve', '--help'])
    const after = entries()
    expect(after.length).toBeGreaterThan(before.size)
    for (const e of after) {
      if (before.has(e)) {
        expect(index()[e], e).toEqual(['keys show'])
        expect(statSync(join(folder(), e)).mtimeMs, e).toBe(before.get(e))
      } else expect(index()[e], e).toEqual(['serve'])
    }
  })

  it('a damaged entry is refused, the command answers as ever, and the entry is written again', async () => {
    const clean = await listed(['tx', 'list'])
    const file = join(folder(), zod())
    const garbage = Buffer.alloc(statSync(file).size, 0x5a)
    writeFileSync(file, garbage)
    expect(await listed(['tx', 'list'])).toEqual(clean)
    expect(readFileSync(file).equals(garbage)).toBe(false)
    expect(index()[zod()]).toEqual(['tx list'])

    // An index that is not one, or holds nonsense for an entry: the entries are kept again.
    for (const damaged of ['not json', JSON.stringify({ [zod()]: 5 })]) {
      writeFileSync(join(folder(), 'index.json'), damaged)
      expect(await listed(['tx', 'list'])).toEqual(clean)
      expect(index()[zod()]).toEqual(['tx list'])
    }
  })

  it("an earlier build's entry of a chunk is removed when the chunk is kept again", async () => {
    await listed(['keys', 'show'])
    const stale = 'zod#AAAAAAAA.1234.v8'
    writeFileSync(join(folder(), stale), 'old')
    writeFileSync(join(folder(), 'index.json'), JSON.stringify({ ...index(), [stale]: ['keys show'] }))
    await listed(['tx', 'list'])
    expect(existsSync(join(folder(), stale))).toBe(false)
    expect(index()[stale]).toBeUndefined()
    expect(existsSync(join(folder(), zod()))).toBe(true)
  })

  it('chunks of the same name (one schemas chunk per aggregate) keep their entries side by side', async () => {
    // keys show and tx list each run a different "schemas-<hash>" chunk: taking one for an earlier
    // build of the other made each command compile and keep it again after the other had run.
    await listed(['keys', 'show'])
    await listed(['tx', 'list'])
    const schemas = entries().filter((e) => e.startsWith('schemas#'))
    expect(schemas.length).toBeGreaterThanOrEqual(2)
    const written = new Map(entries().map((e) => [e, statSync(join(folder(), e)).mtimeMs]))
    await listed(['keys', 'show'])
    await listed(['tx', 'list'])
    expect(entries().sort()).toEqual([...written.keys()].sort())
    for (const [e, mtime] of written) expect(statSync(join(folder(), e)).mtimeMs, e).toBe(mtime)
  })

  it("another install's or Node.js's folder goes once unused for 30 days, not before", async () => {
    const old = join(root(), 'v0.0.0-x64', 'otherinstall')
    const recent = join(node(), 'otherinstall')
    for (const [dir, age] of [
      [old, 31],
      [recent, 29],
    ] as const) {
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, 'index.json'), '{}')
      const then = new Date(Date.now() - age * 24 * 3600 * 1000)
      utimesSync(join(dir, 'index.json'), then, then)
    }
    await listed(['keys', 'show'])
    expect(existsSync(join(root(), 'v0.0.0-x64'))).toBe(false)
    expect(existsSync(recent)).toBe(true)
    rmSync(recent, { recursive: true })
  })

  it('a cache folder that cannot be made costs nothing but the saving', async () => {
    mkdirSync(join(sb.dir, '.cache', 'finctl'), { recursive: true })
    writeFileSync(root(), 'a file where the folder would be')
    const r = await sb.run(['keys', 'show', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
    JSON.parse(r.stdout)
  })

  it('NODE_DISABLE_COMPILE_CACHE turns it off', async () => {
    await sb.ok(['keys', 'show'], { env: { NODE_DISABLE_COMPILE_CACHE: '1' } })
    expect(existsSync(root())).toBe(false)
  })
})

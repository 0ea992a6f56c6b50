// What a command on the embedded target loads: never Node's web Request, Response or Headers. Their
// first use loads Node's fetch machinery (undici, web streams), about 20 ms of every start; the
// embedded transport answers with src/embedded/in-process.ts instead.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox } from '../helpers/cli.js'

describe('an embedded command', () => {
  const sb = new Sandbox('startup')
  let probe: string

  beforeAll(async () => {
    await sb.ok(['init', '--no-input'])
    // A preload that says, as the process exits, whether Node's fetch machinery (its internal
    // undici, which every web Request, Response, Headers or FormData loads on first use) was loaded.
    // On Node 20 those globals were getters; from Node 22 they are lazy data properties that load it
    // as soon as anything looks at them, so the probe reads Node's own list of loaded modules.
    probe = join(sb.dir, 'probe.mjs')
    writeFileSync(
      probe,
      `import { writeSync } from 'node:fs'
process.on('exit', () => {
  const loaded = process.moduleLoadList.includes('NativeModule internal/deps/undici/undici')
  writeSync(2, 'TOUCHED[' + (loaded ? 'fetch' : '') + ']\\n')
})
`,
    )
  })
  afterAll(() => sb.cleanup())

  for (const args of [
    ['keys', 'show'],
    ['tx', 'list', '--limit', '5'],
    ['accounts', 'list'],
  ]) {
    it(`\`finctl ${args.join(' ')}\` answers without loading Node's web classes`, async () => {
      const r = await sb.run([...args, '--json'], { env: { NODE_OPTIONS: `--import ${probe}` } })
      expect(r.code, r.stderr).toBe(0)
      JSON.parse(r.stdout)
      expect(r.stderr).toContain('TOUCHED[]')
    })
  }

  it('the probe records a read of globalThis.Response (so the checks above can fail)', async () => {
    const script = join(sb.dir, 'touch.mjs')
    writeFileSync(script, 'void globalThis.Response\n')
    const { spawnSync } = await import('node:child_process')
    const r = spawnSync(process.execPath, ['--import', probe, script], { encoding: 'utf8' })
    expect(r.stderr).toContain('TOUCHED[fetch]')
  })
})

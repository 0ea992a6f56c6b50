// What a command on the embedded target loads: never Node's web Request, Response or Headers. Their
// first use loads Node's fetch machinery (undici, web streams), about 20 ms of every start; the
// embedded transport answers with src/api/in-process.ts instead.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox } from '../helpers/cli.js'

describe('an embedded command', () => {
  const sb = new Sandbox('startup')
  let probe: string

  beforeAll(async () => {
    await sb.ok(['init', '--no-input'])
    // A preload that records which of Node's lazily loaded web globals anything reads.
    probe = join(sb.dir, 'probe.mjs')
    writeFileSync(
      probe,
      `import { writeSync } from 'node:fs'
const touched = new Set()
for (const name of ['Request', 'Response', 'Headers', 'FormData']) {
  const d = Object.getOwnPropertyDescriptor(globalThis, name)
  if (!d || !d.get) { touched.add(name + '(already loaded)'); continue }
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: d.enumerable,
    get() { touched.add(name); return d.get.call(this) },
    set(v) { d.set.call(this, v) },
  })
}
process.on('exit', () => writeSync(2, 'TOUCHED[' + [...touched].join(',') + ']\\n'))
`,
    )
  })
  afterAll(() => sb.cleanup())

  for (const args of [['keys', 'show'], ['tx', 'list', '--limit', '5'], ['accounts', 'list']]) {
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
    expect(r.stderr).toContain('TOUCHED[Response]')
  })
})

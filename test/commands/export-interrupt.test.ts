/**
 * `export --output` stopped while its temporary file is being opened (a CI run's failure: the
 * signal came between the `.part` file appearing and the export's handler, so Node's default ended
 * the process with the file left behind). The open is held here until the signal has been given.
 * The built CLI stopped midway: test/e2e/interrupted-commands.test.ts.
 */
import { readdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

const gate = vi.hoisted(() => {
  let open!: () => void
  let opened!: () => void
  return {
    release: new Promise<void>((r) => (open = r)),
    opened: new Promise<void>((r) => (opened = r)),
    open: () => open(),
    markOpened: () => opened(),
  }
})

vi.mock('../../src/jobs/output-file.js', async (real) => {
  const m = await real<typeof import('../../src/jobs/output-file.js')>()
  return {
    ...m,
    openOutputStream: async (...a: Parameters<typeof m.openOutputStream>) => {
      const file = await m.openOutputStream(...a)
      gate.markOpened()
      await gate.release
      return file
    },
  }
})

describe('export --output, Ctrl-C while its file is being opened', () => {
  let sb: InProcessSandbox

  beforeAll(async () => {
    sb = new InProcessSandbox('export-interrupt')
    await sb.ok(['init', '--company', 'Stop Co', '--currency', 'USD', '--no-input'])
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    await sb.ok(['tx', 'create', '--account', acct, '--date', '2026-10-02', '--amount', '-12.34', '--description', 'Paper'])
  })
  afterAll(() => sb?.cleanup())

  it('is handled: exit 130, the message, no file and no temporary file left', async () => {
    const name = 'books.journal'
    const others = process.listenerCount('SIGINT')
    const running = sb.run(['export', '--format', 'hledger', '--from', '2026-10-01', '--to', '2026-10-31', '-o', sb.path(name)])
    await gate.opened
    expect(readdirSync(sb.dir).some((f) => f.startsWith(`.${name}.`) && f.endsWith('.part'))).toBe(true)
    // Without a listener of the command's, Node's default for SIGINT would end the process here.
    expect(process.listenerCount('SIGINT')).toBeGreaterThan(others)
    process.emit('SIGINT')
    gate.open()
    const r = await running
    expect(r.code, r.stderr).toBe(130)
    expect(r.stderr).toContain(
      `error: interrupted (Ctrl-C): the export stopped before any transaction was written; ${sb.path(name)} was not written: the same command again writes it whole`,
    )
    expect(readdirSync(sb.dir).filter((f) => f.includes(name))).toEqual([])
  })
})

/**
 * Long waits show progress on a terminal only: `tx list --all` counts rows against the total on
 * stderr (when the rows do not stream to the same terminal), reports show a spinner while they are
 * computed; both are cleared when done, and neither appears without a terminal.
 */
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runProgram } from '../../commands/root.js'
import { Sandbox, fastKey } from '../helpers/cli.js'

describe('progress and spinners on a terminal', () => {
  let sb: Sandbox
  beforeAll(async () => {
    sb = new Sandbox('progress')
    await sb.ok(['init', '--no-input', '--demo'])
    await fastKey(sb)
  })
  afterAll(() => sb?.cleanup())

  async function run(args: string[], tty: { out: boolean; err: boolean }) {
    const stdout = Object.assign(new PassThrough(), { columns: 100 })
    const stderr = new PassThrough()
    let out = ''
    let err = ''
    stdout.on('data', (d: Buffer) => (out += d.toString()))
    stderr.on('data', (d: Buffer) => (err += d.toString()))
    const code = await runProgram(args, {
      stdout,
      stderr,
      stdin: new PassThrough(),
      isStdoutTTY: tty.out,
      isStderrTTY: tty.err,
      isStdinTTY: false,
      env: { ...sb.env({ NO_COLOR: '1' }) },
      now: () => new Date(),
    })
    return { code, out, err }
  }

  it('tx list --all piped to a file: rows counted against the total on the terminal, then cleared', async () => {
    const r = await run(['tx', 'list', '--all', '--limit', '3', '--output', 'csv'], { out: false, err: true })
    expect(r.code).toBe(0)
    expect(r.out.trim().split('\r\n')).toHaveLength(1 + 8)
    expect(r.err).toMatch(/3 \/ 8 rows \(37%\)/)
    expect(r.err).toMatch(/8 \/ 8 rows \(100%\)/)
    expect(r.err.endsWith('\r\x1b[2K')).toBe(true)
  })

  it('no progress when the rows stream to the same terminal, nor without a terminal', async () => {
    expect((await run(['tx', 'list', '--all', '--limit', '3', '--output', 'csv'], { out: true, err: true })).err).not.toMatch(/rows \(/)
    expect((await run(['tx', 'list', '--all', '--limit', '3', '--output', 'csv'], { out: false, err: false })).err).not.toMatch(/rows \(/)
  })

  it('reports: a spinner while the report is computed, cleared before the table', async () => {
    const r = await run(['reports', 'summary'], { out: true, err: true })
    expect(r.code).toBe(0)
    expect(r.err).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] computing the summary/)
    expect(r.err.endsWith('\r\x1b[2K')).toBe(true)
    expect((await run(['reports', 'summary'], { out: true, err: false })).err).not.toContain('computing')
  })
})

/**
 * The in-process harness (test/helpers/in-process-cli.ts) itself: a command's code, stdout and
 * stderr as the spawning Sandbox gives them; the TTY flags and the environment reach the command
 * and never the test's process; the sandbox's folder holds the config and the database, and
 * cleanup leaves nothing of it.
 */
import { existsSync, readdirSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from './in-process-cli.js'

describe('InProcessSandbox', () => {
  const sb = new InProcessSandbox('harness')
  afterAll(() => sb.cleanup())

  it('runs an argv through the real program: usage errors exit 2 on stderr, help exits 0 on stdout', async () => {
    const bad = await sb.run(['rates', 'lst'])
    expect(bad).toMatchObject({ code: 2, signal: null, stdout: '' })
    expect(bad.stderr).toContain("unknown command 'lst'")
    const help = await sb.run(['rates', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: finctl rates')
  })

  it('init makes the config and the database in the sandbox, with the env it was given, not the process', async () => {
    const home = process.env.HOME
    const config = process.env.FINCTL_CONFIG_DIR
    const r = await sb.run(['init', '--no-input', '--currency', 'EUR', '--company', 'Harness Co'])
    expect(r.code, r.stderr).toBe(0)
    expect(existsSync(sb.database)).toBe(true)
    expect(sb.profiles().current).toBe('local')
    // As the spawning Sandbox: the secrets in the sandbox's file, the OS keyring not even tried.
    expect(sb.profiles().profiles.local.api_key).toMatch(/^fds_/)
    expect(r.stderr).not.toContain('OS keyring')
    expect([process.env.HOME, process.env.FINCTL_CONFIG_DIR]).toEqual([home, config])
    expect(await sb.json(['company', '--json'])).toMatchObject({ name: 'Harness Co', base_currency: 'EUR' })
  })

  it('TTY flags and NO_COLOR reach the command: colour on a terminal only', async () => {
    const piped = await sb.ok(['rates', 'set', '--date', '2026-01-02', '--currency', 'USD', '--rate', '0.9'])
    expect(piped.stdout).not.toContain('\x1b[')
    const tty = await sb.ok(['company'], { tty: { stdout: true, stderr: true }, columns: 80 })
    expect(tty.stdout).toContain('\x1b[')
    const noColor = await sb.ok(['company'], { tty: { stdout: true }, env: { NO_COLOR: '1' } })
    expect(noColor.stdout).not.toContain('\x1b[')
  })

  it('cleanup removes the folder and all it holds', () => {
    const dir = sb.dir
    expect(readdirSync(dir).length).toBeGreaterThan(0)
    sb.cleanup()
    expect(existsSync(dir)).toBe(false)
  })
})

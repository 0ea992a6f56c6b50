/**
 * A flag's value that starts with a dash is the flag's, whole: a base64url key (`-qLc6…`) or a
 * description (`-quarterly fee`) never loses its `q` to the program's `-q, --quiet`.
 */
import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import type { IO } from '../../src/cli/io.js'
import { createProgram, dashValueArgs } from '../../src/cli/program.js'

function program(): Command {
  const p = createProgram({ stdout: process.stdout, stderr: process.stderr } as unknown as IO)
  p.command('verify').option('--pack <file>').option('--public-key <key>').option('-n, --name <n>').option('--all')
  return p
}

describe('dashValueArgs', () => {
  it("joins a dash-led value to its flag, the verb's and a global's", () => {
    const p = program()
    expect(dashValueArgs(p, ['verify', '--public-key', '-qLc6d', '--pack', 'a.zip'])).toEqual([
      'verify',
      '--public-key=-qLc6d',
      '--pack',
      'a.zip',
    ])
    expect(dashValueArgs(p, ['verify', '-n', '-quarterly fee'])).toEqual(['verify', '-n-quarterly fee'])
    expect(dashValueArgs(p, ['--profile', '-q', 'verify'])).toEqual(['--profile=-q', 'verify'])
  })

  it('leaves flags without a value, stdin and words after -- alone', () => {
    const p = program()
    expect(dashValueArgs(p, ['verify', '--all', '-q'])).toEqual(['verify', '--all', '-q'])
    expect(dashValueArgs(p, ['verify', '--pack', '-'])).toEqual(['verify', '--pack', '-'])
    expect(dashValueArgs(p, ['verify', '--', '--public-key', '-q'])).toEqual(['verify', '--', '--public-key', '-q'])
  })

  it('commander then hands the flag its whole value', async () => {
    const p = program()
    let got: Record<string, unknown> = {}
    p.commands
      .find((c) => c.name() === 'verify')!
      .action((o: Record<string, unknown>) => {
        got = o
      })
    await p.parseAsync(dashValueArgs(p, ['verify', '--public-key', '-qLc6d']), { from: 'user' })
    expect(got.publicKey).toBe('-qLc6d')
    expect(p.opts().quiet).toBeUndefined()
  })
})

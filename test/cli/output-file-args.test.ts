/**
 * `finctl export -o FILE`: after a command with a hidden `--output-file` option, -o and --output are that
 * command's file, though the program's --output FORMAT would otherwise take the word wherever it stands.
 */
import { type Command, Option } from 'commander'
import { describe, expect, it } from 'vitest'
import { createProgram, outputFileArgs } from '../../src/cli/program.js'
import type { IO } from '../../src/cli/io.js'

function program(): Command {
  const p = createProgram({ stdout: process.stdout, stderr: process.stderr } as unknown as IO)
  p.command('export').option('-o, --output <file>').addOption(new Option('--output-file <file>').hideHelp())
  p.command('keys').command('create').option('--output-file <path>')
  p.command('tx').command('list')
  return p
}

describe('outputFileArgs', () => {
  it('hands -o and --output after export to the command', () => {
    const p = program()
    expect(outputFileArgs(p, ['export', '--format', 'csv', '--output', 'a.csv'])).toEqual([
      'export',
      '--format',
      'csv',
      '--output-file',
      'a.csv',
    ])
    expect(outputFileArgs(p, ['export', '-o', 'a.csv'])).toEqual(['export', '--output-file', 'a.csv'])
    expect(outputFileArgs(p, ['export', '--output=a.csv'])).toEqual(['export', '--output-file=a.csv'])
    expect(outputFileArgs(p, ['export', '-oa.csv'])).toEqual(['export', '--output-file=a.csv'])
    // Before the command, and after `--`, words stay as they are.
    expect(outputFileArgs(p, ['--output', 'json', 'export', '--', '-o'])).toEqual(['--output', 'json', 'export', '--', '-o'])
  })

  it('leaves every other command alone', () => {
    const p = program()
    expect(outputFileArgs(p, ['tx', 'list', '--output', 'csv'])).toEqual(['tx', 'list', '--output', 'csv'])
    expect(outputFileArgs(p, ['-o', 'json', 'tx', 'list'])).toEqual(['-o', 'json', 'tx', 'list'])
    // A visible --output-file of its own (keys create): -o stays the format, never a file named "json".
    expect(outputFileArgs(p, ['keys', 'create', '-o', 'json'])).toEqual(['keys', 'create', '-o', 'json'])
  })

  it('parses: export gets its file, tx list its format', async () => {
    const p = program().exitOverride()
    let seen: Record<string, unknown> = {}
    p.commands
      .find((c) => c.name() === 'export')!
      .action((_o, cmd: Command) => {
        seen = cmd.optsWithGlobals()
      })
    await p.parseAsync(outputFileArgs(p, ['export', '-o', 'books.journal']), { from: 'user' })
    expect(seen).toMatchObject({ outputFile: 'books.journal' })
    expect(seen.output).toBeUndefined()
  })
})

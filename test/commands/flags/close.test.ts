/** `finctl close` flag parsing through each verb's runF: nothing runs (test/helpers/flag-parsing.ts). */
import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { registerHistory } from '../../../commands/close/history.js'
import { registerPack } from '../../../commands/close/pack.js'
import { registerCloseMonth } from '../../../commands/close/month.js'
import { registerReopen } from '../../../commands/close/reopen.js'
import { registerStatus } from '../../../commands/close/status.js'
import type { Runner } from '../../../src/cli/runner.js'
import { parseError, parseFlags } from '../../helpers/flag-parsing.js'

// As commands/close/index.ts makes it: `close MONTH` is a verb of its own, its subcommands under it.
const close = (program: Command, run: Runner) => registerCloseMonth(program, run, async () => undefined)

describe('close flags', () => {
  it('close MONTH: the month is optional; --export is one comma-separated value', async () => {
    expect(await parseFlags(registerCloseMonth, ['close'])).toMatchObject({ opts: {}, args: [] })
    const { opts, args } = await parseFlags(registerCloseMonth, ['close', '2026-10', '--export', 'hledger,xlsx', '--output-dir', 'books/'])
    expect(args).toEqual(['2026-10'])
    expect(opts).toEqual({ export: 'hledger,xlsx', outputDir: 'books/' })
  })

  it('close MONTH: --force and --reason are separate (the run requires --reason with --force); a second month is refused', async () => {
    expect((await parseFlags(registerCloseMonth, ['close', '2026-10', '--force'])).opts).toEqual({ force: true })
    expect((await parseError(registerCloseMonth, ['close', '2026-10', '2026-11'])).code).toBe('commander.excessArguments')
  })

  it('status: a subcommand, not a month; --month takes a value', async () => {
    const { opts, args, command } = await parseFlags(registerStatus, ['close', 'status', '--month', '2026-10'], close)
    expect(command).toBe('close status')
    expect(args).toEqual([])
    expect(opts).toEqual({ month: '2026-10' })
  })

  it('reopen: MONTH required; --reason is not required by commander (the run refuses without it)', async () => {
    expect((await parseError(registerReopen, ['close', 'reopen', '--reason', 'late'], close)).code).toBe('commander.missingArgument')
    const { opts, args } = await parseFlags(registerReopen, ['close', 'reopen', '2026-10'], close)
    expect(args).toEqual(['2026-10'])
    expect(opts).toEqual({})
  })

  it("reopen: --reason reaches close's own --reason, not reopen's (the run reads both)", async () => {
    const { opts, globals } = await parseFlags(registerReopen, ['close', 'reopen', '2026-10', '--reason', 'late invoice'], close)
    expect(opts.reason).toBeUndefined()
    expect((globals as { reason?: string }).reason).toBe('late invoice')
  })

  it("status refuses close's flags (--force, --export) rather than ignoring them", async () => {
    const e = await parseError(registerStatus, ['close', 'status', '--force'], close)
    expect(e.code).toBe('commander.unknownOption')
    expect(e.message).toContain('--force is an option of `finctl close MONTH`, not of `finctl close status`')
    expect((await parseError(registerHistory, ['close', 'history', '--export', 'csv'], close)).code).toBe('commander.unknownOption')
    // reopen has a --reason of its own.
    expect((await parseFlags(registerReopen, ['close', 'reopen', '2026-10', '--reason', 'late'], close)).args).toEqual(['2026-10'])
  })

  it('history takes no argument', async () => {
    expect((await parseFlags(registerHistory, ['close', 'history'], close)).command).toBe('close history')
    expect((await parseError(registerHistory, ['close', 'history', '2026-10'], close)).code).toBe('commander.excessArguments')
  })

  it('pack: MONTH required; -o, --formats and --force (a second month is refused)', async () => {
    const { opts, args, command, globals } = await parseFlags(
      registerPack,
      ['close', 'pack', '2026-10', '--output', 'p.zip', '--formats', 'hledger,xlsx', '--force'],
      close,
    )
    expect(command).toBe('close pack')
    expect(args).toEqual(['2026-10'])
    // -o after `close pack` reaches it as --output-file (program.ts outputFileArgs); --force may reach `close`, which has one too.
    expect(opts).toMatchObject({ outputFile: 'p.zip', formats: 'hledger,xlsx' })
    expect(opts.force ?? (globals as { force?: boolean }).force).toBe(true)
    expect((await parseFlags(registerPack, ['close', 'pack', '2026-10'], close)).opts).toEqual({ formats: 'csv' })
    expect((await parseError(registerPack, ['close', 'pack'], close)).code).toBe('commander.missingArgument')
    expect((await parseError(registerPack, ['close', 'pack', '2026-10', '2026-11'], close)).code).toBe('commander.excessArguments')
  })
})

/** finctl close reopen MONTH --reason T: the owner reopens a closed month. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { month } from './shared.js'

export interface ReopenOptions {
  reason?: string
}

export function registerReopen(close: Command, run: Runner, runF: RunVerb<ReopenOptions> = runReopen): void {
  close
    .command('reopen')
    .argument('<month>', 'the month to reopen, YYYY-MM')
    .description('reopen a closed month (a login with close); under an approval policy, a proposal (exit 15)')
    .option('--reason <text>', 'why (required; recorded)')
    .addHelpText('after', '\nExample:\n  finctl close reopen 2026-10 --reason "late supplier invoice"\n')
    .action(run(runF))
}

export async function runReopen(host: VerbHost, o: ReopenOptions, [m]: string[]): Promise<number> {
  month('MONTH', m)
  // `close reopen M --reason T`: commander hands --reason to `close` (which has one too) before `reopen` sees it.
  const reason = o.reason ?? (host.globals as { reason?: string }).reason
  if (!reason?.trim()) throw new AppError('usage', '--reason TEXT is required: say why the month is reopened')
  const out = await (await host.client()).close.requestReopen(m, reason)
  if (out.proposal) {
    // Loaded with a proposal: the group's other verbs do not need the approvals' output.
    const { printProposed } = await import('../approvals/shared.js')
    return printProposed(host, out.proposal)
  }
  const r = out.done
  await printRecord(host.io, host.printer, r)
  note(host.io, host.printer, `reopened ${m}: the lock date is ${r.lock_date ?? 'none'}`)
  return EXIT.ok
}

/** finctl events list | get ID | resend ID: the company's outbox of events (docs/events.md). */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerGet } from './get.js'
import { registerList } from './list.js'
import { registerResend } from './resend.js'

export function registerEvents(program: Command, run: Runner): void {
  const events = program
    .command('events')
    .description("the company's events (transaction.created, transactions.imported, ...), oldest first: what webhooks deliver")
  registerList(events, run)
  registerGet(events, run)
  registerResend(events, run)
}

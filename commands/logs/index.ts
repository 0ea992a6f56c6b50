/** finctl logs tail: the requests made with the company's keys (docs/logs.md). */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerTail } from './tail.js'

export function registerLogs(program: Command, run: Runner): void {
  const logs = program.command('logs').description("the requests made with the company's keys")
  registerTail(logs, run)
}
